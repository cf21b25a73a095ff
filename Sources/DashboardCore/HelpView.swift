import Presentation

/// The keys of the screen help was opened on, then the badges, then every other screen's keys:
/// all drawn from `KeyBinding.all`, so help lists exactly what the reducer takes.
enum HelpView {
    /// The lines for help opened on `place`, `width` cells wide: what a key does wraps under itself.
    static func lines(for place: Place, unicode: Bool, width: Int = 200) -> [[Span]] {
        var lines: [[Span]] = [[Span("Keys on the \(place.name) screen", .heading)]]
        let indent = 19
        func entry(_ label: String, _ text: String) {
            let wrapped = TextWrap.wrap(text, width: max(10, width - indent), unicode: unicode)
            for (i, part) in wrapped.enumerated() {
                let head = i == 0 ? "    " + Format.left(label, 14, unicode: unicode) + " " : String(repeating: " ", count: indent)
                lines.append([Span(head, .key), Span(part)])
            }
        }
        func add(_ bindings: [KeyBinding]) {
            for group in KeyBinding.Group.allCases {
                let keys = bindings.filter { $0.group == group }
                guard !keys.isEmpty else { continue }
                lines.append([Span("  " + group.rawValue, .dim)])
                for binding in keys { entry(binding.label(unicode: unicode), binding.help) }
            }
        }
        add(KeyBinding.on(place))
        lines.append([])
        lines.append([Span("Badges in the list", .heading), Span(" (one letter where space is short)", .dim)])
        for (badge, letter, meaning) in badges { entry(Format.left(badge, 10, unicode: unicode) + letter, meaning) }
        lines.append([])
        lines.append([Span("On other screens", .heading)])
        add(KeyBinding.all.filter { !$0.places.contains(place) })
        return lines
    }

    /// Each badge, its letter, and what it means.
    static let badges: [(String, String, String)] = [
        ("CRASH", "C", "its events include crashes (the issue's kind is its worst event's)"),
        ("ANR", "A", "the app stopped answering (Application Not Responding); no badge: non-fatal"),
        ("NEW", "N", "first seen in the last 7 days"),
        ("SPIKE", "S", "the last 24 hours hold at least 20 events, 4× its daily mean"),
        ("REGRESSED", "R", "came back after it was marked resolved"),
        ("+N", "+N", "a merged group: N more issues under this key (errtriage merge)"),
    ]

    /// Rows the help text has to scroll in.
    static func bodyHeight(_ size: Size) -> Int { max(0, size.rows - 2) }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        buffer.fill(row: 0, style: .header)
        buffer.write(" Help: keys on the \(state.helpPlace.name) screen", row: 0, col: 0, style: .header)
        let lines = lines(for: state.helpPlace, unicode: buffer.unicode, width: buffer.size.cols - 1)
        let height = bodyHeight(buffer.size)
        let scroll = Scrolling.clamp(state.helpScroll, visible: height, count: lines.count)
        for i in 0..<height where scroll + i < lines.count {
            buffer.write(lines[scroll + i], row: 1 + i, col: 1, width: buffer.size.cols - 1)
        }
        StatusBar.render(state, row: buffer.size.rows - 1, into: &buffer)
    }
}

extension DashboardState {
    /// The screen help is about: the one under it.
    var helpPlace: Place { screens.last(where: { $0 != .help })?.place ?? .list }
}
