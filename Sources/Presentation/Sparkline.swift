/// Sparklines of event counts: one row of eighth blocks per issue, several rows for the detail chart.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// The ASCII ramp for one-row sparklines, blank to densest.
    static let asciiRamp: [Character] = Array(" .:-=+*#%@")
    /// The ASCII glyphs for one to eight eighths of a chart cell.
    static let asciiEighths: [Character] = Array(".:-=+*##")

    /// Counts summed into at most `width` buckets, oldest first; shorter series are left as they are.
    static func resample(_ values: [Int], to width: Int) -> [Int] {
        guard width > 0 else { return [] }
        guard values.count > width else { return values }
        return (0..<width).map { i in
            let from = i * values.count / width
            let to = (i + 1) * values.count / width
            return values[from..<max(to, from + 1)].reduce(0, +)
        }
    }

    /// Counts stretched to fill `width` columns: each repeated, or summed when there are more than columns.
    static func fit(_ values: [Int], to width: Int) -> [Int] {
        guard !values.isEmpty, width > 0 else { return [] }
        if values.count >= width { return resample(values, to: width) }
        let each = width / values.count
        return values.flatMap { Array(repeating: $0, count: each) }
    }

    /// One row: blank for zero, the lowest block for any count above zero, the full block for the maximum.
    static func line(_ values: [Int], width: Int, unicode: Bool) -> String {
        let points = resample(values, to: width)
        let top = points.max() ?? 0
        guard top > 0 else { return String(repeating: " ", count: points.count) }
        let steps = unicode ? blocks.count : asciiRamp.count - 1
        return String(points.map { v -> Character in
            if v <= 0 { return " " }
            let level = max(1, Int((Double(v) / Double(top) * Double(steps)).rounded(.up)))
            return unicode ? blocks[min(level, steps) - 1] : asciiRamp[min(level, steps)]
        })
    }

    /// A chart `height` rows tall, top row first, each column one point of `fit(values, width)`.
    static func chart(_ values: [Int], width: Int, height: Int, unicode: Bool) -> [String] {
        guard height > 0 else { return [] }
        let points = fit(values, to: width)
        let top = points.max() ?? 0
        let levels = points.map { v -> Int in
            guard top > 0, v > 0 else { return 0 }
            return max(1, Int((Double(v) / Double(top) * Double(height * 8)).rounded(.up)))
        }
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
