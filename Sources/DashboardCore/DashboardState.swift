import TriageModel

/// A screen of the dashboard; the state keeps a stack of them, the list at the bottom.
public enum Screen: Hashable, Sendable {
    case list
    case detail
    /// Every field of one recent event of the open issue.
    case event(index: Int)
    case help
    /// Issues grouped by one link of their chains (the root-cause pivot).
    case pivot
    /// The meeting's closing page: the complaints no code explains.
    case meetingEnd
    /// What the newest version brought against the one before it.
    case release
    /// The saved views, to open one on the list.
    case views

    /// Whether the mark keys act here: on the list's selection or the open issue.
    var takesMarks: Bool {
        switch self {
        case .list, .detail, .event: true
        case .help, .pivot, .meetingEnd, .release, .views: false
        }
    }
}

/// A pane of the issue detail screen, numbered as the keys 1–6 select them.
public enum DetailPane: Int, CaseIterable, Hashable, Sendable {
    case chain = 1, breakdowns, events, complaints, notes, life

    /// The tab's name.
    public var title: String {
        switch self {
        case .chain: "Chain"
        case .breakdowns: "Breakdowns"
        case .events: "Events"
        case .complaints: "Complaints"
        case .notes: "Notes & history"
        case .life: "Life"
        }
    }

    /// The tab's name where space is short.
    var shortTitle: String {
        switch self {
        case .chain: "Chain"
        case .breakdowns: "Break"
        case .events: "Events"
        case .complaints: "Compl"
        case .notes: "Notes"
        case .life: "Life"
        }
    }

    /// The pane a number key selects (`6`: Life); nil for any other key.
    init?(digit: Character) {
        guard digit.isASCII, let n = digit.wholeNumberValue else { return nil }
        self.init(rawValue: n)
    }

    /// The number keys that select the panes.
    static var digits: [Character] { allCases.map { Character(String($0.rawValue)) } }

    /// The pane Tab shows next, the first after the last.
    var next: DetailPane { DetailPane(rawValue: rawValue % DetailPane.allCases.count + 1)! }
    /// The pane Shift-Tab shows, the last before the first.
    var previous: DetailPane {
        DetailPane(rawValue: (rawValue + DetailPane.allCases.count - 2) % DetailPane.allCases.count + 1)!
    }
}

/// A one-line text prompt in the status line.
public struct Prompt: Hashable, Sendable {
    /// What the entered text is for.
    public enum Purpose: Hashable, Sendable {
        /// Live filter text of the list.
        case filter
        /// The version an issue's fix ships in.
        case resolve(key: String)
        case note(key: String)
        case tracker(key: String)
        /// Who works on an issue.
        case assign(key: String)
        /// The domain the pivot groups by.
        case pivotDomain
    }

    public var purpose: Purpose
    public var text: String
    /// The cursor, in characters from the start of `text`.
    public var cursor: Int
    /// Why the filter's text is not a query (the list is back as it was before the prompt opened).
    public var error: String?
    /// The text it opened with: Esc, or a filter that is not a query, puts the list back to it.
    public var original: String

    /// A prompt with its text pre-filled and the cursor at the end.
    public init(purpose: Purpose, text: String = "") {
        self.purpose = purpose
        self.text = text
        self.cursor = text.count
        self.original = text
    }

    /// The label before the text.
    var label: String {
        switch purpose {
        case .filter: "/"
        case .resolve(let key): "Resolve \(key) in version: "
        case .note(let key): "Note on \(key): "
        case .tracker(let key): "Tracker link for \(key) (empty clears): "
        case .assign(let key): "Assign \(key) to (empty clears): "
        case .pivotDomain: "Pivot by domain (e.g. TolokaBackendError; empty: root cause): "
        }
    }
}

/// A transient line in the status bar.
public struct StatusMessage: Hashable, Sendable {
    public var text: String
    public var isError: Bool
    /// Ticks left before it disappears.
    public var ticksLeft: Int

    /// A message that lasts `ticksLeft` ticks (or until the next key).
    public init(_ text: String, isError: Bool = false, ticksLeft: Int = 8) {
        self.text = text
        self.isError = isError
        self.ticksLeft = ticksLeft
    }
}

/// What an issue looked like before an optimistic change, to put back if the store refuses it.
public struct PendingChange: Hashable, Sendable {
    /// The change sent to the store.
    public enum Kind: Hashable, Sendable {
        case mark(IssueMark)
        case undo(MarkReceipt)
    }

    public var key: String
    public var kind: Kind
    public var status: IssueStatus
    public var trackerURL: String?
    public var assignee: String?
    public var resolvedVersion: String?
    public var notes: [IssueNote]?
}

/// Everything the views draw and the reducer changes.
public struct DashboardState: Hashable, Sendable {
    /// The store's name as the header shows it.
    public var storeName: String
    /// The list being shown or loaded: window, rank mode, status filter, filter text.
    public var query: IssueQuery
    /// Whether the terminal shows UTF-8 (block sparklines) or only ASCII.
    public var unicode: Bool
    /// Whether the terminal uses colours; views do not depend on it, the terminal's style map does.
    public var color: Bool
    /// Whether marks are refused.
    public var readOnly: Bool
    /// Whether the store cannot be reached (a team store's server went away): the last screen
    /// stays, the header says `[offline]`, and the loop reconnects by itself.
    public var offline = false
    /// Whether a list load is under way.
    public var loading = false

    /// Whether windows end at the store's newest event instead of the clock (`N`, `--now data`).
    public var anchoredToData = false
    /// The store's newest event, as the last list (or the start) told it.
    public var dataEnd: Timestamp?

    /// The last list loaded; nil until the first arrives.
    public var list: IssueList?
    /// The selected issue's key, which survives reloads; `selectedIndex` follows it.
    public var selectedKey: String?
    /// The selected row of `list.issues`.
    public var selectedIndex = 0
    /// The first list row shown.
    public var listScroll = 0

    /// The screen stack; the last is shown.
    public var screens: [Screen] = [.list]
    /// The issue the detail screen shows (set before its detail arrives).
    public var detailKey: String?
    /// The open issue's detail; nil while it loads.
    public var detail: IssueDetail?
    /// The detail pane shown.
    public var pane: DetailPane = .chain
    /// The first line of the detail pane shown.
    public var paneScroll = 0
    /// The selected event in the Events pane.
    public var eventIndex = 0
    /// The first line shown of the event screen.
    public var eventScroll = 0
    /// The first line shown of the help screen.
    public var helpScroll = 0

    /// The root-cause pivot screen: its layer, groups and selection.
    public var pivot = PivotState()
    /// The release screen: its comparison, window and selection.
    public var release = ReleaseScreenState()
    /// The saved views screen: the views and the selection.
    public var savedViews = ViewsState()
    /// The meeting being walked, if one was started (`M`, or `errtriage meeting`).
    public var meeting: MeetingWalk?
    /// How many issues the agenda's top-by-complaints and top-by-events sections take.
    public var meetingTop = 5
    /// Whether `start` opens the meeting at once (`errtriage meeting`).
    public var startsMeeting = false
    /// Whether the meeting walks its agenda owner by owner (`meeting --by-owner`).
    public var meetingByOwner = false
    /// Whether this run recorded a meeting start already.
    var meetingRecorded = false

    /// The prompt open in the status line, which takes every key while open.
    public var prompt: Prompt?
    /// Receipts of this run's changes (marks, notes, links, assignees), the newest last: `u` takes
    /// back the newest that still stands.
    public var undoStack: [MarkReceipt] = []
    /// The changes `u` skipped on its way down the stack (someone changed them since), said once it stops.
    var undoSkips: [String] = []
    /// Optimistic changes not yet confirmed by the store, oldest first.
    public var pending: [PendingChange] = []
    /// The transient status line message; the next key clears it.
    public var message: StatusMessage?
    /// The last size the terminal reported; layout for mouse hits and scrolling uses it.
    public var size = Size(rows: 24, cols: 80)

    /// A dashboard on the list screen with nothing loaded yet; call `start` for the first load.
    public init(storeName: String, query: IssueQuery = IssueQuery(), unicode: Bool = true, color: Bool = true,
                readOnly: Bool = false) {
        self.storeName = storeName
        self.query = query
        self.unicode = unicode
        self.color = color
        self.readOnly = readOnly
    }

    /// Where the loop ends windows: the data's end when anchored to it (nil: its own clock or `--now`).
    public var windowEnd: Timestamp? { anchoredToData ? dataEnd : nil }

    /// The screen on top of the stack.
    public var screen: Screen { screens.last ?? .list }

    /// Starts the dashboard at a size: returns the first load.
    public mutating func start(size: Size? = nil) -> [DashboardEffect] {
        if let size { self.size = size }
        loading = true
        var effects: [DashboardEffect] = [.loadList(query)]
        if startsMeeting { effects.append(startMeeting()) }
        return effects
    }

    /// The selected row of the list, if any.
    public var selectedIssue: IssueSummary? {
        guard let issues = list?.issues, issues.indices.contains(selectedIndex) else { return nil }
        return issues[selectedIndex]
    }

    /// The issue marks apply to: the open detail's, or the selected row's.
    var markTarget: IssueSummary? {
        if screen == .pivot || screen == .meetingEnd || screen == .release || screen == .views { return nil }
        if screen != .list, screen != .help, let key = detailKey {
            return detail?.summary ?? list?.issues.first { $0.key == key }
        }
        return selectedIssue
    }
}

/// The root-cause pivot screen's state.
public struct PivotState: Hashable, Sendable {
    /// The link each chain is grouped by.
    public var layer: Layer = .root
    /// The groups for `layer` and the list's query; nil until they arrive.
    public var groups: [LayerGroup]?
    /// The query the groups were computed for.
    public var query: IssueQuery?
    /// The domain asked for (`d`) is one no chain in the store has.
    public var unknownDomain = false
    /// The selected group.
    public var selected = 0
    /// The first group row shown.
    public var scroll = 0

    public init(layer: Layer = .root) { self.layer = layer }

    /// The selected group, if the groups are loaded.
    public var selectedGroup: LayerGroup? { groups?[safe: selected] }
}

/// A meeting walking its agenda one issue at a time.
public struct MeetingWalk: Hashable, Sendable {
    public var agenda: Agenda
    /// The complaints no code explains, shown after the last issue.
    public var unlinked: UnlinkedComplaints
    /// The window the agenda was built from.
    public var window: TimeWindow
    /// The item shown; `agenda.items.count` is the closing page.
    public var index: Int
    /// The first line of the closing page shown.
    public var endScroll = 0

    public init(agenda: Agenda, unlinked: UnlinkedComplaints, window: TimeWindow, index: Int = 0) {
        self.agenda = agenda
        self.unlinked = unlinked
        self.window = window
        self.index = index
    }

    /// The agenda item shown, nil on the closing page.
    public var item: Agenda.Item? { agenda.items[safe: index] }

    /// Where the walk stands, for headers: `item 4 of 23`, or `end of agenda`.
    public var progress: String {
        item == nil ? "end of agenda (\(agenda.items.count) items)" : "item \(index + 1) of \(agenda.items.count)"
    }
}
