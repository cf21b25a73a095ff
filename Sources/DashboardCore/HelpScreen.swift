import Presentation

/// Help for the screen under it: that screen's keys, then the badges, then every other screen's
/// keys, all drawn from the screens' bindings, so help lists exactly what the keys do.
public struct HelpScreen: Hashable, Sendable {
    /// The first line shown.
    var scroll = TextScroll()

    public init() {}
}

extension HelpScreen: ScreenModule {
    static let name = "help"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { bodyHeight($0.size) - 1 }) { state, delta in
        scroll(by: delta, &state)
    } + [
        .back { $0.screens.removeLast() },
        KeyBinding(.help) { state, _ in
            state.screens.removeLast()
            return []
        },
        .redraw,
        .interrupt,
    ]

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        scroll(by: event.wheel, &state)
        return []
    }

    static func settle(_ state: inout DashboardState) {
        guard state.screen == .help else { return }
        state.help.scroll.settle(visible: bodyHeight(state.size), count: lines(state, size: state.size).count)
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        buffer.fill(row: 0, style: .header)
        buffer.write(" Help: keys on the \(about(state).name) screen", row: 0, col: 0, style: .header)
        let lines = lines(state, size: buffer.size)
        let height = bodyHeight(buffer.size)
        let scroll = state.help.scroll.shown(visible: height, count: lines.count)
        for i in 0..<height where scroll + i < lines.count {
            buffer.write(lines[scroll + i], row: 1 + i, col: 1, width: buffer.size.cols - 1)
        }
        StatusBar.render(state, row: buffer.size.rows - 1, into: &buffer)
    }

    /// The screen help is about: the one under it.
    static func about(_ state: DashboardState) -> Screen { state.screens.last(where: { $0 != .help }) ?? .list }

    /// Rows the help text has to scroll in.
    static func bodyHeight(_ size: Size) -> Int { max(0, size.rows - 2) }

    static func scroll(by delta: Int, _ state: inout DashboardState) {
        state.help.scroll.scroll(by: delta, visible: bodyHeight(state.size), count: lines(state, size: state.size).count)
    }

    /// The lines of help at a size.
    static func lines(_ state: DashboardState, size: Size) -> [[Span]] {
        lines(for: about(state), unicode: state.unicode, width: size.cols - 1)
    }

    /// The lines for help opened on `screen`, `width` cells wide: what a key does wraps under itself.
    static func lines(for screen: Screen, unicode: Bool, width: Int = 200) -> [[Span]] {
        var lines: [[Span]] = [[Span("Keys on the \(screen.name) screen", .heading)]]
        let indent = 19
        func entry(_ label: String, _ text: String) {
            let wrapped = TextWrap.wrap(text, width: max(10, width - indent), unicode: unicode)
            for (i, part) in wrapped.enumerated() {
                let head = i == 0 ? "    " + Format.left(label, 14, unicode: unicode) + " " : String(repeating: " ", count: indent)
                lines.append([Span(head, .key), Span(part)])
            }
        }
        func add(_ keys: [KeyHelp]) {
            for group in KeyHelp.Group.allCases {
                let inGroup = keys.filter { $0.group == group }
                guard !inGroup.isEmpty else { continue }
                lines.append([Span("  " + group.title, .dim)])
                for key in inGroup { entry(key.label(unicode: unicode), key.text) }
            }
        }
        let own = screen.keys
        add(own)
        lines.append([])
        lines.append([Span("Badges in the list", .heading), Span(" (one letter where space is short)", .dim)])
        for (badge, letter, meaning) in badges { entry(Format.left(badge, 10, unicode: unicode) + letter, meaning) }
        lines.append([])
        lines.append([Span("On other screens", .heading)])
        add(Screen.allKeys.filter { !own.contains($0) })
        return lines
    }

    /// Each badge, its letter, and what it means.
    static let badges: [(String, String, String)] = [
        ("CRASH", "C", "its events include crashes (the issue's kind is its worst event's)"),
        ("ANR", "A", "the app stopped answering (Application Not Responding)"),
        ("UNHANDLED", "U", "nothing caught it, and the program went on (a server's thread); no badge: non-fatal"),
        ("NEW", "N", "first seen in the last 7 days"),
        ("SPIKE", "S", "the last 24 hours hold at least 20 events, 4× its daily mean"),
        ("REGRESSED", "R", "came back after it was marked resolved"),
        ("+N", "+N", "a merged group: N more issues under this key (J on the list, errtriage merge, or a rule)"),
    ]
}
