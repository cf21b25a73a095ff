import TriageModel

/// The human outputs of `report` and `show`: aligned text, or markdown tables ready to paste.
enum ReportText {
    static func list(_ list: IssueList, markdown: Bool) -> String {
        let q = list.query
        let window = "window \(q.window.rawValue) ending \(list.now.minuteText) UTC, by \(q.mode.rawValue), status \(q.filter.label)"
        let t = list.totals
        let totals = "\(t.issues) issues · \(t.events) events · \(t.users) users · \(t.complaints) complaints"
        var out = ""
        if markdown {
            out += "## errtriage report — \(window)\n\n\(totals)\n\n"
            out += "| # | Key | Events | Users | Complaints | Trend | Versions | Status | Chain |\n"
            out += "|---|---|---:|---:|---:|---|---|---|---|\n"
            for (i, s) in list.issues.enumerated() {
                let cells = ["\(i + 1)", "`\(s.key)`", "\(s.events)", "\(s.users)", "\(s.complaints)",
                             Sparkline.text(s.series, width: 14), versions(s), statusText(s), Inert.markdown(s.chain.fullForm)]
                out += "| " + cells.joined(separator: " | ") + " |\n"
            }
            return out
        }
        out += "errtriage report — \(window)\n\(totals)   \(Sparkline.text(t.series, width: 30))\n\n"
        if list.storeEvents == 0 {
            return out + "The store is empty: errtriage ingest FILE… to add events, or errtriage demo for sample data.\n"
        }
        if list.issues.isEmpty { return out + "No issue matches.\n" }
        let keyWidth = max(3, list.issues.map(\.key.count).max() ?? 3)
        out += pad("#", 3) + "  " + pad("KEY", keyWidth) + "  " + lpad("EVENTS", 7) + "  " + lpad("USERS", 6) + "  "
            + lpad("CMPL", 5) + "  " + pad("TREND", 14) + "  " + pad("VERSIONS", 14) + "  " + pad("STATUS", 18) + "  TITLE\n"
        for (i, s) in list.issues.enumerated() {
            out += lpad("\(i + 1)", 3) + "  " + pad(s.key, keyWidth) + "  " + lpad("\(s.events)", 7) + "  " + lpad("\(s.users)", 6)
                + "  " + lpad("\(s.complaints)", 5) + "  " + pad(Sparkline.text(s.series, width: 14), 14) + "  "
                + pad(versions(s), 14) + "  " + pad(statusText(s), 18) + "  " + Inert.text(s.title) + "\n"
        }
        return out
    }

    /// The root-cause pivot: issues grouped by one link, with what they surface as.
    static func pivot(_ groups: [LayerGroup], layer: Layer, list: IssueList, markdown: Bool) -> String {
        let q = list.query
        var out = (markdown ? "## " : "") + "errtriage — issues by \(layer.label), window \(q.window.rawValue) ending \(list.now.minuteText) UTC, status \(q.filter.label)\n\n"
        if groups.isEmpty { return out + "No issue has a link there.\n" }
        let relatedTitle = layer == .outer ? "Root causes" : "Surfaces as"
        if markdown {
            out += "| Link | Events | Complaints | Issues | \(relatedTitle) |\n|---|---:|---:|---:|---|\n"
        } else {
            out += pad("LINK", 48) + lpad("EVENTS", 8) + lpad("CMPL", 6) + lpad("ISSUES", 8) + "  " + relatedTitle.uppercased() + "\n"
        }
        for g in groups {
            let name = "\(g.link.shortCode) \(Inert.text(g.link.fullName))"
            let related = g.related(for: layer)
            let surfaces = related.prefix(3).map { "\(Inert.text($0.link.name ?? $0.link.shortCode)) \($0.events)" }.joined(separator: ", ")
                + (related.count > 3 ? ", …" : "")
            if markdown {
                out += "| `\(g.link.shortCode)` \(Inert.markdown(g.link.fullName)) | \(g.events) | \(g.complaints) | \(g.issues.count) | \(Inert.markdown(surfaces)) |\n"
            } else {
                out += pad(name, 48) + lpad("\(g.events)", 8) + lpad("\(g.complaints)", 6) + lpad("\(g.issues.count)", 8) + "  " + surfaces + "\n"
            }
        }
        return out
    }

    /// Complaints that cite no known issue, by category with sample texts.
    static func unlinked(_ u: UnlinkedComplaints, markdown: Bool) -> String {
        guard u.total > 0 else { return "" }
        var out = markdown ? "\n### Complaints that cite no known issue (\(u.total))\n\n" : "\nComplaints that cite no known issue: \(u.total)\n"
        for g in u.groups {
            out += markdown ? "- **\(Inert.markdown(g.category))**: \(g.count)\n" : "  " + pad(Inert.text(g.category), 42) + lpad("\(g.count)", 6) + "\n"
            for sample in g.samples {
                let line = Inert.text(String(sample.prefix(100)))
                out += markdown ? "  - \"\(Inert.markdown(String(sample.prefix(100))))\"\n" : "      “\(line)”\n"
            }
        }
        return out
    }

    static func detail(_ d: IssueDetail) -> String {
        let s = d.summary
        var out = "\(s.key)  \(statusText(s))\n\(Inert.text(s.chain.fullForm))\n\n"
        for (i, link) in s.chain.links.enumerated() {
            let marker = i == s.chain.links.count - 1 ? "  ← root cause" : ""
            out += String(repeating: "  ", count: i) + "\(link.shortCode)  \(Inert.text(link.fullName))  [\(link.code)]\(marker)\n"
        }
        out += "\nFirst seen \(s.firstSeen.minuteText) · last seen \(s.lastSeen.minuteText) · versions \(versions(s))\n"
        out += "Window \(d.window.rawValue): \(s.events) events · \(s.users) users · \(s.complaints) complaints\n"
        if let v = d.resolvedVersion { out += "Resolved in \(Inert.text(v))\n" }
        if let t = s.trackerURL { out += "Tracker: \(Inert.text(t))\n" }
        out += "\(d.window.isHourly ? "Per hour" : "Per day") from \(d.seriesStart.minuteText): \(Sparkline.text(s.series, width: 90)) (max \(s.series.max() ?? 0))\n"
        for b in d.breakdowns where !b.rows.isEmpty {
            out += "\n\(b.dimension.label)\n"
            for row in b.rows.prefix(8) {
                out += "  " + pad(Inert.text(row.value), 24) + lpad("\(row.count)", 8) + lpad(format1(row.percent) + "%", 8) + "\n"
            }
        }
        if !d.recentEvents.isEmpty {
            out += "\nRecent events\n"
            for e in d.recentEvents.prefix(10) {
                let fields = [e.appVersion, e.deviceModel, e.osLabel, e.network, e.userID].map { Inert.text($0 ?? "-") }
                out += "  \(e.timestamp.minuteText)  " + fields.joined(separator: "  ") + "\n"
            }
        }
        if !d.complaints.isEmpty {
            out += "\nComplaints\n"
            for c in d.complaints.prefix(10) {
                out += "  \(c.timestamp.minuteText)  \(Inert.text(c.channel ?? "-"))  \(Inert.text(String(c.text.prefix(200))))\n"
            }
        }
        if !d.notes.isEmpty {
            out += "\nNotes\n"
            for n in d.notes { out += "  \(n.at.minuteText)  \(Inert.text(n.by)): \(Inert.text(n.text))\n" }
        }
        if !d.history.isEmpty {
            out += "\nHistory\n"
            for h in d.history {
                let version = h.version.map { " in \(Inert.text($0))" } ?? ""
                let note = h.note.map { " — \(Inert.text($0))" } ?? ""
                out += "  \(h.at.minuteText)  \(Inert.text(h.by)): \(h.from?.rawValue ?? "-") → \(h.to.rawValue)\(version)\(note)\n"
            }
        }
        return out
    }

    static func versions(_ s: IssueSummary) -> String {
        switch (s.firstVersion, s.lastVersion) {
        case let (a?, b?) where a == b: Inert.text(a)
        case let (a?, b?): "\(Inert.text(a))–\(Inert.text(b))"
        default: "-"
        }
    }

    static func statusText(_ s: IssueSummary) -> String {
        ([s.status.rawValue] + ((s.kind?.badge).map { [$0] } ?? []) + s.signals.filter { $0 != .regressed }.map(\.rawValue))
            .joined(separator: " ")
    }

    static func pad(_ s: String, _ width: Int) -> String {
        let truncated = s.count > width ? String(s.prefix(max(0, width - 1))) + "…" : s
        return truncated + String(repeating: " ", count: max(0, width - truncated.count))
    }

    static func lpad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }
}
