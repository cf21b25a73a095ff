import Presentation
import TriageModel

/// The Chain pane: the chain as a ladder, outermost first, then the issue's facts and a large sparkline.
enum ChainLadder {
    /// The ladder alone: one line per layer, a step deeper each, the root cause marked; a code the
    /// source did not state says where it came from.
    static func ladder(_ chain: ErrorChain, unicode: Bool) -> [[Span]] {
        ChainText.shown(chain.links.count).map { shown in
            guard let depth = shown else { return [Span("   " + ChainText.elision(chain.links.count), .dim)] }
            let link = chain.links[depth]
            let isRoot = depth == chain.links.count - 1
            let indent = depth == 0 ? "" : String(repeating: " ", count: (min(depth, ChainText.maxDepth) - 1) * 3) + (unicode ? "└─ " : "`- ")
            var spans = [
                Span(indent, .dim),
                Span(link.shortCode, isRoot ? .rootCause : .key),
                Span("  \(link.domain ?? "?")"),
                Span(" \(link.code) ", .dim),
                Span(link.name ?? "?"),
            ]
            if let origin = link.origin, origin != .stated { spans.append(Span(origin == .derived ? "  (code derived)" : "  (code from message)", .dim)) }
            if isRoot { spans.append(Span(unicode ? "  ◀ root cause" : "  <- root cause", .rootCause)) }
            return spans
        }
    }

    /// Every line of the pane at a width and body height; with what the checkout says of the
    /// raise sites (`code`, nil while it is read; `selected`: the site `e` opens) when asked of it.
    static func lines(_ detail: IssueDetail, width: Int, height: Int, unicode: Bool, code: CodeFacts? = nil, codeAsked: Bool = false,
                      selected: Int? = nil) -> [[Span]] {
        let s = detail.summary
        var lines: [[Span]] = [[Span("Chain, outermost first", .heading)]]
        let places = detail.raisedAt.count == s.chain.links.count ? detail.raisedAt : []
        for (rung, shown) in zip(ladder(s.chain, unicode: unicode), ChainText.shown(s.chain.links.count)) {
            lines.append(rung)
            guard let depth = shown, let place = places[safe: depth] ?? nil else { continue }
            // Where the issue's latest kept event says this link was raised, under its rung.
            let indent = String(repeating: " ", count: depth == 0 ? 2 : min(depth, ChainText.maxDepth) * 3 + 2)
            let text = TextSanitizer.sanitize(place.description, unicode: unicode, maxWidth: max(1, width - indent.count - 2))
            let arrow = unicode ? "← " : "<- "
            // The site `e` opens stands out once a checkout answers (without one, `e` says how to name one).
            if codeAsked, code != nil, code?.problem == nil, depth == selected {
                lines.append([Span(indent + (unicode ? "▸ " : "> ") + text, .selected)])
            } else {
                lines.append([Span(indent + arrow + text, .dim)])
            }
            if codeAsked { lines += CodeKeys.siteLines(code, index: depth, indent: indent + "    ", width: width, unicode: unicode) }
        }
        if codeAsked, !places.isEmpty { lines += CodeKeys.checkoutLines(code, width: width, unicode: unicode) }
        lines.append([])
        lines += field("Short key", s.chain.shortKey, width: width, unicode: unicode)
        lines += field("Full form", ChainText.fullForm(s.chain), width: width, unicode: unicode)
        lines.append([])
        let dash = unicode ? "—" : "-"
        lines += field("First seen", "\(s.firstSeen.minuteText)  in \(s.firstVersion ?? dash)", width: width, unicode: unicode)
        lines += field("Last seen", "\(s.lastSeen.minuteText)  in \(s.lastVersion ?? dash)", width: width, unicode: unicode)
        lines += field("In \(detail.window.rawValue)", "\(Format.grouped(s.events)) events  \(Format.grouped(s.users)) users  "
                       + "\(Format.grouped(s.complaints)) complaints", width: width, unicode: unicode)
        lines.append([Span(label("Status")), Span(s.status.rawValue, Format.style(of: s.status))])
        lines += field("Resolved in", detail.resolvedVersion ?? dash, width: width, unicode: unicode)
        lines.append([Span(label("Tracker")), s.trackerURL.map { Span($0, .link) } ?? Span("none (t sets one)", .dim)])
        lines.append([])
        if !s.members.isEmpty {
            lines.append([Span("Merged group: \(s.members.count) chains, each with its own counts", .heading)])
            for member in s.members {
                lines += field(member.key == s.key ? "Head" : "Member", Format.memberLine(member), width: width, unicode: unicode)
                lines += ladder(member.chain, unicode: unicode).map { [Span(label(""))] + $0 }
            }
            lines.append([])
        }
        lines += chart(detail, width: width, height: height, unicode: unicode)
        return lines
    }

    static func label(_ text: String) -> String { Format.left(text, 12) }

    /// A labelled field whose value wraps under itself.
    static func field(_ name: String, _ value: String, width: Int, unicode: Bool) -> [[Span]] {
        let wrapped = TextWrap.wrap(value, width: max(1, width - 12), unicode: unicode, maxLines: 20)
        return wrapped.enumerated().map { i, text in [Span(i == 0 ? label(name) : label("")), Span(text)] }
    }

    /// The multi-row sparkline of the issue's series with its scale: maximum, first and last bucket.
    static func chart(_ detail: IssueDetail, width: Int, height: Int, unicode: Bool) -> [[Span]] {
        let series = detail.summary.series
        let unit = detail.window.isHourly ? "hour" : "day"
        guard !series.isEmpty else { return [[Span("No events per \(unit) to chart.", .dim)]] }
        let chartHeight = height >= 36 ? 8 : height >= 18 ? 5 : 3
        let chartWidth = max(1, width - 1)
        let rows = Sparkline.chart(series, width: chartWidth, height: chartHeight, unicode: unicode)
        let top = series.max() ?? 0
        var lines: [[Span]] = [[Span("Events per \(unit), \(detail.window.rawValue)", .heading),
                                Span("  max \(Format.grouped(top)) per \(unit)", .dim)]]
        lines += rows.map { [Span($0, .sparkline)] }
        let step = detail.window.isHourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
        let last = detail.seriesStart.adding(millis: Int64(series.count - 1) * step)
        let startText = detail.window.isHourly ? detail.seriesStart.minuteText : detail.seriesStart.dateText
        let endText = detail.window.isHourly ? last.minuteText : last.dateText
        let drawn = Sparkline.fit(series, to: chartWidth).count
        let gap = max(2, drawn - startText.count - endText.count)
        lines.append([Span(startText + String(repeating: " ", count: gap) + endText, .dim)])
        return lines
    }
}
