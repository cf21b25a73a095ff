/// Draws the whole dashboard for a state at a size: a pure function from state to cells.
public func render(_ state: DashboardState, size: Size) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size, unicode: state.unicode)
    guard size.fitsDashboard else {
        let need = "terminal too small (need \(Size.minimum.cols)\(state.unicode ? "×" : "x")\(Size.minimum.rows))"
        if size.rows > 0 { buffer.write(need, row: 0, col: 0, style: .error) }
        return buffer
    }
    switch state.screen {
    case .list:
        IssueListView.render(state, into: &buffer)
        StatusBar.render(state, row: ListLayout(size: size).statusRow, into: &buffer)
    case .detail, .event:
        IssueDetailView.render(state, into: &buffer)
    case .help:
        HelpView.render(state, into: &buffer)
    }
    return buffer
}
