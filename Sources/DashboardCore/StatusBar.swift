import Presentation

/// The bottom line: the open prompt, else a transient message, else key hints for the screen.
enum StatusBar {
    static func render(_ state: DashboardState, row: Int, into buffer: inout ScreenBuffer) {
        let width = buffer.size.cols
        buffer.fill(row: row, style: .dim)
        if let prompt = state.prompt {
            renderPrompt(prompt, row: row, into: &buffer)
            // Why the filter is not a query, whole (with the fields it knows), wrapped above the prompt.
            if let error = prompt.error {
                writeMessage(StatusMessage(error, isError: true), row: row - 1, width: width, into: &buffer)
            }
            return
        }
        // A transient message, else what a server on this store refused lately: both wrap rather than cut.
        let message = state.message ?? intakeNote(state).map { StatusMessage($0, isError: true) }
        var right = ""
        var rightStyle = Style.dim
        if state.loading {
            // Dimension terms recount from the events: slower than the rollups, so the bar says why.
            let what = state.query.search.dimensionTerms.isEmpty ? "loading" : "reading events"
            right = what + (state.unicode ? "…" : "...")
        } else if let key = selectedWhole(state, size: buffer.size), TextSanitizer.width(key, unicode: state.unicode) <= width - 10,
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

    /// What identifies the selected row, whole, on every list-like screen where its row shows it
    /// cut: the issue's key (list, release), the link's `domain.name` (pivot), the view's name and query.
    static func selectedWhole(_ state: DashboardState, size: Size) -> String? {
        let width = size.cols
        switch state.screen {
        case .list:
            guard let issue = state.selectedIssue, let list = state.list else { return nil }
            let layout = ListLayout(size: size)
            let scroll = Scrolling.keep(state.selectedIndex, visible: layout.visibleIssues, scroll: state.listScroll, count: list.issues.count)
            let columns = ListColumns.fitted(list.issues, mode: state.query.mode, width: width, unicode: state.unicode,
                                             visible: scroll..<(scroll + layout.visibleIssues))
            return columns.compactKeys || !columns.has(.key) ? issue.key : nil
        case .release:
            guard let issue = state.release.selectedIssue, let c = state.release.comparison else { return nil }
            let columns = ReleaseView.Columns(width: width, keys: c.all.map(\.key), unicode: state.unicode)
            return columns.fullKeys || columns.cutKeys[issue.key] == issue.key ? nil : issue.key
        case .pivot:
            guard let groups = state.pivot.groups, let group = state.pivot.selectedGroup else { return nil }
            let name = TextSanitizer.sanitize(group.link.fullName, unicode: state.unicode)
            return TextSanitizer.width(name, unicode: state.unicode) > PivotView.Columns(groups, width: width).name ? name : nil
        case .views:
            guard let view = state.savedViews.views?[safe: state.savedViews.selected] else { return nil }
            let query = TextSanitizer.sanitize(view.query, unicode: state.unicode)
            return TextSanitizer.width(query, unicode: state.unicode) > SavedViewsView.queryWidth(state.savedViews.views ?? [], width: width, unicode: state.unicode)
                ? query : nil
        default:
            return nil
        }
    }

    /// The prompt's label and text, scrolled so that the cursor stays in view.
    static func renderPrompt(_ prompt: Prompt, row: Int, into buffer: inout ScreenBuffer) {
        let width = buffer.size.cols
        let labelWidth = buffer.write(prompt.label, row: row, col: 0, width: max(1, width - 12), style: .prompt)
        let available = width - labelWidth - 1
        guard available > 0 else { return }
        let characters = Array(prompt.text)
        let cursor = min(prompt.cursor, characters.count)
        var start = 0
        while start < cursor,
              TextSanitizer.width(String(characters[start..<cursor]), unicode: buffer.unicode, limit: available + 1) > available {
            start += 1
        }
        let before = String(characters[start..<cursor])
        let used = buffer.write(before, row: row, col: labelWidth, width: available, style: .prompt, ellipsis: false)
        buffer.write(String(characters[cursor...]), row: row, col: labelWidth + used, width: available - used, style: .prompt)
        let cursorCol = labelWidth + used
        if cursorCol < width { buffer.paint(row: row, col: cursorCol, width: 1, style: .cursor) }
    }

    /// Key hints for the screen on top, from the key table, in its order, as many as fit in
    /// `width`: `? help` always shows, last.
    /// `serve refused 12 requests in its last minute (unauthorized 10, too_large 2)`, while a server
    /// on this store recorded refusals within the last five minutes of the list's end, on the list.
    static func intakeNote(_ state: DashboardState) -> String? {
        guard state.screen == .list, let list = state.list, let rejected = list.intakeRejections, rejected.total > 0,
              list.now.millis - rejected.at.millis < 5 * 60_000, rejected.at.millis <= list.now.millis + 60_000 else { return nil }
        let reasons = rejected.byReason.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "serve refused \(rejected.total) request\(rejected.total == 1 ? "" : "s") in its last minute (\(reasons)) at \(rejected.at.minuteText)"
    }

    static func hints(for state: DashboardState, width: Int) -> [Span] {
        let all = KeyBinding.on(state.screen.place).filter { $0.hint != nil && $0.offered(state) }
        let offered = all.filter(\.shownFirst) + all.filter { !$0.shownFirst }
        func spans(_ binding: KeyBinding) -> [Span] {
            var label = binding.label(unicode: state.unicode)
            // The key line names a binding's first keys where help names them all.
            if binding.keys.contains(.up) { label = state.unicode ? "↑↓" : "j/k" }
            if binding.label == "Esc q" { label = "Esc" }
            return [Span(" " + label, .key), Span(" " + (binding.hint ?? "") + " ", .dim)]
        }
        func cells(_ spans: [Span]) -> Int { spans.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: state.unicode) } }
        let help = offered.last { $0.keys == [.char("?")] }.map(spans) ?? []
        var result: [Span] = []
        for binding in offered where binding.keys != [.char("?")] {
            let next = spans(binding)
            guard cells(result) + cells(next) + cells(help) <= width else { break }
            result += next
        }
        return result + help
    }
}
