/// Sparklines of counts, one scaling everywhere: a count is `ceil(v / top × steps)` of the highest,
/// so any count above zero shows and the highest fills the cell. Text report, minutes and dashboard use it.
public enum Sparkline {
    /// The eighth blocks, lowest first.
    public static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// The ASCII ramp for one-row sparklines, blank to densest.
    public static let asciiRamp: [Character] = Array(" .:-=+*#%@")
    /// The ASCII glyphs for one to eight eighths of a chart cell.
    public static let asciiEighths: [Character] = Array(".:-=+*##")

    /// Counts summed into at most `width` buckets, oldest first; shorter series are left as they are.
    public static func resample(_ values: [Int], to width: Int) -> [Int] {
        guard width > 0 else { return [] }
        guard values.count > width else { return values }
        return (0..<width).map { i in
            let from = i * values.count / width
            let to = (i + 1) * values.count / width
            return values[from..<max(to, from + 1)].reduce(0, +)
        }
    }

    /// Counts stretched to fill `width` columns: each repeated, or summed when there are more than columns.
    public static func fit(_ values: [Int], to width: Int) -> [Int] {
        guard !values.isEmpty, width > 0 else { return [] }
        if values.count >= width { return resample(values, to: width) }
        let each = width / values.count
        return values.flatMap { Array(repeating: $0, count: each) }
    }

    /// The level of `value` out of `steps` against `top`: 0 for nothing, at least 1 for any count, `steps` for the top.
    public static func level(_ value: Int, top: Int, steps: Int) -> Int {
        guard top > 0, value > 0 else { return 0 }
        return min(steps, max(1, Int((Double(value) / Double(top) * Double(steps)).rounded(.up))))
    }

    /// One row of at most `width` cells: blank for zero, the lowest block for any count, the full block for the maximum.
    public static func line(_ values: [Int], width: Int, unicode: Bool = true) -> String {
        let points = resample(values, to: width)
        let top = points.max() ?? 0
        let steps = unicode ? blocks.count : asciiRamp.count - 1
        return String(points.map { v -> Character in
            let level = level(v, top: top, steps: steps)
            if level == 0 { return " " }
            return unicode ? blocks[level - 1] : asciiRamp[level]
        })
    }

    /// A chart `height` rows tall, top row first, each column one point of `fit(values, width)`.
    public static func chart(_ values: [Int], width: Int, height: Int, unicode: Bool) -> [String] {
        guard height > 0 else { return [] }
        let points = fit(values, to: width)
        let top = points.max() ?? 0
        let levels = points.map { level($0, top: top, steps: height * 8) }
        return (0..<height).map { r in
            let floor = (height - 1 - r) * 8
            return String(levels.map { level -> Character in
                let filled = level - floor
                if filled <= 0 { return " " }
                if filled >= 8 { return unicode ? "█" : "#" }
                return unicode ? blocks[filled - 1] : asciiEighths[filled - 1]
            })
        }
    }
}
