import TriageModel

/// The dashboard's state: a small shell (the store, the list's query, the size, the status line,
/// undo and the changes on their way, the meeting) and the stack of screens, each screen's own
/// state a property of the type that declares it (`ListScreen`, `DetailScreen`, …).
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
    /// The last size the terminal reported; layout for mouse hits and scrolling uses it.
    public var size = Size(rows: 24, cols: 80)

    /// Whether windows end at the store's newest event instead of the clock (`N`, `--now data`).
    public var anchoredToData = false
    /// The store's newest event, as the last list (or the start) told it.
    public var dataEnd: Timestamp?

    /// The prompt open in the status line, which takes every key while open.
    public var prompt: Prompt?
    /// The transient status line message; the next key clears it.
    public var message: StatusMessage?
    /// This run's changes: those `u` can take back, and those the store has not confirmed yet.
    public var marks = MarkLedger()

    /// The meeting being walked, if one was started (`M`, or `errtriage meeting`).
    public var meeting: MeetingWalk?
    /// How the meeting is run: its agenda's size, by owner or not, started at once.
    public var meetingPlan = MeetingPlan()

    /// The screen stack; the last is shown.
    public var screens: [Screen] = [.list]
    /// Each screen's own state, kept while it is closed where it says so (the pivot's layer, a release's comparison).
    public var list = ListScreen()
    public var detail = DetailScreen()
    public var event = EventScreen()
    public var help = HelpScreen()
    public var pivot = PivotScreen()
    public var meetingEnd = MeetingEndScreen()
    public var release = ReleaseScreen()
    public var views = ViewsScreen()
    /// The state of every other screen `Screen.allCases` lists, by screen: a screen added since
    /// the ones above needs no property here, it reads and writes `state[ItsScreen.self]`.
    var others: [Screen: ScreenState] = [:]

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
        if meetingPlan.startsAtOnce { effects.append(startMeeting()) }
        return effects
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

extension DashboardState {
    /// Handles a key press on whatever is on screen: the open prompt takes every key; else the
    /// screen's binding for it, or a sentence saying it does nothing here and where it would.
    mutating func press(_ key: Key) -> [DashboardEffect] {
        if key == .ctrl("c") { return [.quit] }
        if prompt != nil { return promptKey(key) }
        message = nil
        guard let binding = screen.binding(for: key) else {
            if let name = key.name { message = StatusMessage(notHere(name, key), isError: true) }
            return []
        }
        return binding.handle(&self, key)
    }

    /// `x does nothing on the release screen (it works on the list screen); ? lists this screen's keys.`
    func notHere(_ name: String, _ key: Key) -> String {
        let elsewhere = Screen.home(of: key).map { " (it works on the \($0.name) screen)" } ?? ""
        return "\(name) does nothing on the \(screen.name) screen\(elsewhere); ? lists this screen's keys."
    }

    /// Handles a mouse report on the screen on top, hit-testing with the layout it draws with.
    mutating func mouse(_ event: MouseEvent) -> [DashboardEffect] {
        guard prompt == nil, size.fitsDashboard else { return [] }
        return screen.module.mouse(event, &self)
    }

    /// Changes the query and reloads what it affects: each screen resets and asks again what
    /// depends on the query. A list the user re-ranked, re-windowed or re-filtered starts at its
    /// top row: the selection follows the key only when the list reloads by itself.
    mutating func changeQuery(_ change: (inout IssueQuery) -> Void) -> [DashboardEffect] {
        let old = query
        change(&query)
        loading = true
        return Screen.allCases.flatMap { $0.module.queryChanged(from: old, &self) }
    }

    /// Loads again what is on screen: the list, and each open screen's data.
    mutating func reloadEffects() -> [DashboardEffect] {
        loading = true
        return Screen.allCases.flatMap { $0.module.reloads(self) }
    }

    /// Every screen's scroll offsets as it will draw them at the current size.
    mutating func settleScrolling() {
        for screen in Screen.allCases { screen.module.settle(&self) }
    }

    /// `N`: windows end at the store's newest event (as `demo` and `--now data` do), or at the clock again.
    mutating func toggleDataAnchor() -> [DashboardEffect] {
        guard let end = dataEnd else {
            message = StatusMessage("N: no event in the store yet to end the windows at.", isError: true)
            return []
        }
        anchoredToData.toggle()
        message = StatusMessage(anchoredToData ? "Windows end at the last event, \(end.minuteText); N: at the clock again."
                                               : "Windows end at the clock again; N: at the last event.")
        return reloadEffects()
    }
}

extension MouseEvent {
    /// How many rows the wheel moves: three up or down, none for a click.
    var wheel: Int { kind == .wheelUp ? -3 : kind == .wheelDown ? 3 : 0 }
}

extension DashboardState {
    /// A screen's own state, kept in the shell's storage (a new screen with nothing loaded until it opens).
    subscript<S: ScreenModule>(_ type: S.Type) -> S {
        get { others[Screen(type)]?.value as? S ?? S() }
        set { others[Screen(type)] = ScreenState(newValue) }
    }
}

/// One screen's state in `DashboardState`'s storage, compared and hashed by its value.
struct ScreenState: Hashable, Sendable {
    let value: any Hashable & Sendable

    init(_ value: some Hashable & Sendable) { self.value = value }

    static func == (a: Self, b: Self) -> Bool { AnyHashable(a.value) == AnyHashable(b.value) }
    func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(value)) }
}
