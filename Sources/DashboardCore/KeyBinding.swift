import TriageModel

/// What a key does, as help and the key line tell it. A key several screens take (moving, going
/// back, help, the marks) is one `KeyHelp` on each of them, with each screen's own handler, so help
/// lists it once.
struct KeyHelp: Hashable, Sendable {
    /// The help section it is listed under.
    struct Group: Hashable, Sendable {
        /// The heading help shows over the group's keys.
        let title: String

        init(_ title: String) { self.title = title }

        static let navigation = Group("Navigation"), list = Group("List"), marks = Group("Marks"), detail = Group("Detail"),
                   pivot = Group("Pivot"), release = Group("Release"), views = Group("Saved views"), meeting = Group("Meeting"),
                   other = Group("Other")

        /// The order help lists the groups in: these, then a group a screen declares for itself
        /// (in the order of `Screen.allCases`), then `other`.
        static let allCases: [Group] = {
            let known: [Group] = [.navigation, .list, .marks, .detail, .pivot, .release, .views, .meeting]
            var seen = Set(known + [.other])
            let declared = Screen.allKeys.map(\.group).filter { seen.insert($0).inserted }
            return known + declared + [.other]
        }()
    }

    /// Where the key line puts it when room is short: moving and going back before the others, help last.
    enum Placement: Sendable {
        case first, inOrder, last
    }

    /// The keys as help shows them, in UTF-8 and in ASCII.
    var label: String
    var asciiLabel: String
    /// The keys it matches.
    var keys: [Key]
    /// What it does, for help.
    var text: String
    /// The word on the key line (nil: help only).
    var hint: String?
    /// The key line's shorter label, in UTF-8 and in ASCII (nil: the label).
    var lineLabel: String?
    var asciiLineLabel: String?
    var group: Group
    var placement = Placement.inOrder

    init(_ label: String, ascii: String? = nil, _ keys: [Key], _ text: String, hint: String? = nil,
         line: (String, ascii: String)? = nil, _ group: Group, placement: Placement = .inOrder) {
        self.label = label
        asciiLabel = ascii ?? label
        self.keys = keys
        self.text = text
        self.hint = hint
        lineLabel = line?.0
        asciiLineLabel = line?.ascii
        self.group = group
        self.placement = placement
    }

    func label(unicode: Bool) -> String { unicode ? label : asciiLabel }

    /// The label on the key line.
    func lineLabel(unicode: Bool) -> String { (unicode ? lineLabel : asciiLineLabel) ?? label(unicode: unicode) }
}

/// A key a screen takes, declared once: what help says of it, when the key line offers it, and what it does.
struct KeyBinding: Sendable {
    var help: KeyHelp
    /// Whether the key line offers it now (a meeting under way, the Events pane).
    var offered: @Sendable (DashboardState) -> Bool
    /// What the key does; the effects the program must carry out.
    var handle: @Sendable (inout DashboardState, Key) -> [DashboardEffect]

    init(_ help: KeyHelp, offered: @escaping @Sendable (DashboardState) -> Bool = { _ in true },
         _ handle: @escaping @Sendable (inout DashboardState, Key) -> [DashboardEffect]) {
        self.help = help
        self.offered = offered
        self.handle = handle
    }

    /// A key of one screen, its help written where it is bound.
    init(_ label: String, ascii: String? = nil, _ keys: [Key], _ text: String, hint: String? = nil, _ group: KeyHelp.Group,
         offered: @escaping @Sendable (DashboardState) -> Bool = { _ in true },
         _ handle: @escaping @Sendable (inout DashboardState, Key) -> [DashboardEffect]) {
        self.init(KeyHelp(label, ascii: ascii, keys, text, hint: hint, group), offered: offered, handle)
    }
}

/// The moving keys, each direction's once: help lists them and the bindings move by them.
enum Moving {
    static let lineUp: [Key] = [.up, .char("k")]
    static let lineDown: [Key] = [.down, .char("j")]
    static let pageUp: [Key] = [.pageUp]
    static let pageDown: [Key] = [.pageDown]
    static let top: [Key] = [.char("g"), .home]
    static let bottom: [Key] = [.char("G"), .end]
}

/// The keys many screens share; each screen binds them to what they do there.
extension KeyHelp {
    static let move = KeyHelp("↑↓ k j", ascii: "Up Down k j", Moving.lineUp + Moving.lineDown, "move the selection / scroll",
                              hint: "move", line: ("↑↓", ascii: "j/k"), .navigation, placement: .first)
    static let page = KeyHelp("PgUp PgDn", Moving.pageUp + Moving.pageDown, "a page up / down", .navigation)
    static let ends = KeyHelp("g G Home End", Moving.top + Moving.bottom, "to the top / bottom", .navigation)
    static let back = KeyHelp("Esc q", [.escape, .backspace, .char("q")], "back", hint: "back", line: ("Esc", ascii: "Esc"),
                              .navigation, placement: .first)
    static let rank = KeyHelp("s", [.char("s")], "rank by events, complaints, users", hint: "rank", .list)
    static let window = KeyHelp("w", [.char("w")], "window 24h, 7d, 30d, 90d, all", hint: "window", .list)
    static let status = KeyHelp("f", [.char("f")], "status open+regressed, regressed, resolved, muted, all", hint: "status", .list)
    static let dataEnd = KeyHelp("N", [.char("N")], "windows end at the store's newest event / at the clock again", hint: "data end", .other)
    static let help = KeyHelp("?", [.char("?")], "this help for the screen it is opened on (Esc, q or ? closes)", hint: "help", .other,
                              placement: .last)
    static let redraw = KeyHelp("Ctrl-L", [.ctrl("l")], "redraw the screen", .other)
    static let interrupt = KeyHelp("Ctrl-C", [.ctrl("c")], "quit", .other)
}

extension KeyBinding {
    /// ↑↓ k j, PgUp PgDn and g G Home End, each moving by its delta: a line, `page` lines, or to
    /// either end (a delta that saturates, for `move` to clamp).
    static func moves(page: @escaping @Sendable (DashboardState) -> Int,
                      _ move: @escaping @Sendable (inout DashboardState, Int) -> Void) -> [KeyBinding] {
        func binding(_ help: KeyHelp, up: [Key], by delta: @escaping @Sendable (DashboardState) -> Int) -> KeyBinding {
            KeyBinding(help) { state, key in
                let d = delta(state)
                move(&state, up.contains(key) ? -d : d)
                return []
            }
        }
        return [binding(.move, up: Moving.lineUp) { _ in 1 },
                binding(.page, up: Moving.pageUp) { max(1, page($0)) },
                binding(.ends, up: Moving.top) { _ in Int.max / 2 }]
    }

    /// Esc, Backspace and q, going back as `close` says.
    static func back(_ close: @escaping @Sendable (inout DashboardState) -> Void) -> KeyBinding {
        KeyBinding(.back) { state, _ in
            close(&state)
            return []
        }
    }

    /// `w` on the screens that show the list's window: the next window, reloaded.
    static let window = KeyBinding(.window) { state, _ in state.changeQuery { $0.window = $0.window.cycled() } }
    /// `s` on the screens that rank by the list's query.
    static let rank = KeyBinding(.rank) { state, _ in state.changeQuery { $0.mode = $0.mode.cycled() } }
    /// `f` on the screens that filter by the list's statuses.
    static let status = KeyBinding(.status) { state, _ in state.changeQuery { $0.filter = $0.filter.cycled() } }
    /// `N`: windows end at the store's newest event, or at the clock again.
    static let dataEnd = KeyBinding(.dataEnd, offered: { $0.anchoredToData || $0.list.loaded?.dataEndsEarly != nil }) { state, _ in
        state.toggleDataAnchor()
    }

    /// `?`: help for the screen it is opened on.
    static let openHelp = KeyBinding(.help) { state, _ in
        state.screens.append(.help)
        state.help = HelpScreen()
        return []
    }
    /// Ctrl-L repaints, and reads again what is on screen (as after another process's write).
    static let redraw = KeyBinding(.redraw) { state, _ in [.redraw] + state.reloadEffects() }
    /// Ctrl-C quits from anywhere, an open prompt included (`press` takes it first); bound for help.
    static let interrupt = KeyBinding(.interrupt) { _, _ in [.quit] }

    /// The keys every screen but help ends with: help for it, a redraw, quitting.
    static let shell: [KeyBinding] = [openHelp, redraw, interrupt]
}
