/// The selected row of a list on screen and the first line shown, shared by every list (issues,
/// pivot groups, a release's issues, saved views): select a row, clamp it to the rows, and scroll
/// as little as keeps it in view.
public struct ListSelection: Hashable, Sendable {
    /// The selected row.
    public var selected = 0
    /// The first line shown.
    public var scroll = 0

    public init() {}

    /// Selects a row, clamped to `count` rows, and keeps it in view among `visible` lines.
    mutating func select(_ row: Int, count: Int, visible: Int, sections: SectionLines? = nil) {
        selected = row.clampedRow(count: count)
        settle(count: count, visible: visible, sections: sections)
    }

    /// Moves the selection by `delta` rows (saturating, so that a move to either end clamps).
    mutating func move(by delta: Int, count: Int, visible: Int, sections: SectionLines? = nil) {
        select(selected.addingClamped(delta), count: count, visible: visible, sections: sections)
    }

    /// The scroll that keeps the selected row in view, moving as little as possible.
    mutating func settle(count: Int, visible: Int, sections: SectionLines? = nil) {
        guard let sections else {
            scroll = Scrolling.keep(selected, visible: visible, scroll: scroll, count: count)
            return
        }
        let line = sections.line(ofRow: selected)
        let kept = Scrolling.keep(line, visible: visible, scroll: scroll, count: sections.count)
        // A row that reaches the second line shows one more line above it: its section's heading.
        scroll = line == kept + 1 && kept > 0 ? kept - 1 : kept
    }

    /// The first line shown as drawn: the scroll kept on the selection among `count` rows.
    func shownScroll(count: Int, visible: Int) -> Int {
        Scrolling.keep(selected, visible: visible, scroll: scroll, count: count)
    }
}

/// Rows drawn in sections under heading lines: the line each row stands on.
struct SectionLines: Hashable, Sendable {
    /// The line of each row, in row order.
    var rowLines: [Int]
    /// Every line, headings included.
    var count: Int

    func line(ofRow row: Int) -> Int { rowLines[safe: row] ?? 0 }
}

/// Scrolling arithmetic shared by every scrolling screen.
enum Scrolling {
    /// The scroll offset that keeps `index` in view, moving as little as possible.
    static func keep(_ index: Int, visible: Int, scroll: Int, count: Int) -> Int {
        guard visible > 0 else { return 0 }
        var s = scroll
        if index < s { s = index }
        if index >= s + visible { s = index - visible + 1 }
        return clamp(s, visible: visible, count: count)
    }

    /// A scroll offset between the top and the last full page.
    static func clamp(_ scroll: Int, visible: Int, count: Int) -> Int {
        max(0, min(scroll, count - visible))
    }
}

/// A text that scrolls by lines within a height (help, the meeting's closing page, a pane, an event).
struct TextScroll: Hashable, Sendable {
    /// The first line shown.
    var top = 0

    /// Scrolls by `delta` lines, kept between the top and the last full page of `count` lines.
    mutating func scroll(by delta: Int, visible: Int, count: Int) {
        top = Scrolling.clamp(top.addingClamped(delta), visible: visible, count: count)
    }

    /// The first line kept between the top and the last full page.
    mutating func settle(visible: Int, count: Int) {
        top = Scrolling.clamp(top, visible: visible, count: count)
    }

    /// The first line as drawn.
    func shown(visible: Int, count: Int) -> Int { Scrolling.clamp(top, visible: visible, count: count) }
}

extension Int {
    /// Addition that saturates instead of trapping.
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// This row index kept within `count` rows (0 when there are none).
    func clampedRow(count: Int) -> Int { Swift.max(0, Swift.min(self, count - 1)) }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
    /// The next case, wrapping around.
    func cycled() -> Self {
        let all = Self.allCases
        let i = all.firstIndex(of: self) ?? 0
        return all[(i + 1) % all.count]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
