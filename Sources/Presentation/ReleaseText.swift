import TriageModel

/// The human outputs of `releases` and `release`: aligned text or markdown tables.
public enum ReleaseText {
    /// Every version in release order.
    public static func releases(_ releases: [ReleaseSummary], markdown: Bool) -> String {
        var out = (markdown ? "## " : "") + "errtriage release list — every app version, oldest first\n\n"
        if releases.isEmpty { return out + "No event names an app version.\n" }
        let known = releases.contains { $0.adoption != nil }
        let headers = ["VERSION", "FIRST", "LAST", "USERS", "EVENTS", "ISSUES", "NEW", "REGRESSED", "ERROR-FREE"]
        let rows = releases.map { r in
            [TextSanitizer.sanitize(r.version), r.firstSeen.dateText, r.lastSeen.dateText, String(r.users), String(r.events),
             String(r.issues), String(r.newIssues), String(r.regressions), Format.errorFree(r.adoption)]
        }
        if markdown {
            out += "| " + headers.map(ReleaseText.titleCase).joined(separator: " | ") + " |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n"
            for row in rows { out += "| " + ([MarkdownText.inline(row[0])] + row.dropFirst()).joined(separator: " | ") + " |\n" }
        } else {
            let widths = [max(7, rows.map { TextSanitizer.width($0[0]) }.max() ?? 7), 10, 10, 7, 7, 6, 5, 9, 10]
            out += zip(headers, widths).enumerated().map { i, h in i < 3 ? Format.fit(h.0, h.1) : Format.right(h.0, h.1) }
                .joined(separator: "  ") + "\n"
            for row in rows {
                out += zip(row, widths).enumerated().map { i, c in i < 3 ? Format.fit(c.0, c.1) : Format.right(c.0, c.1) }
                    .joined(separator: "  ") + "\n"
            }
        }
        out += "\n" + (known ? "Error-free users: 1 − users with an error / active users of the version, per day on the days the adoption data covers.\n"
                             : "No adoption data: error-free users need active users per version (errtriage ingest adoption.csv; docs/guide/releases.md).\n")
        return out
    }

    /// A version against the previous one: new, worse, better, gone.
    public static func comparison(_ c: ReleaseComparison, markdown: Bool) -> String {
        let against = c.previous.map { " against \($0)" } ?? " (no earlier version)"
        var out = (markdown ? "## " : "") + "errtriage release \(TextSanitizer.sanitize(c.version))\(TextSanitizer.sanitize(against)), window \(c.window.rawValue)\n"
        out += "\(Format.grouped(c.users)) user-days of \(TextSanitizer.sanitize(c.version))"
        if let previous = c.previous { out += " · \(Format.grouped(c.previousUsers)) of \(TextSanitizer.sanitize(previous))" }
        out += "  (\(Format.releaseDenominator(c)))\n"
        if let note = Format.releaseRetentionNote(c) { out += note + "\n" }
        for (change, issues) in c.sections {
            let heading = Format.releaseSection(change, c)
            out += "\n" + (markdown ? "### " + MarkdownText.inline(heading) : TextSanitizer.sanitize(heading)) + " (\(issues.count))\n"
            if issues.isEmpty { out += markdown ? "\nNone.\n" : "  none\n"; continue }
            if markdown {
                out += "\n| Key | Title | Users | Events | Per 1,000 users | Trend |\n|---|---|---:|---:|---|---|\n"
                for i in issues {
                    out += "| `\(MarkdownText.inline(i.key))` | \(MarkdownText.inline(Format.title(i.chain))) | \(Format.releaseUsers(i, change)) | \(Format.releaseEvents(i, change)) | "
                        + "\(Format.rateChange(i.previousPerMille, i.perMille)) | \(Sparkline.line(i.series, width: 14)) |\n"
                }
            } else {
                let keyWidth = max(3, issues.map { TextSanitizer.width($0.key) }.max() ?? 3)
                out += "  " + Format.fit("KEY", keyWidth) + "  " + Format.right("USERS", 9) + "  " + Format.right("EVENTS", 9) + "  "
                    + Format.fit("PER 1,000 USERS", 19) + "  " + Format.fit("TREND", 14) + "  TITLE\n"
                for i in issues {
                    out += "  " + Format.fit(TextSanitizer.sanitize(i.key), keyWidth) + "  " + Format.right(Format.releaseUsers(i, change), 9) + "  "
                        + Format.right(Format.releaseEvents(i, change), 9) + "  " + Format.fit(Format.rateChange(i.previousPerMille, i.perMille), 19) + "  "
                        + Format.fit(Sparkline.line(i.series, width: 14), 14) + "  " + TextSanitizer.sanitize(Format.title(i.chain)) + "\n"
                }
            }
        }
        return out
    }

    /// `ERROR-FREE` as `Error-Free`: each word's first letter upper case, the rest lower case.
    public static func titleCase(_ text: String) -> String {
        var out = ""
        var atWordStart = true
        for c in text {
            out += atWordStart ? c.uppercased() : c.lowercased()
            atWordStart = !c.isLetter
        }
        return out
    }
}
