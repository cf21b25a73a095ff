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
            buffer.write([Span(" NAME  QUERY  (RANKING, WINDOW)", .heading)], row: layout.columnsRow, col: 0, width: buffer.size.cols)
            for i in 0..<layout.visibleIssues {
                let index = state.savedViews.scroll + i
                guard index < views.count else { break }
                let row = layout.firstIssueRow + i
                let selected = index == state.savedViews.selected
                if selected { buffer.fill(row: row, style: .selected) }
                buffer.write(SavedViewText.line(views[index], unicode: state.unicode), row: row, col: 1,
                             width: buffer.size.cols - 1, style: selected ? .selected : .normal)
            }
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }
}
