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
    /// An event of an issue read whole (or not kept whole), with the issue's kept events.
    case eventLoaded(WholeEvent)
    /// What the checkout says of the open issue's raise sites or of the event shown.
    case codeLoaded(CodeAnswer)
    /// The editor `e` ran has ended (nil), or could not run: why.
    case editorClosed(String?)
    /// A ticket draft was written to a file.
    case ticketWritten(key: String, path: String, text: String)
    /// The store applied a mark.
    case marked(MarkReceipt)
    /// The store undid a mark.
    case undone(MarkReceipt)
    /// The store left a change alone because someone changed the issue since (the sentence says who and what).
    case undoSkipped(MarkReceipt, String)
    /// The store merged issues into one group under `head` (the first of `keys`); the receipt,
    /// where the store gave one, is what `u` takes back.
    case merged(head: String, keys: [String], receipt: MergeReceipt? = nil)
    /// The store took a merge back: the keys it took out of the head's group (none: all were moved since).
    case mergeUndone(MergeReceipt, restored: [String])
    /// The store made a grouping rule; what it took.
    case ruleAdded(GroupingPreview)
    /// An effect failed: shown, and an optimistic mark still pending is reverted.
    case failed(String)
    /// The store waits for another process writing it (a prune, an ingest): said on the status
    /// line while the mark or the load waits its turn.
    case waiting(String)
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
    /// Reads the checkout of the code, off the input loop and beside the store's work (a slow git never holds a key).
    case code(CodeRequest)
    /// Suspends the dashboard, runs the user's editor on a file at a line with the terminal, and
    /// redraws when it ends; the answer is `.editorClosed`.
    case openEditor(file: String, line: Int?)
}

/// What the dashboard asks of the checkout; the answer comes back as `.codeLoaded`.
public enum CodeRequest: Hashable, Sendable {
    /// An issue's raise sites: each one's file, the line's last commit before `firstSeen`, its owners.
    case issue(key: String, raise: RaiseFrames, firstSeen: Timestamp)
    /// An event's frames: each one's file, and the lines around those the SDK sent no source for.
    case event(issueKey: String, EventDetail)
}

/// The checkout's answer, for the request it answers.
public enum CodeAnswer: Hashable, Sendable {
    case issue(key: String, raise: RaiseFrames, CodeFacts)
    case event(issueKey: String, eventID: String, CodeFacts)
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
    /// Writes a ticket draft for an issue to a file (`T`), with what the checkout said of its raise sites.
    case writeTicket(key: String, window: TimeWindow, code: CodeFacts? = nil)
    /// Reads the saved views.
    case loadViews
    /// Reads an event of an issue from its kept payload, and which events of the issue are kept whole.
    case loadEvent(id: String, issueKey: String)
    /// A change to an issue: a status, a note, a tracker link, an assignee.
    case mark(key: String, IssueMark)
    /// Takes a change back if it still stands.
    case undo(MarkReceipt)
    /// Merges issues into one group under the first key (`J` on the list).
    case merge(keys: [String])
    /// Takes a merge back where its issues are still in the head's group (`u` after `J`).
    case undoMerge(MergeReceipt)
    /// Makes a grouping rule (offered after a merge).
    case addRule(name: String, query: String)

    /// Whether it writes (the loop reads the store's revision after it, so that its own write is no reload).
    public var writes: Bool {
        switch self {
        case .mark, .undo, .merge, .undoMerge, .addRule: true
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
    public static func writeTicket(key: String, window: TimeWindow, code: CodeFacts? = nil) -> Self {
        .store(.writeTicket(key: key, window: window, code: code))
    }
    /// `.store(.loadEvent…)`.
    public static func loadEvent(id: String, issueKey: String) -> Self { .store(.loadEvent(id: id, issueKey: issueKey)) }
    /// `.store(.loadViews…)`.
    public static var loadViews: Self { .store(.loadViews) }
    /// `.store(.mark…)`.
    public static func mark(key: String, _ mark: IssueMark) -> Self { .store(.mark(key: key, mark)) }
    /// `.store(.undo…)`.
    public static func undo(_ receipt: MarkReceipt) -> Self { .store(.undo(receipt)) }
}

/// The answer to `loadEvent`: the event read from its kept payload (nil when the store does not
/// keep it whole) and the issue's kept events, newest first, for the event screen to step through.
public struct WholeEvent: Hashable, Sendable {
    public var eventID: String
    public var issueKey: String
    public var detail: EventDetail?
    /// Why the store keeps it (`first`, `latest`, …).
    public var roles: [String]
    /// The issue's kept events, newest first: each one's id and time.
    public var kept: [KeptRef]

    public init(eventID: String, issueKey: String, detail: EventDetail?, roles: [String] = [], kept: [KeptRef]) {
        self.eventID = eventID
        self.issueKey = issueKey
        self.detail = detail
        self.roles = roles
        self.kept = kept
    }

    /// A kept event of the issue: its id and time.
    public struct KeptRef: Hashable, Sendable {
        public var eventID: String
        public var timestamp: Timestamp

        public init(eventID: String, timestamp: Timestamp) {
            self.eventID = eventID
            self.timestamp = timestamp
        }
    }
}
