import Presentation
import TriageModel

/// The saved views: one a row, the selected one highlighted; Enter opens it on the list.
enum SavedViewsView {
    /// Rows of views between the heading and the status line.
    static func visibleRows(_ size: Size) -> Int { ListLayout(size: size).visibleIssues }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let dot = state.unicode ? " · " : " | "
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(" Saved views\(dot)\(state.storeName)", row: layout.headerRow, col: 0, style: .header)
        buffer.write([Span(" now: ", .dim), Span(state.query.text.isEmpty ? "no query" : state.query.text)],
                     row: layout.controlsRow, col: 0, width: buffer.size.cols)
        guard let views = state.savedViews.views else {
            buffer.write(state.unicode ? "loading…" : "loading...", row: layout.firstIssueRow, col: 1, style: .dim)
            StatusBar.render(state, row: layout.statusRow, into: &buffer)
            return
        }
        if views.isEmpty {
            buffer.write("No saved views yet.", row: layout.firstIssueRow, col: 1)
            if layout.visibleIssues > 1 {
                buffer.write("errtriage view save NAME --query 'os:17* has:complaints' saves one for everyone on this store.",
                             row: layout.firstIssueRow + 1, col: 1, style: .dim)
            }
        } else {
            let width = buffer.size.cols
            let name = nameWidth(views, unicode: state.unicode)
            let query = queryWidth(views, width: width, unicode: state.unicode)
            let columns = [(1, name, "NAME"), (1 + name + 2, query, "QUERY"), (width - rank - window - 1, rank, "RANKING"),
                           (width - window, window, "WINDOW")]
            for (x, w, heading) in columns { buffer.write(heading, row: layout.columnsRow, col: x, width: w, style: .heading) }
            for i in 0..<layout.visibleIssues {
                let index = state.savedViews.scroll + i
                guard index < views.count else { break }
                let row = layout.firstIssueRow + i
                let view = views[index]
                let cells = [view.name, view.query, view.mode?.rawValue ?? "events", view.window?.rawValue ?? "as is"]
                for ((x, w, _), text) in zip(columns, cells) {
                    buffer.write(text, row: row, col: x, width: w, style: text == cells[3] && view.window == nil ? .dim : .normal)
                }
                if index == state.savedViews.selected { buffer.paint(row: row, col: 0, width: width, style: .selected) }
            }
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }

    static let rank = 10, window = 6

    /// The name column: the longest name, up to 24 cells.
    static func nameWidth(_ views: [SavedView], unicode: Bool) -> Int {
        min(24, max(4, views.map { TextSanitizer.width($0.name, unicode: unicode, limit: 24) }.max() ?? 4))
    }

    /// The query column: what the name, ranking and window leave.
    static func queryWidth(_ views: [SavedView], width: Int, unicode: Bool) -> Int {
        max(8, width - 1 - nameWidth(views, unicode: unicode) - 2 - rank - 1 - window - 1)
    }
}
