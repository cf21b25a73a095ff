import TriageModel

/// `errtriage history KEY`: an identifier's life month by month, as text or JSON.
public enum HistoryText {
    public static func render(_ h: IssueHistory, unicode: Bool = true) -> String {
        let dash = unicode ? "—" : "-"
        var out = "\(h.key)  \(h.status.rawValue)\n\(TextSanitizer.sanitize(ChainText.fullForm(h.chain)))\n"
        out += "First seen \(h.firstSeen.minuteText) UTC · last seen \(h.lastSeen.minuteText) UTC · "
            + "\(h.months.count) month\(h.months.count == 1 ? "" : "s") with events or complaints\n\n"
        let rows = h.months.map { m in
            [m.month, Format.grouped(m.events), Format.grouped(m.users), Format.grouped(m.complaints),
             m.versions.isEmpty ? dash : versionSpan(m.versions, unicode: unicode)]
        }
        let headers = ["MONTH", "EVENTS", "USERS", "COMPL", "VERSIONS"]
        let widths = (0..<4).map { i in max(headers[i].count, rows.map { $0[i].count }.max() ?? 0) }
        out += (0..<4).map { i in i == 0 ? Format.left(headers[i], widths[i]) : Format.right(headers[i], widths[i]) }.joined(separator: "  ")
            + "  " + headers[4] + "\n"
        for row in rows {
            out += (0..<4).map { i in i == 0 ? Format.left(row[i], widths[i]) : Format.right(row[i], widths[i]) }.joined(separator: "  ")
                + "  " + TextSanitizer.sanitize(row[4]) + "\n"
        }
        out += "\nStatus changes\n"
        if h.changes.isEmpty { out += "  none\n" }
        for c in h.changes {
            var line = "  \(c.at.minuteText)  \(c.from?.rawValue ?? dash) → \(c.to.rawValue)"
            if let version = c.version { line += " in \(version)" }
            line += "  by \(c.by)"
            if let note = c.note, !note.isEmpty { line += "  \(note)" }
            out += TextSanitizer.sanitize(line) + "\n"
        }
        if !h.merges.isEmpty {
            out += "\nMerges\n"
            for m in h.merges {
                out += TextSanitizer.sanitize("  \(m.at.minuteText)  \(mergeText(m))  by \(m.by)") + "\n"
            }
        }
        return out
    }

    /// What a merge or an unmerge did: `merged US3-… into US14-…`, `took US3-… out of US14-…'s group`.
    public static func mergeText(_ m: IssueHistory.Merge) -> String {
        m.action == "unmerge" ? "took \(m.member) out of \(m.head)'s group" : "merged \(m.member) into \(m.head)"
    }

    /// `1.9→1.13 (4 versions)`, or the one version.
    public static func versionSpan(_ versions: [String], unicode: Bool) -> String {
        guard let first = versions.first, let last = versions.last, versions.count > 1 else { return versions.first ?? "" }
        return "\(first)\(unicode ? "→" : "->")\(last) (\(versions.count) versions)"
    }

    public static func json(_ h: IssueHistory) -> JSONValue {
        .object([
            ("key", .string(h.key)), ("chain", .string(h.chain.fullForm)), ("status", .string(h.status.rawValue)),
            ("first_seen", .string(h.firstSeen.iso8601)), ("last_seen", .string(h.lastSeen.iso8601)),
            ("months", .array(h.months.map { m in
                .object([("month", .string(m.month)), ("events", ReportJSON.int(m.events)), ("users", ReportJSON.int(m.users)),
                         ("complaints", ReportJSON.int(m.complaints)), ("versions", .array(m.versions.map(JSONValue.string)))])
            })),
            ("status_changes", .array(h.changes.map { c in
                .object([("at", .string(c.at.iso8601)), ("from", c.from.map { .string($0.rawValue) } ?? .null),
                         ("to", .string(c.to.rawValue)), ("version", c.version.map(JSONValue.string) ?? .null),
                         ("by", .string(c.by)), ("note", c.note.map(JSONValue.string) ?? .null)])
            })),
            ("merges", .array(h.merges.map { m in
                .object([("at", .string(m.at.iso8601)), ("action", .string(m.action)), ("head", .string(m.head)),
                         ("member", .string(m.member)), ("by", .string(m.by))])
            })),
        ])
    }
}
