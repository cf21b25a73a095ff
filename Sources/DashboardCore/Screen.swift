import TriageModel

/// A screen of the dashboard as the stack holds it (the list at the bottom): the type that
/// declares it. `allCases` is the registry, the one line a new screen is listed on; its order is
/// the order help lists the other screens' keys in, and the order "does nothing here" looks for
/// the screen where a key works. Each screen names itself in its own file
/// (`extension Screen { static let release = Screen(ReleaseScreen.self) }`).
public struct Screen: Hashable, Sendable {
    /// The type that declares the screen.
    let module: any ScreenModule.Type

    init(_ module: any ScreenModule.Type) { self.module = module }

    /// Every screen, in help's order.
    public static let allCases: [Screen] = [.list, .detail, .event, .help, .pivot, .meetingEnd, .release, .views, .rules]

    /// The screen's name in sentences: `on the release screen`.
    var name: String { module.name }

    public static func == (a: Screen, b: Screen) -> Bool { ObjectIdentifier(a.module) == ObjectIdentifier(b.module) }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(module)) }
}

extension Screen: CustomStringConvertible {
    public var description: String { module.name }
}

extension Screen {
    public static let list = Screen(ListScreen.self)
    public static let detail = Screen(DetailScreen.self)
    /// Every field of one recent event of the open issue.
    public static let event = Screen(EventScreen.self)
    public static let help = Screen(HelpScreen.self)
    /// Issues grouped by one link of their chains (the root-cause pivot).
    public static let pivot = Screen(PivotScreen.self)
    /// The meeting's closing page: the complaints no code explains.
    public static let meetingEnd = Screen(MeetingEndScreen.self)
    /// What the newest version brought against the one before it.
    public static let release = Screen(ReleaseScreen.self)
    /// The saved views, to open one on the list.
    public static let views = Screen(ViewsScreen.self)
}

/// One screen, declared in one type (bubbletea's nested models, lazygit's controllers): its keys,
/// what the mouse does on it, how it draws, what it loads again and how it keeps its scroll. The
/// type is also the screen's state, a property of `DashboardState`; help, the key line and "does
/// nothing here" are derived from `bindings`, so they cannot disagree with what the keys do.
protocol ScreenModule: Hashable, Sendable {
    /// A screen with nothing loaded yet: what a screen kept in `DashboardState`'s own storage starts as.
    init()
    /// The screen's name in sentences: `release`, `saved views`.
    static var name: String { get }
    /// Every key the screen takes, each with what it does, in the order help and the key line show them.
    static var bindings: [KeyBinding] { get }
    /// A mouse report on the screen (never while a prompt is open or the terminal is too small).
    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect]
    /// Draws the screen, its status line included.
    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer)
    /// What it reads again when the store may have changed (another process's write, a mark, Ctrl-L).
    static func reloads(_ state: DashboardState) -> [DashboardEffect]
    /// What it resets and reads again when the list's query changes (`old` is the query before).
    static func queryChanged(from old: IssueQuery, _ state: inout DashboardState) -> [DashboardEffect]
    /// Keeps its scroll offsets valid at the state's size, after a load, a resize or a move.
    static func settle(_ state: inout DashboardState)
}

extension ScreenModule {
    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] { [] }
    static func reloads(_ state: DashboardState) -> [DashboardEffect] { [] }
    static func queryChanged(from old: IssueQuery, _ state: inout DashboardState) -> [DashboardEffect] { [] }
    static func settle(_ state: inout DashboardState) {}
}

extension Screen {
    /// The binding a key triggers on this screen, if it takes the key.
    func binding(for key: Key) -> KeyBinding? { module.bindings.first { $0.help.keys.contains(key) } }

    /// The first screen that takes a key, to say where it would work (nil: none does).
    static func home(of key: Key) -> Screen? { allCases.first { $0.binding(for: key) != nil } }

    /// Every key of the dashboard once, in help's order: each screen's keys, screen by screen.
    static let allKeys: [KeyHelp] = {
        var seen = Set<KeyHelp>()
        return allCases.flatMap { $0.module.bindings.map(\.help) }.filter { seen.insert($0).inserted }
    }()

    /// The keys this screen takes, as help lists them.
    var keys: [KeyHelp] { module.bindings.map(\.help) }
}
