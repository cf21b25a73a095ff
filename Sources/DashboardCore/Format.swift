import TriageModel

/// Pure formatting of counts, versions and statuses for the views.
enum Format {
    /// A count in at most six cells: `987`, `12345`, `123.4k`, `12.3M`.
    static func count(_ n: Int) -> String {
        if n < 100_000 { return String(n) }
        if n < 1_000_000 { return oneDecimal(n, 1_000) + "k" }
        if n < 1_000_000_000 { return oneDecimal(n, 1_000_000) + "M" }
        return oneDecimal(n, 1_000_000_000) + "G"
    }

    /// A count with thousands separators, `12,345`.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    static func oneDecimal(_ n: Int, _ unit: Int) -> String {
        let tenths = (n * 10 + unit / 2) / unit
        if tenths >= 1000 { return String(tenths / 10) }
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A percentage with one decimal, `45.2%`.
    static func percent(_ p: Double) -> String {
        let tenths = Int((p * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The version range of an issue: `1.9→1.12`, one version alone, or `-`.
    static func versionRange(_ first: String?, _ last: String?, unicode: Bool) -> String {
        switch (first, last) {
        case let (f?, l?) where f != l: return f + (unicode ? "→" : "->") + l
        case let (f?, _): return f
        case let (nil, l?): return l
        default: return "-"
        }
    }

    /// The style of a status.
    static func style(of status: IssueStatus) -> Style {
        switch status {
        case .open: .statusOpen
        case .regressed: .statusRegressed
        case .resolved: .statusResolved
        case .muted: .statusMuted
        }
    }

    /// The style of a signal badge.
    static func style(of signal: Signal) -> Style {
        switch signal {
        case .new: .badgeNew
        case .regressed: .badgeRegressed
        case .spike: .badgeSpike
        }
    }

    /// An issue's badges in order: its kind (`CRASH`, `ANR`; a non-fatal has none), then its signals.
    static func badges(of issue: IssueSummary) -> [(text: String, style: Style)] {
        let kind: [(text: String, style: Style)] = issue.kind.flatMap { kind in
            kind.badge.map { [($0, kind == .crash ? Style.badgeRegressed : .badgeSpike)] }
        } ?? []
        return kind + issue.signals.map { ($0.rawValue, style(of: $0)) }
    }

    /// Text right-aligned in `width` cells (plain ASCII input).
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Text padded on the right to `width` cells, measured after sanitising.
    static func left(_ text: String, _ width: Int, unicode: Bool = true) -> String {
        let w = TextSanitizer.width(text, unicode: unicode, limit: width)
        return w >= width ? text : text + String(repeating: " ", count: width - w)
    }

    /// A mark as words: `resolved in 1.13`, `a note`, `tracker link`.
    static func describe(_ mark: IssueMark) -> String {
        switch mark {
        case .status(let status, let version):
            if status == .resolved, let v = version, !v.isEmpty { return "resolved in \(v)" }
            return status.rawValue
        case .note: return "with a note"
        case .tracker(let url): return url.map { "with tracker \($0)" } ?? "without a tracker link"
        }
    }
}
