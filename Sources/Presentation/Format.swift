import TriageModel

/// Model values as display text, the same in the dashboard, `report`, `show` and the minutes.
public enum Format {
    /// A count in at most six cells: `987`, `12345`, `123.4k`, `12.3M`.
    public static func count(_ n: Int) -> String {
        if n < 100_000 { return String(n) }
        if n < 1_000_000 { return oneDecimal(n, 1_000) + "k" }
        if n < 1_000_000_000 { return oneDecimal(n, 1_000_000) + "M" }
        return oneDecimal(n, 1_000_000_000) + "G"
    }

    /// A count with thousands separators, `12,345`.
    public static func grouped(_ n: Int) -> String {
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

    /// A number with one decimal, `42.9` (JSON keeps percentages this way).
    public static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }

    /// A percentage with one decimal, `45.2%`.
    public static func percent(_ p: Double) -> String { tenths(p) + "%" }

    /// The widest a list's key column grows (`report`): longer keys are cut with an ellipsis.
    public static let maxKeyColumn = 48

    /// What a detail says of the tags it leaves out (`IssueDetail.moreTags`).
    public static func moreTags(_ n: Int) -> String {
        "\(grouped(n)) more tag\(n == 1 ? "" : "s") not shown: the \(IssueDetail.maxTagFacets) on the most events are"
    }

    /// The version range of an issue: `1.9→1.12` (`1.9->1.12` in ASCII), one version alone, or `-`.
    /// Versions are stored text from the field: sanitised here, as every renderer's other values are.
    public static func versionRange(_ first: String?, _ last: String?, unicode: Bool = true) -> String {
        let clean = { (v: String) in TextSanitizer.sanitize(v, unicode: unicode) }
        switch (first, last) {
        case let (f?, l?) where f != l: return clean(f) + (unicode ? "→" : "->") + clean(l)
        case let (f?, _): return clean(f)
        case let (nil, l?): return clean(l)
        default: return "-"
        }
    }

    /// A short key cut to its outer and root codes where space is short: `US14…NSn1009` (`US14..NSn1009` in ASCII).
    public static func compactKey(_ key: String, unicode: Bool = true) -> String {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count > 2, let first = parts.first, let last = parts.last else { return key }
        return first + (unicode ? "…" : "..") + last
    }

    /// Keys shown together, each cut as `compactKey` cuts it, except that keys whose cut forms
    /// would read the same keep more of their middle (`US21-IN330…NSn1001`, `US21-IN331…NSn1001`),
    /// up to the whole key: two different issues never read the same. By key.
    public static func compactKeys(_ keys: [String], unicode: Bool = true) -> [String: String] {
        var forms: [String: String] = [:]
        let cut = unicode ? "…" : ".."
        func form(_ key: String, keeping n: Int) -> String {
            let parts = key.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count > n + 1, let last = parts.last else { return key }
            return parts.prefix(n).joined(separator: "-") + cut + last
        }
        let groups = Dictionary(grouping: Set(keys), by: { compactKey($0, unicode: unicode) })
        for (short, members) in groups {
            guard members.count > 1 else {
                forms[members[0]] = short
                continue
            }
            var n = 2
            while Set(members.map { form($0, keeping: n) }).count < members.count, members.contains(where: { form($0, keeping: n) != $0 }) {
                n += 1
            }
            for key in members { forms[key] = form(key, keeping: n) }
        }
        return forms
    }

    /// A device as people know it in at most `width` cells: `iPhone 13 (iPhone14,5)`, the name alone where that
    /// does not fit, an unknown identifier as it is.
    public static func device(_ identifier: String, width: Int = .max) -> String {
        guard let name = DeviceName.marketing(identifier) else { return identifier }
        let label = DeviceName.label(identifier)
        return TextSanitizer.width(label) <= width ? label : name
    }

    /// A status as a word, or cut to four letters where space is short: `open`, `regr`, `rslv`, `mute`.
    public static func status(_ status: IssueStatus, short: Bool = false) -> String {
        guard short else { return status.rawValue }
        switch status {
        case .open: return "open"
        case .regressed: return "regr"
        case .resolved: return "rslv"
        case .muted: return "mute"
        }
    }

    /// The status with the kind and signals that add to it, `open CRASH SPIKE NEW` (regressed is the status already).
    public static func statusWithSignals(_ issue: IssueSummary) -> String {
        ([status(issue.status)] + ((issue.kind?.badge).map { [$0] } ?? []) + issue.signals.filter { $0 != .regressed }.map(\.rawValue)
         + (mergeBadge(issue).map { [$0] } ?? []))
            .joined(separator: " ")
    }

    /// A merged group's mark, `+N` for N members besides the head; nil for an issue that stands alone.
    public static func mergeBadge(_ issue: IssueSummary) -> String? {
        issue.members.isEmpty ? nil : "+\(issue.members.count - 1)"
    }

    /// One member of a merged group with its own counts: `US9-IN240-TA120-HT429  160 events  80 users  2 complaints`.
    public static func memberLine(_ member: IssueSummary) -> String {
        TextSanitizer.sanitize(member.key) + "  \(grouped(member.events)) events  \(grouped(member.users)) users  "
            + "\(grouped(member.complaints)) complaints"
    }

    /// The heading of the complaints that cite no code, wherever they are listed.
    public static let unlinkedTitle = "Complaints that cite no code"

    /// How many such complaints, in which window: `118 in the last 7d`, and where they stop when
    /// a prune deleted the window's older ones (`1 in the last all; those before 2026-08-01 were pruned`).
    public static func unlinkedCount(_ u: UnlinkedComplaints, window: TimeWindow) -> String {
        "\(u.total) in the last \(window.rawValue)" + (u.prunedBefore.map { "; those before \($0.dateText) were pruned" } ?? "")
    }

    /// A span of time, rounded down to its largest unit: `4d`, `5h`, `12m`.
    public static func age(millis: Int64) -> String {
        let minutes = max(0, millis / 60_000)
        if minutes >= 2 * 24 * 60 { return "\(minutes / (24 * 60))d" }
        if minutes >= 60 { return "\(minutes / 60)h" }
        return "\(minutes)m"
    }

    /// `last event 4d ago`: said wherever a window ends long after a store's data stops.
    public static func lastEventNote(_ list: IssueList) -> String? {
        list.dataEndsEarly.map { "last event \(age(millis: $0)) ago" }
    }

    /// What `errtriage mark` says it did: `US14-LO43: open → resolved in 1.13`, with the mute's
    /// condition, and, where events already stored brought the issue back at once, what it is now.
    public static func markLine(key: String, from previous: IssueStatus, to status: IssueStatus, inVersion: String?,
                                condition: MuteCondition?, now after: IssueStatus) -> String {
        var line = "\(key): \(previous.rawValue) → \(status.rawValue)"
        if let inVersion { line += " in \(inVersion)" }
        if let condition { line += " \(condition.text)" }
        if after != status { line += "; now \(after.rawValue): events already stored say it came back (see errtriage show \(key))" }
        return line
    }

    /// A mark as words: `resolved in 1.13`, `with a note`, `with tracker …`.
    public static func describe(_ mark: IssueMark) -> String {
        switch mark {
        case .status(let status, let version):
            if status == .resolved, let v = version, !v.isEmpty { return "resolved in \(v)" }
            return status.rawValue
        case .note: return "with a note"
        case .tracker(let url): return url.map { "with tracker \($0)" } ?? "without a tracker link"
        case .assignee(let name): return name.map { "assigned to \($0)" } ?? "unassigned"
        }
    }
}
