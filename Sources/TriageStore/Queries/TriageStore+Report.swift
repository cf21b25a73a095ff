import TriageModel

/// What `errtriage report` asks, as its options say it: the list of a window, its issues grouped by
/// one link (`--by-layer`), or the minutes (`--format markdown`, `--since-meeting`); narrowed by a
/// query, a saved view and an environment. `TriageStore.report` answers it in one call.
public struct ReportRequest: Sendable {
    public enum Shape: Sendable, Equatable {
        case list
        case pivot(Layer)
        /// The minutes of the window, or of the time since the last recorded meeting.
        case minutes(sinceMeeting: Bool)
    }

    public var shape: Shape = .list
    /// The period counted; nil: the view's, else 7 days.
    public var window: TimeWindow?
    /// The ranking; nil: the view's, else by events.
    public var mode: RankMode?
    public var status: StatusFilter = .active
    /// How many issues (per agenda section in the minutes); nil: 20 (5 in the minutes).
    public var top: Int?
    public var kind: EventKind?
    /// The query's text; a saved view's (`view`) when nil.
    public var query: String?
    /// A saved view's name: its query, and its ranking and window unless given.
    public var view: String?
    /// Only this environment's events, unless the query names one (`env:NAME`).
    public var environment: String?

    public init() {}
}

/// What a report request is answered with.
public enum ReportAnswer: Sendable {
    /// The list, with the window's complaints that cite no issue, the newest version and each issue's projects.
    case list(IssueList, unlinked: UnlinkedComplaints, latestVersion: String?, projects: [String: [String]])
    /// The first `top` groups of the list by one link, and the whole list they were made from.
    case pivot(groups: [LayerGroup], layer: Layer, list: IssueList)
    case minutes(MinutesData)
    /// A request the store cannot answer as asked, in a sentence: the minutes since the last
    /// meeting where none is recorded, or the minutes narrowed by a query.
    case refused(String)
}

extension TriageStore {
    /// Answers `report`: resolves the saved view, the environment and the window, and reads the
    /// list, the pivot or the minutes they ask for.
    public func report(_ r: ReportRequest, now: Timestamp) throws(StoreError) -> ReportAnswer {
        let saved = try r.view.map { name throws(StoreError) in try savedView(named: name) }
        let text = SearchQuery.withDefaultEnvironment(saved?.query ?? r.query ?? "", r.environment)
        let mode = r.mode ?? saved?.mode ?? .events
        let window = r.window ?? saved?.window ?? .d7
        switch r.shape {
        case .pivot(let layer):
            let pivot = try layerPivot(IssueQuery(window: window, mode: mode, filter: r.status, text: text, top: .max, kind: r.kind),
                                       by: layer, now: now)
            return .pivot(groups: Array(pivot.groups.prefix(r.top ?? 20)), layer: layer, list: pivot.list)
        case .minutes(let sinceMeeting):
            guard text.isEmpty else { return .refused("--query, --view and --env narrow the list (text or json), not the minutes") }
            var since: Timestamp?
            var span = window
            if sinceMeeting {
                guard let last = try lastMeeting(before: now) else {
                    return .refused("no meeting is recorded yet (errtriage meeting records one); use --window instead")
                }
                since = last
                span = TimeWindow.smallest(covering: now.millis - last.millis)
            }
            return .minutes(try minutes(window: span, now: now, since: since, top: r.top ?? 5))
        case .list:
            let list = try issueList(IssueQuery(window: window, mode: mode, filter: r.status, text: text, top: r.top ?? 20, kind: r.kind), now: now)
            return .list(list, unlinked: try unlinkedComplaints(window: window, now: now), latestVersion: try versions().last,
                         projects: try projectNames(ofIssues: list.issues.map(\.key)))
        }
    }
}
