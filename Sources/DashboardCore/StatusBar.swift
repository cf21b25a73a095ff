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
        var right = ""
        var rightStyle = Style.dim
        if state.loading {
            // Dimension terms recount from the events: slower than the rollups, so the bar says why.
            let what = state.query.search.dimensionTerms.isEmpty ? "loading" : "reading events"
            right = what + (state.unicode ? "…" : "...")
        } else if let key = selectedWhole(state, width: width) {
            right = key
            rightStyle = .key
        }
        let rightWidth = right.isEmpty ? 0 : right.count + 1
        if let message = state.message {
            writeMessage(message, row: row, width: width - rightWidth, into: &buffer)
        } else {
            buffer.write(hints(for: state), row: row, col: 0, width: width - rightWidth)
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
            if at != row { buffer.fill(row: at, style: .dim) }
            buffer.write(" " + line, row: at, col: 0, width: at == row ? width : buffer.size.cols, style: style)
        }
    }

    /// What identifies the selected row, whole, on every list-like screen where its row shows it
    /// cut: the issue's key (list, release), the link's `domain.name` (pivot), the view's name and query.
    static func selectedWhole(_ state: DashboardState, width: Int) -> String? {
        switch state.screen {
        case .list:
            guard let issue = state.selectedIssue, let list = state.list else { return nil }
            let columns = ListColumns.fitted(list.issues, mode: state.query.mode, width: width, unicode: state.unicode)
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
            let whole = TextSanitizer.sanitize(view.name + ": " + view.query, unicode: state.unicode)
            return TextSanitizer.width(whole, unicode: state.unicode) > width - 2 ? whole : nil
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

    /// Key hints for the screen on top.
    static func hints(for state: DashboardState) -> [Span] {
        let arrows = state.unicode ? "↑↓" : "j/k"
        let pairs: [(String, String)]
        switch state.screen {
        case .list:
            var list: [(String, String)] = [(arrows, "move"), ("Enter", "open")]
            if state.meeting != nil { list.append(("]", "resume meeting")) }
            list += [("s", "rank"), ("w", "window"), ("f", "status"), ("/", "filter"), ("p", "pivot"), ("M", "meeting"), ("v", "views"), ("V", "release"),
                     ("r e o m", "mark"), ("n", "note"), ("t", "link"), ("u", "undo"), ("?", "help"), ("q", "quit")]
            pairs = list
        case .detail:
            let scroll: (String, String) = state.pane == .events ? (arrows, "select") : (arrows, "scroll")
            var list: [(String, String)] = []
            if state.meeting?.item?.issue.key == state.detailKey, state.detailKey != nil { list.append(("] [", "next/prev item")) }
            list += [("Tab 1-5", "pane"), scroll]
            if state.pane == .events { list.append(("Enter", "fields")) }
            list += [("r e o m", "mark"), ("n", "note"), ("t", "link"), ("u", "undo"), ("Esc", "back"), ("?", "help")]
            pairs = list
        case .event:
            pairs = [(arrows, "scroll"), ("Esc", "back"), ("?", "help")]
        case .help:
            pairs = [(arrows, "scroll"), ("Esc", "close")]
        case .pivot:
            pairs = [(arrows, "move"), ("Enter", "its issues"), ("l", "root/user-facing"), ("d", "domain"), ("s", "rank"),
                     ("w", "window"), ("f", "status"), ("Esc", "back"), ("?", "help")]
        case .release:
            pairs = [(arrows, "move"), ("Enter", "open"), ("w", "window"), ("Esc", "back"), ("?", "help")]
        case .views:
            pairs = [(arrows, "move"), ("Enter", "open on the list"), ("Esc", "back"), ("?", "help")]
        case .meetingEnd:
            pairs = [("[", "last item"), (arrows, "scroll"), ("M", "new agenda"), ("Esc", "list"), ("?", "help")]
        }
        var spans: [Span] = []
        for (key, action) in pairs {
            spans.append(Span(" " + key, .key))
            spans.append(Span(" " + action + " ", .dim))
        }
        return spans
    }
}
