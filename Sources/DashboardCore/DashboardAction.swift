import TriageModel

/// Everything that can happen to the dashboard: input, and the results of effects.
public enum DashboardAction: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    case listLoaded(IssueList)
    case detailLoaded(IssueDetail)
    /// The root-cause pivot for a layer and the list query it was computed for.
    case pivotLoaded(layer: Layer, query: IssueQuery, groups: [LayerGroup])
    /// The meeting's agenda and the complaints no code explains, for its closing page.
    case agendaLoaded(Agenda, unlinked: UnlinkedComplaints)
    /// The newest version against the one before it over a window (nil: no event names a version).
    case releaseLoaded(ReleaseComparison?, window: TimeWindow)
    /// The saved views, by name.
    case viewsLoaded([SavedView])
    /// The store assigned an issue (nil: cleared).
    case assigned(key: String, to: String?)
    /// A ticket draft was written to a file.
    case ticketWritten(key: String, path: String, text: String)
    /// The store applied a mark.
    case marked(MarkReceipt)
    /// The store undid a mark.
    case undone(MarkReceipt)
    /// An effect failed: shown, and an optimistic mark still pending is reverted.
    case failed(String)
    /// Another process changed the store: reload, keeping the selection and the open detail.
    case storeChanged
    /// The store stopped (true) or started again (false) answering; coming back reloads.
    case connection(offline: Bool)
    /// Time passes (about once a second): transient messages expire.
    case tick
}

/// Work the reducer asks the program to do; results come back as actions.
public enum DashboardEffect: Hashable, Sendable {
    case loadList(IssueQuery)
    case loadDetail(key: String, window: TimeWindow)
    /// Groups every issue the query lets through by the link a layer picks.
    case loadPivot(IssueQuery, Layer)
    /// Builds the meeting's agenda; `record` also records that a meeting starts now (for `--since-meeting`).
    case loadAgenda(window: TimeWindow, top: Int, record: Bool)
    /// Compares the newest version with the one before it over a window.
    case loadRelease(window: TimeWindow)
    /// Assigns an issue to a person (nil clears), with a history row.
    case assign(key: String, to: String?)
    /// Writes a ticket draft for an issue to a file (`T`).
    case writeTicket(key: String, window: TimeWindow)
    /// Puts text on the clipboard where the terminal allows it.
    case copy(String)
    /// Reads the saved views.
    case loadViews
    case mark(key: String, IssueMark)
    case undo(MarkReceipt)
    /// Repaint the whole terminal (Ctrl-L).
    case redraw
    case quit
}
