/// Draws the whole dashboard for a state at a size: a pure function from state to cells.
public func render(_ state: DashboardState, size: Size) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size, unicode: state.unicode)
    guard size.fitsDashboard else {
        let times = state.unicode ? "×" : "x"
        let minimum = "\(Size.minimum.cols)\(times)\(Size.minimum.rows)"
        // The longest sentence that fits the width, so the size needed is always readable.
        let need = ["terminal too small (need \(minimum))", "too small: need \(minimum)", "need \(minimum)", minimum]
            .first { $0.count <= size.cols } ?? minimum
        if size.rows > 0 { buffer.write(need, row: 0, col: 0, style: .error) }
        return buffer
    }
    state.screen.module.render(state, into: &buffer)
    return buffer
}
