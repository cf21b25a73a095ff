import TriageModel

/// The issue detail screen: one issue in six panes (chain, breakdowns, events, complaints, notes
/// and history, life), over the list or the release screen, or as a meeting's item.
public struct DetailScreen: Hashable, Sendable {
    /// The issue shown (set before its detail arrives); kept until the screen closes.
    public var key: String?
    /// The issue's detail; nil while it loads.
    public var loaded: IssueDetail?
    /// The pane shown.
    public var pane: DetailPane = .chain
    /// The first line of the pane shown.
    public var scroll = 0
    /// The selected event in the Events pane.
    public var selectedEvent = 0
    /// What the checkout says of the raise sites (nil until it answers), and the frames it answered for.
    public var code: CodeFacts?
    public var codeFor: RaiseFrames?
    /// The Chain pane's selected raise site (a link's index; nil: the first with a place), which `e` opens.
    public var selectedSite: Int?

    public init() {}

    /// The detail loaded, when it is of this issue.
    func loaded(_ key: String) -> IssueDetail? { loaded?.summary.key == key ? loaded : nil }

    /// Changes the detail loaded, when it is of this issue (a mark, or its undo, before the store answers).
    mutating func updateLoaded(_ key: String, _ change: (inout IssueDetail) -> Void) {
        guard loaded?.summary.key == key else { return }
        change(&loaded!)
    }

    /// The issue the marks act on here: the open one, as loaded or as the list shows it.
    static func issue(_ state: DashboardState) -> IssueSummary? {
        guard let key = state.detail.key else { return nil }
        return state.detail.loaded?.summary ?? state.list.loaded?.issues.first { $0.key == key }
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

extension KeyHelp {
    /// Enter on a list of issues (the list, a release's): the selected issue's detail.
    static let openIssue = KeyHelp("Enter", [.enter], "open the issue", hint: "open", .navigation)
}

extension DetailScreen: ScreenModule {
    static let name = "detail"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { DetailLayout(size: $0.size).bodyHeight - 1 }) { state, delta in
        scrollPane(by: delta, &state)
    } + [
        KeyBinding("Enter", [.enter], "the Events pane: the selected event, whole where the store keeps it", hint: "event", .detail,
                   offered: { $0.detail.pane == .events }) { state, _ in
            EventScreen.open(&state)
        },
        CodeKeys.openSite,
        CodeKeys.stepSite,
        Meeting.walk,
        KeyBinding("Tab 1-\(DetailPane.allCases.count)", [.tab, .backTab, .left, .right] + DetailPane.digits.map { .char($0) },
                   "pane: 1 Chain, 2 Breakdowns, 3 Events, 4 Complaints, 5 Notes & history, 6 Life: month by month since first seen (also S-Tab, Left, Right)",
                   hint: "pane", .detail) { state, key in
            if case .char(let c) = key, let numbered = DetailPane(digit: c) {
                showPane(numbered, &state)
            } else {
                showPane(key == .tab || key == .right ? state.detail.pane.next : state.detail.pane.previous, &state)
            }
            return []
        },
        .window,
        Meeting.start,
    ] + Marks.bindings(target: issue) + [
        .dataEnd,
        .back(close),
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if event.wheel != 0 {
            scrollPane(by: event.wheel, &state)
            return []
        }
        let layout = DetailLayout(size: state.size)
        if event.row == layout.tabRow {
            if let pane = layout.pane(atCol: event.col, unicode: state.unicode) { showPane(pane, &state) }
            return []
        }
        if state.detail.pane == .events, event.row >= layout.bodyTop, event.row < layout.bodyTop + layout.bodyHeight {
            let lines = paneLines(state, size: state.size)
            let line = shownScroll(state, size: state.size, lineCount: lines.count) + event.row - layout.bodyTop
            if let events = state.detail.loaded?.recentEvents, events.indices.contains(line - 1) {
                state.detail.selectedEvent = line - 1
                state.settleScrolling()
                if event.kind == .doubleClick { return EventScreen.open(&state) }
            }
        }
        return []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        state.detail.key.map { [.loadDetail(key: $0, window: state.query.window)] } ?? []
    }

    static func queryChanged(from old: IssueQuery, _ state: inout DashboardState) -> [DashboardEffect] {
        guard state.query.window != old.window, let key = state.detail.key else { return [] }
        return [.loadDetail(key: key, window: state.query.window)]
    }

    /// The pane's scroll within its lines while the screen is on top; in the Events pane the
    /// selected event stays in view.
    static func settle(_ state: inout DashboardState) {
        guard state.screens.contains(.detail) else { return }
        let height = DetailLayout(size: state.size).bodyHeight
        if state.detail.pane == .events {
            let count = paneLines(state, size: state.size).count
            state.detail.scroll = Scrolling.keep(state.detail.selectedEvent + 1, visible: height, scroll: state.detail.scroll, count: count)
        } else if state.screen == .detail {
            state.detail.scroll = Scrolling.clamp(state.detail.scroll, visible: height, count: paneLines(state, size: state.size).count)
        }
    }

    /// Points the screen at an issue, at its first pane, and loads it.
    static func show(_ key: String, _ state: inout DashboardState) -> [DashboardEffect] {
        if state.detail.loaded?.summary.key != key {
            state.detail.loaded = nil
            state.detail.code = nil
            state.detail.codeFor = nil
            state.detail.selectedSite = nil
        }
        state.detail.key = key
        state.detail.pane = .chain
        state.detail.scroll = 0
        state.detail.selectedEvent = 0
        return [.loadDetail(key: key, window: state.query.window)]
    }

    /// Back to the list, or to the release screen it was opened from.
    static func close(_ state: inout DashboardState) {
        state.screens = state.screens.starts(with: [.list, .release]) ? [.list, .release] : [.list]
        state.detail.loaded = nil
        state.detail.key = nil
        state.detail.pane = .chain
        state.detail.scroll = 0
        state.detail.code = nil
        state.detail.codeFor = nil
        state.detail.selectedSite = nil
    }

    /// Takes a loaded detail if it is the issue shown; asks the checkout about its raise sites
    /// when they are new (a later kept event, another release).
    static func loaded(_ detail: IssueDetail, _ state: inout DashboardState) -> [DashboardEffect] {
        guard detail.summary.key == state.detail.key else { return [] }
        state.detail.loaded = detail
        state.detail.selectedEvent = state.detail.selectedEvent.clampedRow(count: detail.recentEvents.count)
        state.settleScrolling()
        guard let raise = detail.raiseFrames, raise.frames.contains(where: { $0 != nil }) else {
            state.detail.code = nil
            state.detail.codeFor = nil
            return []
        }
        guard raise != state.detail.codeFor else { return [] }
        state.detail.codeFor = raise
        return [.code(.issue(key: detail.summary.key, raise: raise, firstSeen: detail.summary.firstSeen))]
    }

    static func showPane(_ pane: DetailPane, _ state: inout DashboardState) {
        guard pane != state.detail.pane else { return }
        state.detail.pane = pane
        state.detail.scroll = 0
        state.settleScrolling()
    }

    /// Scrolls the pane, or in the Events pane moves the selected event.
    static func scrollPane(by delta: Int, _ state: inout DashboardState) {
        if state.detail.pane == .events {
            let count = state.detail.loaded?.recentEvents.count ?? 0
            state.detail.selectedEvent = state.detail.selectedEvent.addingClamped(delta).clampedRow(count: count)
        } else {
            state.detail.scroll = state.detail.scroll.addingClamped(delta)
        }
        state.settleScrolling()
    }
}

/// What the detail asks of the store, and how the answer lands.
extension DetailScreen {
    /// An issue's detail over a window, with its life and where it was raised.
    public struct Load: StoreLoad {
        public var key: String
        public var window: TimeWindow
        public func perform(_ context: StoreContext) throws -> Loaded {
            let store = context.store
            var detail = try store.issueDetail(key: key, window: window, now: context.now)
            detail.life = try store.history(key: detail.summary.key)
            let raise = try store.raiseFrames(issueKey: detail.summary.key)
            detail.raisedAt = raise?.locations ?? []
            detail.raiseFrames = raise
            return Loaded(detail: detail)
        }
    }

    public struct Loaded: StoreAnswer {
        public var detail: IssueDetail
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { DetailScreen.loaded(detail, &state) }
    }
}

extension DashboardEffect {
    /// The detail's load.
    public static func loadDetail(key: String, window: TimeWindow) -> Self { .load(DetailScreen.Load(key: key, window: window)) }
}

extension DashboardAction {
    /// The detail's answer.
    public static func detailLoaded(_ detail: IssueDetail) -> Self { .answer(DetailScreen.Loaded(detail: detail)) }
}
