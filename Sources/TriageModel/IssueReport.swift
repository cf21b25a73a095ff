/// A flag worth a look, shown as a badge in the dashboard and listed in `report --format json`.
public enum Signal: String, CaseIterable, Sendable, Codable {
    case regressed = "REGRESSED", spike = "SPIKE", new = "NEW"
}

/// One row of the top-N list: an issue and its counts inside the window.
public struct IssueSummary: Hashable, Sendable {
    public var key: String
    public var chain: ErrorChain
    public var status: IssueStatus
    public var events: Int
    public var users: Int
    public var complaints: Int
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
    public var firstVersion: String?
    public var lastVersion: String?
    /// Events per bucket across the window, oldest first (hours for 24h, days otherwise).
    public var series: [Int]
    public var signals: [Signal]
    public var trackerURL: String?
    /// The most severe kind among the issue's events (a crash, then an ANR, then a non-fatal); nil when none says.
    public var kind: EventKind?
    /// Who works on the issue (`errtriage assign`, `a`); nil when nobody.
    public var assignee: String?
    /// The team that owns it (an owner rule); nil when none.
    public var owner: String?
    /// Every issue of a merged group, the head first, each with its own counts; empty when the issue stands alone.
    public var members: [IssueSummary] = []

    public init(key: String, chain: ErrorChain, status: IssueStatus, events: Int, users: Int, complaints: Int,
                firstSeen: Timestamp, lastSeen: Timestamp, firstVersion: String?, lastVersion: String?,
                series: [Int], signals: [Signal] = [], trackerURL: String? = nil, kind: EventKind? = nil,
                assignee: String? = nil, owner: String? = nil) {
        self.assignee = assignee
        self.owner = owner
        self.key = key
        self.chain = chain
        self.status = status
        self.events = events
        self.users = users
        self.complaints = complaints
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.firstVersion = firstVersion
        self.lastVersion = lastVersion
        self.series = series
        self.signals = signals
        self.trackerURL = trackerURL
        self.kind = kind
    }

    /// The chain's one-line title: outermost name … root cause.
    public var title: String { chain.title }

    /// The count the mode ranks by.
    public func count(for mode: RankMode) -> Int {
        switch mode {
        case .events: events
        case .complaints: complaints
        case .users: users
        }
    }
}

/// What a list asks for.
public struct IssueQuery: Hashable, Sendable {
    public var window: TimeWindow
    public var mode: RankMode
    public var filter: StatusFilter
    /// Free text matched against keys, chain names and notes; empty matches all.
    public var text: String
    public var top: Int
    /// Only these issues (a group of the root-cause pivot); nil lets every issue through.
    public var scope: IssueScope?
    /// Only issues of this kind (their most severe event's); nil lets every kind through.
    public var kind: EventKind?

    public init(window: TimeWindow = .d7, mode: RankMode = .events, filter: StatusFilter = .active,
                text: String = "", top: Int = 200, scope: IssueScope? = nil, kind: EventKind? = nil) {
        self.window = window
        self.mode = mode
        self.filter = filter
        self.text = text
        self.top = top
        self.scope = scope
        self.kind = kind
    }
}

/// A named set of issues the list is narrowed to, such as every issue whose root cause is one link.
public struct IssueScope: Hashable, Sendable {
    /// How the list's controls name it: `root cause NE8 timeout`.
    public var label: String
    public var keys: Set<String>

    public init(label: String, keys: Set<String>) {
        self.label = label
        self.keys = keys
    }
}

/// Totals across every issue the query lets through, inside the window.
public struct Totals: Hashable, Sendable {
    public var issues: Int
    public var events: Int
    public var users: Int
    public var complaints: Int
    /// Events per bucket across the window, oldest first.
    public var series: [Int]

    public init(issues: Int, events: Int, users: Int, complaints: Int, series: [Int]) {
        self.issues = issues
        self.events = events
        self.users = users
        self.complaints = complaints
        self.series = series
    }
}

/// The top-N list with its totals: what the dashboard's list and `report` show.
public struct IssueList: Hashable, Sendable {
    public var query: IssueQuery
    public var now: Timestamp
    /// The first bucket of the series (an hour for 24h, a day otherwise).
    public var seriesStart: Timestamp
    public var totals: Totals
    public var issues: [IssueSummary]
    /// Events in the whole store, whatever the window: zero means the store is empty.
    public var storeEvents: Int
    /// The newest event's time in the whole store (nil: none), to tell a window that ends long after the data.
    public var latestEvent: Timestamp?
    /// A sentence for each term of the query that matches no value the store holds
    /// (`no os is "17"; did you mean os:17*?`), punctuated: why a list is empty, and the way out.
    public var unmatched: [String] = []
    /// Where raw events begin after a prune (nil: nothing pruned): unlinked complaints count from it.
    public var rawEventsSince: Timestamp? = nil
    /// What `errtriage serve` refused in its last minute, when a server wrote one lately (nil: none).
    public var intakeRejections: IntakeRejections? = nil
    /// The users are a lower bound, not exact: the window ends before the latest data (or a
    /// dimension term or a group recounts users) and reaches before `rawEventsSince`, whose
    /// events are gone. Shown as `≈`.
    public var approximateUsers = false

    public init(query: IssueQuery, now: Timestamp, seriesStart: Timestamp, totals: Totals,
                issues: [IssueSummary], storeEvents: Int, latestEvent: Timestamp? = nil) {
        self.query = query
        self.now = now
        self.seriesStart = seriesStart
        self.totals = totals
        self.issues = issues
        self.storeEvents = storeEvents
        self.latestEvent = latestEvent
    }

    /// How long before the window's end the data stops, when that is more than an hour: a store
    /// whose last export came days ago shows windows that are mostly empty, and must say so.
    public var dataEndsEarly: Int64? { IssueList.dataGap(latest: latestEvent, now: now) }

    /// How long before `now` the data stops, when more than an hour (nil: it runs to `now`, or there is none).
    public static func dataGap(latest: Timestamp?, now: Timestamp) -> Int64? {
        guard let latest, now.millis - latest.millis > 3_600_000 else { return nil }
        return now.millis - latest.millis
    }
}

/// A dimension that issue detail breaks events down by: a pane of the detail, an entry of `show`
/// and its JSON, a query term, and rows of the breakdown rollup (`issue_day_dim`) that ingest
/// adds to, `check` recounts and a query reads. A new breakdown is its case here and its entry in
/// `declaration`; everything else reads them.
public enum Dimension: String, CaseIterable, Sendable, Codable {
    case device, os, appVersion = "app_version", network, orientation, appState = "app_state", kind, project, environment, level, platform

    /// What a dimension is made of, one entry each.
    public var declaration: DimensionDeclaration {
        switch self {
        case .device: DimensionDeclaration("Device", term: .device, reads: "device_model") { $0.deviceModel }
        case .os: DimensionDeclaration("OS", term: .os, reads: "os_name", "os_version") { $0.osLabel }
        case .appVersion: DimensionDeclaration("App version", term: .version, reads: "app_version") { $0.appVersion }
        case .network: DimensionDeclaration("Network", term: .network, reads: "network") { $0.network }
        case .orientation: DimensionDeclaration("Orientation", term: .orientation, reads: "orientation") { $0.orientation }
        case .appState: DimensionDeclaration("App state", term: .state, reads: "app_state") { $0.appState }
        case .kind: DimensionDeclaration("Kind", term: .kind, reads: "kind") { $0.kind?.rawValue }
        case .project: DimensionDeclaration("Project", term: .project, reads: "project") { $0.project }
        case .environment: DimensionDeclaration("Environment", term: .env, reads: "environment") { $0.environment }
        case .level: DimensionDeclaration("Level", term: .level, reads: "level") { $0.level }
        case .platform: DimensionDeclaration("Platform", term: .platform, reads: "platform") { $0.platform }
        }
    }

    /// A heading for people.
    public var label: String { declaration.label }

    /// The event's value along this dimension; nil counts as `unknown`.
    public func value(of event: ErrorEvent) -> String? { declaration.value(event) }

    /// The dimension a query term's field restricts (`os:`, `env:`), if it names one.
    public init?(term field: SearchField) {
        guard let found = Dimension.allCases.first(where: { $0.declaration.term == field }) else { return nil }
        self = found
    }
}

/// A dimension's facts: its heading, its query term, and its value of an event, in Swift and as
/// the event's stored fields it reads (one, or two joined by a space as the OS's name and version
/// are); the store renders the SQL of the same value from those fields.
public struct DimensionDeclaration {
    public let label: String
    public let term: SearchField
    /// The event's fields the value is made of, as the event table names them: one, or two joined
    /// by a space (either alone when the other is missing).
    public let fields: [String]
    /// The value of an event, matching `fields`; nil counts as `unknown`.
    public let value: (ErrorEvent) -> String?

    init(_ label: String, term: SearchField, reads fields: String..., value: @escaping (ErrorEvent) -> String?) {
        precondition((1...2).contains(fields.count), "a dimension reads one field or two joined")
        self.label = label
        self.term = term
        self.fields = fields
        self.value = value
    }
}

/// One value of a breakdown with its share.
public struct BreakdownRow: Hashable, Sendable {
    public var value: String
    public var count: Int
    /// Share of the issue's events in the window, 0…100.
    public var percent: Double

    public init(value: String, count: Int, percent: Double) {
        self.value = value
        self.count = count
        self.percent = percent
    }
}

/// Counts of one dimension's values, most first.
public struct Breakdown: Hashable, Sendable {
    public var dimension: Dimension
    public var rows: [BreakdownRow]

    public init(dimension: Dimension, rows: [BreakdownRow]) {
        self.dimension = dimension
        self.rows = rows
    }
}

/// One row of an issue's status history.
public struct StatusChange: Hashable, Sendable {
    public var from: IssueStatus?
    public var to: IssueStatus
    public var version: String?
    public var at: Timestamp
    public var by: String
    public var note: String?

    public init(from: IssueStatus?, to: IssueStatus, version: String?, at: Timestamp, by: String, note: String?) {
        self.from = from
        self.to = to
        self.version = version
        self.at = at
        self.by = by
        self.note = note
    }
}

/// A note left on an issue.
public struct IssueNote: Hashable, Sendable {
    public var at: Timestamp
    public var by: String
    public var text: String

    public init(at: Timestamp, by: String, text: String) {
        self.at = at
        self.by = by
        self.text = text
    }
}

/// Everything the detail screen and `show` tell about one issue.
public struct IssueDetail: Hashable, Sendable {
    public var summary: IssueSummary
    public var window: TimeWindow
    public var now: Timestamp
    /// The first bucket of `summary.series`.
    public var seriesStart: Timestamp
    public var breakdowns: [Breakdown]
    /// The newest events first.
    public var recentEvents: [ErrorEvent]
    /// The newest complaints first.
    public var complaints: [Complaint]
    /// The newest notes first.
    public var notes: [IssueNote]
    /// The newest change first.
    public var history: [StatusChange]
    /// The version the fix ships in, when resolved with one.
    public var resolvedVersion: String?
    /// Where raw events begin after a prune (nil: nothing pruned): recent events and complaints stop there.
    public var rawEventsSince: Timestamp? = nil
    /// The users are a lower bound (see `IssueList.approximateUsers`).
    public var approximateUsers = false
    /// The issue's whole life month by month (`errtriage history`), which the dashboard's Life pane
    /// shows; loaded with the detail by the dashboard, nil elsewhere.
    public var life: IssueHistory? = nil
    /// Where each link was raised, outermost first, as the issue's latest kept event says (its
    /// frames); loaded with the detail by the dashboard, empty where no kept event says.
    public var raisedAt: [FrameLocation?] = []
    /// The same places as frames, with the event and release that tell them (nil where no kept
    /// event does): what the code of the checkout is looked up by. Loaded with the detail by the dashboard.
    public var raiseFrames: RaiseFrames? = nil
    /// The facets of the issue's events in the window (context facets first, then tags by key):
    /// what a backend's events say about where they happened, and every tag the sender set.
    public var facets: [FacetBreakdown] = []
    /// Tags the issue's events carried in the window beyond the `maxTagFacets` on the most events,
    /// which `facets` leaves out (a sender may set as many tag keys as it likes).
    public var moreTags = 0
    /// Tags a detail shows at most: those on the most events of the window.
    public static let maxTagFacets = 20

    public init(summary: IssueSummary, window: TimeWindow, now: Timestamp, seriesStart: Timestamp,
                breakdowns: [Breakdown], recentEvents: [ErrorEvent], complaints: [Complaint],
                notes: [IssueNote], history: [StatusChange], resolvedVersion: String?) {
        self.summary = summary
        self.window = window
        self.now = now
        self.seriesStart = seriesStart
        self.breakdowns = breakdowns
        self.recentEvents = recentEvents
        self.complaints = complaints
        self.notes = notes
        self.history = history
        self.resolvedVersion = resolvedVersion
    }

    /// The breakdown of one dimension (empty when nothing was counted).
    public func breakdown(_ dimension: Dimension) -> Breakdown {
        breakdowns.first { $0.dimension == dimension } ?? Breakdown(dimension: dimension, rows: [])
    }

    /// The dimensions the detail shows, in order: each that some event in the window has a value
    /// of (a backend sends no device, network or orientation: six panes of `unknown` tell nothing).
    public var shownDimensions: [Dimension] {
        Dimension.allCases.filter { d in breakdown(d).rows.contains { $0.value != "unknown" } }
    }
}

/// A change a person asks for on an issue: a status, a note, a tracker link, or who works on it.
public enum IssueMark: Hashable, Sendable {
    case status(IssueStatus, version: String?)
    case note(String)
    case tracker(String?)
    /// Assigns the issue to a person (nil clears), with a history row.
    case assignee(String?)
}

/// What undoing a change did: took it back, or left it because someone changed the issue since.
public enum UndoOutcome: Hashable, Sendable {
    case undone
    /// The change no longer stands; the sentence says who changed what since (`ben marked it resolved since`).
    case overwritten(String)
}

/// What the store did for one mark: enough to show it and to undo it.
public struct MarkReceipt: Hashable, Sendable {
    public var key: String
    public var mark: IssueMark
    public var previousStatus: IssueStatus
    public var previousVersion: String?
    public var previousTracker: String?
    /// The row id of a note the mark added, so that undo can remove it.
    public var noteID: Int64?
    /// The history row a status mark added: undo takes the mark back only while it is the
    /// issue's latest (nobody marked the issue since).
    public var changeID: Int64?
    /// Who made the status change this mark replaced (nil when the issue had none): on a team
    /// store, someone else may have changed it since this screen loaded it.
    public var previousBy: String?
    /// Who the issue was assigned to before an assignment (nil: nobody).
    public var previousAssignee: String?

    public init(key: String, mark: IssueMark, previousStatus: IssueStatus, previousVersion: String?,
                previousTracker: String?, noteID: Int64?) {
        self.key = key
        self.mark = mark
        self.previousStatus = previousStatus
        self.previousVersion = previousVersion
        self.previousTracker = previousTracker
        self.noteID = noteID
    }
}

/// Complaints in a window that link to no issue (no code, or a code no event carries), by category.
public struct UnlinkedComplaints: Hashable, Sendable {
    /// One category with its count and a few sample texts, newest first.
    public struct Group: Hashable, Sendable {
        public var category: String
        public var count: Int
        public var samples: [String]
        public init(category: String, count: Int, samples: [String]) {
            self.category = category
            self.count = count
            self.samples = samples
        }
    }

    public var total: Int { groups.reduce(0) { $0 + $1.count } }
    /// Largest first.
    public var groups: [Group]
    /// Where the counted complaints begin when the window reaches further back than a prune kept
    /// them (nil: the whole window is counted).
    public var prunedBefore: Timestamp?

    public init(groups: [Group], prunedBefore: Timestamp? = nil) {
        self.groups = groups
        self.prunedBefore = prunedBefore
    }
}

/// What `errtriage serve` refused in one minute, by reason (`unauthorized`, `too_large`, …), as it
/// records it in the store every minute, so a dashboard on that store can say so.
public struct IntakeRejections: Hashable, Sendable {
    /// The end of the minute counted.
    public var at: Timestamp
    public var byReason: [String: Int]
    public init(at: Timestamp, byReason: [String: Int]) {
        self.at = at
        self.byReason = byReason
    }
    public var total: Int { byReason.values.reduce(0, +) }
    /// The meta keys the counts live under: `serve_rejected:REASON`, and `serve_minute_at`.
    public static let keyPrefix = "serve_rejected:"
    public static let atKey = "serve_minute_at"
}
