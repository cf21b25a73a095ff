import Presentation

/// One character cell of the screen.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown; a space for blank cells and for the right half of a wide character.
    public var character: Character
    public var style: Style
    /// The right half of a wide character drawn in the cell to the left: the terminal skips it.
    public var isContinuation: Bool

    /// A cell; blank by default.
    public init(character: Character = " ", style: Style = .normal, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    /// An empty cell.
    public static let blank = Cell()
}

/// A piece of text with one style, the unit views compose lines from.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style

    /// Text in a style.
    public init(_ text: String, _ style: Style = .normal) {
        self.text = text
        self.style = style
    }
}

/// Consecutive cells of one row that changed between two frames.
public struct CellRun: Hashable, Sendable {
    public var row: Int
    public var col: Int
    public var cells: [Cell]
}

/// A frame: rows × cols cells that views write into and the terminal draws.
public struct ScreenBuffer: Hashable, Sendable {
    public let size: Size
    /// Whether glyphs may be Unicode (sparkline blocks, ellipses) or must be ASCII.
    public let unicode: Bool
    private var cells: [Cell]

    /// A blank frame of a size.
    public init(size: Size, unicode: Bool = true) {
        self.size = size
        self.unicode = unicode
        self.cells = Array(repeating: .blank, count: size.rows * size.cols)
    }

    /// The cell at a position; blank outside the buffer.
    public subscript(row: Int, col: Int) -> Cell {
        guard contains(row: row, col: col) else { return .blank }
        return cells[row * size.cols + col]
    }

    func contains(row: Int, col: Int) -> Bool { row >= 0 && row < size.rows && col >= 0 && col < size.cols }

    /// Every row as plain text, wide characters once, trailing blanks kept.
    public var lines: [String] {
        (0..<size.rows).map { row in
            var line = ""
            for col in 0..<size.cols {
                let cell = cells[row * size.cols + col]
                if !cell.isContinuation { line.append(cell.character) }
            }
            return line
        }
    }

    /// The runs of cells that differ from `previous`; everything when there is none or its size differs.
    public func changes(since previous: ScreenBuffer?) -> [CellRun] {
        var runs: [CellRun] = []
        let full = previous == nil || previous!.size != size
        for row in 0..<size.rows {
            var col = 0
            while col < size.cols {
                let index = row * size.cols + col
                if !full, previous!.cells[index] == cells[index] {
                    col += 1
                    continue
                }
                let start = col
                while col < size.cols, full || previous!.cells[row * size.cols + col] != cells[row * size.cols + col] {
                    col += 1
                }
                // A changed half of a wide character redraws the whole character.
                var from = start
                if from > 0, cells[row * size.cols + from].isContinuation { from -= 1 }
                var to = col
                if to < size.cols, cells[row * size.cols + to].isContinuation { to += 1 }
                runs.append(CellRun(row: row, col: from, cells: Array(cells[(row * size.cols + from)..<(row * size.cols + to)])))
                col = to
            }
        }
        return runs
    }

    /// Writes sanitised text at a position within `width` cells (to the right edge when nil),
    /// ending in an ellipsis when it does not fit; returns the cells used.
    @discardableResult
    public mutating func write(_ text: String, row: Int, col: Int, width: Int? = nil, style: Style = .normal,
                               ellipsis: Bool = true) -> Int {
        guard row >= 0, row < size.rows, col < size.cols else { return 0 }
        let available = min(width ?? (size.cols - col), size.cols - col)
        guard available > 0 else { return 0 }
        var (glyphs, used, truncated) = TextSanitizer.glyphs(text, unicode: unicode, maxWidth: available)
        if truncated, ellipsis {
            while used > available - 1, let last = glyphs.popLast() { used -= last.width }
            glyphs.append(TextSanitizer.Glyph(character: unicode ? "…" : "~", width: 1))
            used += 1
        }
        var x = col
        for glyph in glyphs {
            put(glyph.character, width: glyph.width, row: row, col: x, style: style)
            x += glyph.width
        }
        return used
    }

    /// Writes spans one after another from a position within `width` cells; returns the cells used.
    @discardableResult
    public mutating func write(_ spans: [Span], row: Int, col: Int, width: Int? = nil) -> Int {
        let limit = min(width ?? (size.cols - col), size.cols - col)
        var used = 0
        for span in spans where used < limit {
            used += write(span.text, row: row, col: col + used, width: limit - used, style: span.style)
        }
        return used
    }

    /// Sets the style of cells without changing their characters.
    public mutating func paint(row: Int, col: Int, width: Int, style: Style) {
        guard row >= 0, row < size.rows else { return }
        for x in max(0, col)..<max(max(0, col), min(size.cols, col + width)) {
            cells[row * size.cols + x].style = style
        }
    }

    /// Blanks cells with a style, e.g. a full-width bar.
    public mutating func fill(row: Int, col: Int = 0, width: Int? = nil, style: Style) {
        guard row >= 0, row < size.rows else { return }
        let end = min(size.cols, col + (width ?? size.cols))
        for x in max(0, col)..<max(max(0, col), end) { cells[row * size.cols + x] = Cell(style: style) }
    }

    /// Places one glyph, keeping wide characters whole: a half-overwritten wide character becomes blank.
    mutating func put(_ character: Character, width: Int, row: Int, col: Int, style: Style) {
        guard contains(row: row, col: col) else { return }
        let base = row * size.cols
        if width == 2 && col + 1 >= size.cols {
            clearWide(at: col, base: base)
            cells[base + col] = Cell(character: " ", style: style)
            return
        }
        clearWide(at: col, base: base)
        if width == 2 { clearWide(at: col + 1, base: base) }
        cells[base + col] = Cell(character: character, style: style)
        if width == 2 { cells[base + col + 1] = Cell(character: " ", style: style, isContinuation: true) }
    }

    /// Blanks the other half of a wide character that covers `col`.
    private mutating func clearWide(at col: Int, base: Int) {
        if cells[base + col].isContinuation, col > 0 {
            cells[base + col - 1].character = " "
            cells[base + col].isContinuation = false
        } else if col + 1 < size.cols, cells[base + col + 1].isContinuation {
            cells[base + col + 1] = Cell(character: " ", style: cells[base + col + 1].style)
        }
    }
}
