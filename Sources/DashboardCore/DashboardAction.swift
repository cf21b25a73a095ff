import TriageModel

/// Everything that can happen to the dashboard: input, and the results of effects.
public enum DashboardAction: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    case listLoaded(IssueList)
    case detailLoaded(IssueDetail)
    /// The root-cause pivot for a layer and the list query it was computed for.
    /// `unknownDomain`: a domain pivot whose domain no chain in the store has.
    case pivotLoaded(layer: Layer, query: IssueQuery, groups: [LayerGroup], unknownDomain: Bool = false)
    /// The meeting's agenda and the complaints no code explains, for its closing page.
    case agendaLoaded(Agenda, unlinked: UnlinkedComplaints)
    /// The newest version against the one before it over a window (nil: no event names a version).
    case releaseLoaded(ReleaseComparison?, window: TimeWindow)
    /// The saved views, by name.
    case viewsLoaded([SavedView])
    /// A ticket draft was written to a file.
    case ticketWritten(key: String, path: String, text: String)
    /// The store applied a mark.
    case marked(MarkReceipt)
    /// The store undid a mark.
    case undone(MarkReceipt)
    /// The store left a change alone because someone changed the issue since (the sentence says who and what).
    case undoSkipped(MarkReceipt, String)
    /// An effect failed: shown, and an optimistic mark still pending is reverted.
    case failed(String)
    /// Another process changed the store: reload, keeping the selection and the open detail.
    case storeChanged
    /// The store stopped (true) or started again (false) answering; coming back reloads.
    case connection(offline: Bool)
    /// Time passes (about once a second): transient messages expire.
    case tick
}

/// Work the reducer asks the program to do: a question or a change for the store, whose answer
/// comes back as an action, or something the loop does on the screen itself.
public enum DashboardEffect: Hashable, Sendable {
    case store(StoreRequest)
    /// Repaint the whole terminal (Ctrl-L).
    case redraw
    /// Leave the dashboard (after the changes on their way land).
    case quit
    /// Puts text on the clipboard where the terminal allows it.
    case copy(String)
}

/// What the dashboard asks of the store; the answer comes back as an action.
public enum StoreRequest: Hashable, Sendable {
    case loadList(IssueQuery)
    case loadDetail(key: String, window: TimeWindow)
    /// Groups every issue the query lets through by the link a layer picks.
    case loadPivot(IssueQuery, Layer)
    /// Builds the meeting's agenda; `record` also records that a meeting starts now (for `--since-meeting`).
    case loadAgenda(window: TimeWindow, top: Int, record: Bool)
    /// Compares the newest version with the one before it over a window.
    case loadRelease(window: TimeWindow)
    /// Writes a ticket draft for an issue to a file (`T`).
    case writeTicket(key: String, window: TimeWindow)
    /// Reads the saved views.
    case loadViews
    /// A change to an issue: a status, a note, a tracker link, an assignee.
    case mark(key: String, IssueMark)
    /// Takes a change back if it still stands.
    case undo(MarkReceipt)

    /// Whether it writes (the loop reads the store's revision after it, so that its own write is no reload).
    public var writes: Bool {
        switch self {
        case .mark, .undo: true
        default: false
        }
    }
}

/// Shorthands: each store request as an effect, as the reducer and its tests write them.
extension DashboardEffect {
    /// `.store(.loadList…)`.
    public static func loadList(_ query: IssueQuery) -> Self { .store(.loadList(query)) }
    /// `.store(.loadDetail…)`.
    public static func loadDetail(key: String, window: TimeWindow) -> Self { .store(.loadDetail(key: key, window: window)) }
    /// `.store(.loadPivot…)`.
    public static func loadPivot(_ query: IssueQuery, _ layer: Layer) -> Self { .store(.loadPivot(query, layer)) }
    /// `.store(.loadAgenda…)`.
    public static func loadAgenda(window: TimeWindow, top: Int, record: Bool) -> Self { .store(.loadAgenda(window: window, top: top, record: record)) }
    /// `.store(.loadRelease…)`.
    public static func loadRelease(window: TimeWindow) -> Self { .store(.loadRelease(window: window)) }
    /// `.store(.writeTicket…)`.
    public static func writeTicket(key: String, window: TimeWindow) -> Self { .store(.writeTicket(key: key, window: window)) }
    /// `.store(.loadViews…)`.
    public static var loadViews: Self { .store(.loadViews) }
    /// `.store(.mark…)`.
    public static func mark(key: String, _ mark: IssueMark) -> Self { .store(.mark(key: key, mark)) }
    /// `.store(.undo…)`.
    public static func undo(_ receipt: MarkReceipt) -> Self { .store(.undo(receipt)) }
}
