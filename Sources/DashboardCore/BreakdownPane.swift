import Presentation
import TriageModel

/// The Breakdowns pane: per dimension with a known value, then per facet (a backend's server,
/// runtime, transaction, and every tag), each value with its count, share and a bar.
enum BreakdownPane {
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        let valueWidth = max(8, min(34, width / 3))
        let countWidth = max(5, (detail.breakdowns.flatMap(\.rows) + detail.facets.flatMap(\.rows))
            .map { Format.count($0.count).count }.max() ?? 5)
        let barWidth = max(0, min(40, width - valueWidth - countWidth - 6 - 4))
        var lines: [[Span]] = []
        let sections = detail.shownDimensions.map { d in (d.label, detail.breakdown(d).rows, d == .device, nil as String?) }
            + detail.facets.map { f in (f.heading, f.rows, false, f.othersText) }
        if sections.isEmpty { lines.append([Span("  (no event in the window)", .dim)]) }
        for (heading, rows, isDevice, others) in sections {
            if !lines.isEmpty { lines.append([]) }
            lines.append([Span(TextSanitizer.sanitize(heading, unicode: unicode), .heading)])
            for row in rows {
                let shown = isDevice ? Format.device(row.value, width: valueWidth) : row.value
                let value = TextSanitizer.glyphs(shown, unicode: unicode, maxWidth: valueWidth)
                var text = String(value.glyphs.map(\.character))
                if value.truncated { text = String(text.dropLast()) + (unicode ? "…" : "~") }
                lines.append([
                    Span("  " + Format.left(text, valueWidth, unicode: unicode)),
                    Span(" " + Format.right(Format.count(row.count), countWidth)),
                    Span(" " + Format.right(Format.percent(row.percent), 6), .dim),
                    Span(" " + bar(row.percent, width: barWidth, unicode: unicode), .bar),
                ])
            }
            if let others { lines.append([Span("  (" + others + ")", .dim)]) }
        }
        if detail.moreTags > 0 { lines += [[], [Span(Format.moreTags(detail.moreTags), .dim)]] }
        return lines
    }

    /// A bar of `percent` of `width` cells, with eighth blocks where the terminal has them.
    static func bar(_ percent: Double, width: Int, unicode: Bool) -> String {
        guard width > 0 else { return "" }
        let clamped = max(0, min(100, percent))
        let eighths = Int((clamped / 100 * Double(width * 8)).rounded())
        if !unicode {
            let cells = max(clamped > 0 ? 1 : 0, (eighths + 4) / 8)
            return String(repeating: "#", count: min(width, cells))
        }
        var bar = String(repeating: "█", count: eighths / 8)
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        bar += partial
        if bar.isEmpty, clamped > 0 { bar = "▏" }
        return bar
    }
}
