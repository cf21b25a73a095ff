/// A terminal's size in character cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var rows: Int
    public var cols: Int

    /// A size; negative values count as zero.
    public init(rows: Int, cols: Int) {
        self.rows = max(0, rows)
        self.cols = max(0, cols)
    }

    /// The smallest size the dashboard lays out; below it only a one-line notice is drawn.
    public static let minimum = Size(rows: 12, cols: 40)

    /// Whether every screen fits: at least `minimum` in both directions.
    public var fitsDashboard: Bool { rows >= Size.minimum.rows && cols >= Size.minimum.cols }

    public var description: String { "\(cols)x\(rows)" }
}
