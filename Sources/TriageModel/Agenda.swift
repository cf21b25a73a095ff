/// The weekly meeting's agenda: what needs a decision, most urgent first, each issue once.
public struct Agenda: Hashable, Sendable {
    /// Why an issue is on the agenda; sections run in this order.
    public enum Section: String, CaseIterable, Sendable {
        case regressed, spikes, new, complaints, events

        /// A heading for people.
        public var title: String {
            switch self {
            case .regressed: "Regressed"
            case .spikes: "Spikes"
            case .new: "New"
            case .complaints: "Top by complaints"
            case .events: "Top by events"
            }
        }
    }

    public struct Item: Hashable, Sendable {
        public var section: Section
        public var issue: IssueSummary
        public init(section: Section, issue: IssueSummary) {
            self.section = section
            self.issue = issue
        }
    }

    public var items: [Item]

    public init(items: [Item]) { self.items = items }

    /// Builds the agenda from every open or regressed issue of the window (with its signals):
    /// regressed first, then spikes, then new issues (crashes, then ANRs, then non-fatals), then
    /// the top `top` by complaints, then the top `top` by events, each issue once.
    public static func build(from issues: [IssueSummary], top: Int) -> Agenda {
        var seen = Set<String>()
        var items: [Item] = []
        func add(_ section: Section, _ rows: [IssueSummary]) {
            for row in rows where seen.insert(row.key).inserted { items.append(Item(section: section, issue: row)) }
        }
        let byEvents = issues.sorted { $0.events != $1.events ? $0.events > $1.events : $0.key < $1.key }
        add(.regressed, byEvents.filter { $0.status == .regressed })
        add(.spikes, byEvents.filter { $0.signals.contains(.spike) })
        let severity = { (row: IssueSummary) in row.kind?.severity ?? 0 }
        add(.new, byEvents.filter { $0.signals.contains(.new) }.sorted { a, b in
            severity(a) != severity(b) ? severity(a) > severity(b) : a.events != b.events ? a.events > b.events : a.key < b.key
        })
        let byComplaints = issues.filter { $0.complaints > 0 }
            .sorted { $0.complaints != $1.complaints ? $0.complaints > $1.complaints : $0.events > $1.events }
        add(.complaints, Array(byComplaints.prefix(top)))
        add(.events, Array(byEvents.filter { $0.events > 0 }.prefix(top)))
        return Agenda(items: items)
    }

    /// The items of one section, in order.
    public func items(in section: Section) -> [Item] { items.filter { $0.section == section } }
}

/// A decision taken on an issue: a status change or a note, for the minutes.
public struct Decision: Hashable, Sendable {
    public var key: String
    public var at: Timestamp
    public var by: String
    /// `resolved in 1.13`, `note: …`, `tracker: …`.
    public var text: String

    public init(key: String, at: Timestamp, by: String, text: String) {
        self.key = key
        self.at = at
        self.by = by
        self.text = text
    }
}

/// What the meeting's minutes say: the window's issues and the window before, the agenda, the
/// decisions of the period, the complaints no code explains and the latest version's figures.
public struct MinutesData: Sendable {
    public var window: TimeWindow
    public var now: Timestamp
    /// The meeting the minutes run from, when they follow one.
    public var since: Timestamp?
    public var current: IssueList
    public var previous: IssueList?
    public var agenda: Agenda
    public var decisions: [Decision]
    public var unlinked: UnlinkedComplaints
    /// The latest version's figures, nil when no event names a version.
    public var release: ReleaseSummary?

    public init(window: TimeWindow, now: Timestamp, since: Timestamp?, current: IssueList, previous: IssueList?, agenda: Agenda,
                decisions: [Decision], unlinked: UnlinkedComplaints, release: ReleaseSummary?) {
        self.window = window
        self.now = now
        self.since = since
        self.current = current
        self.previous = previous
        self.agenda = agenda
        self.decisions = decisions
        self.unlinked = unlinked
        self.release = release
    }
}
