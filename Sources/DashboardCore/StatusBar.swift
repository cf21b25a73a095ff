import Presentation

/// The bottom line: the open prompt, else a transient message, else key hints for the screen.
enum StatusBar {
    /// Draws the status line on `row`. `whole` is what identifies the selected row where the
    /// screen's row shows it cut (an issue's key, a link's `domain.name`, a view's query), shown at
    /// the right; `note` is the screen's standing notice, shown when no message is.
    static func render(_ state: DashboardState, row: Int, whole: String? = nil, note: String? = nil, into buffer: inout ScreenBuffer) {
        let width = buffer.size.cols
        buffer.fill(row: row, style: .dim)
        if let prompt = state.prompt {
            prompt.render(row: row, into: &buffer)
            // Why the filter is not a query, whole (with the fields it knows), wrapped above the prompt.
            if let error = prompt.error {
                writeMessage(StatusMessage(error, isError: true), row: row - 1, width: width, into: &buffer)
            }
            return
        }
        // A transient message takes the line; the screen's standing notice (what a server on this
        // store refused lately) goes above it, so that the key hints, `? help` among them, stay.
        let message = state.message
        if message == nil, let note {
            writeMessage(StatusMessage(note, isError: true), row: row - 1, width: width, into: &buffer)
        }
        var right = ""
        var rightStyle = Style.dim
        if state.loading {
            // Dimension terms recount from the events: slower than the rollups, so the bar says why.
            let what = state.query.search.dimensionTerms.isEmpty ? "loading" : "reading events"
            right = what + (state.unicode ? "…" : "...")
        } else if let key = whole, TextSanitizer.width(key, unicode: state.unicode) <= width - 10,
                  !(message.map { TextSanitizer.width(" " + $0.text, unicode: state.unicode) > width - key.count - 1 } ?? false) {
            // (A message that would wrap takes the whole line instead: a path in it stays in one piece.)
            right = key
            rightStyle = .key
        }
        let rightWidth = right.isEmpty ? 0 : right.count + 1
        if let message {
            writeMessage(message, row: row, width: width - rightWidth, into: &buffer)
        } else {
            buffer.write(hints(for: state, width: width - rightWidth), row: row, col: 0, width: width - rightWidth)
        }
        if !right.isEmpty, width > rightWidth {
            buffer.write(right, row: row, col: width - right.count, style: rightStyle)
        }
    }

    /// A message that does not fit its line wraps upwards over the screen's last rows (at most a
    /// third of them), so that a sentence, a path or a command to copy is never cut.
    static func writeMessage(_ message: StatusMessage, row: Int, width: Int, into buffer: inout ScreenBuffer) {
        let style: Style = message.isError ? .error : .message
        var lines = TextWrap.wrap(message.text, width: max(1, width - 1), unicode: buffer.unicode,
                                  maxLines: max(1, buffer.size.rows / 3))
        if lines.isEmpty { lines = [""] }
        for (i, line) in lines.enumerated() {
            let at = row - (lines.count - 1) + i
            guard at >= 0 else { continue }
            buffer.fill(row: at, style: .dim)
            buffer.write(" " + line, row: at, col: 0, width: at == row ? width : buffer.size.cols, style: style)
        }
    }

    /// Key hints for the screen on top, from its bindings, in their order, as many as fit in
    /// `width`: moving and going back first, `? help` always, last.
    static func hints(for state: DashboardState, width: Int) -> [Span] {
        let all = state.screen.module.bindings.filter { $0.help.hint != nil && $0.offered(state) }.map(\.help)
        let offered = all.filter { $0.placement == .first } + all.filter { $0.placement == .inOrder }
        func spans(_ key: KeyHelp) -> [Span] {
            [Span(" " + key.lineLabel(unicode: state.unicode), .key), Span(" " + (key.hint ?? "") + " ", .dim)]
        }
        func cells(_ spans: [Span]) -> Int { spans.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: state.unicode) } }
        let last = all.last { $0.placement == .last }.map(spans) ?? []
        var result: [Span] = []
        for key in offered {
            let next = spans(key)
            guard cells(result) + cells(next) + cells(last) <= width else { break }
            result += next
        }
        return result + last
    }
}
