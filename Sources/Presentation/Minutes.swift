import TriageModel

/// The meeting's minutes in markdown, ready to paste into a tracker or a wiki.
public enum Minutes {
    /// The minutes; `byOwner` groups the agenda by owner (`report --format markdown --by-owner`).
    public static func render(_ m: MinutesData, byOwner: Bool = false) -> String {
        var out = "# Issue inventory — \(m.now.dateText)\n\n"
        if let since = m.since {
            out += "Since the meeting of \(since.minuteText) UTC (counts over the \(m.window.rawValue) window ending \(m.now.minuteText) UTC).\n\n"
        } else {
            out += "Window \(m.window.rawValue) ending \(m.now.minuteText) UTC; open and regressed issues.\n\n"
        }
        out += "## Totals\n\n| | This window | Previous window | Change |\n|---|---:|---:|---:|\n"
        let t = m.current.totals, p = m.previous?.totals
        // Users of a window reaching before the raw horizon are a lower bound: marked `≈`, and no change is made of them.
        let approximate = (now: m.current.approximateUsers, before: m.previous?.approximateUsers == true)
        let exact = (now: false, before: false)
        for (label, now, before, marks) in [("Issues", t.issues, p?.issues, exact), ("Events", t.events, p?.events, exact),
                                            ("Users", t.users, p?.users, approximate),
                                            ("Complaints", t.complaints, p?.complaints, exact)] {
            let moved = marks.now || marks.before ? "–" : change(now, before)
            out += "| \(label) | \(marks.now ? "≈" : "")\(now) | \(before.map { (marks.before ? "≈" : "") + String($0) } ?? "–") | \(moved) |\n"
        }
        if let since = m.current.rawEventsSince, approximate.now || approximate.before {
            out += "\n≈ a lower bound: the raw events before \(since.dateText) were pruned, and users across days are counted from them.\n"
        }
        out += "\nEvents per \(m.window.isHourly ? "hour" : "day"): \(Sparkline.line(t.series, width: 60))\n"
        if let release = m.release { out += "\n" + MarkdownText.inline(Format.releaseLine(release)) + "\n" }
        out += "\n## Agenda (\(m.agenda.items.count) issues)\n"
        let groups = byOwner ? m.agenda.byOwner : [(owner: nil, items: m.agenda.items)]
        for group in groups {
            if byOwner { out += "\n### " + (group.owner.map { "Owner: " + MarkdownText.inline($0) } ?? "No owner") + "\n" }
            out += agendaTables(group.items, level: byOwner ? "####" : "###")
        }
        out += decisionsAndUnlinked(m)
        return out
    }

    /// The agenda's sections as tables, under headings of `level`.
    static func agendaTables(_ agendaItems: [Agenda.Item], level: String) -> String {
        var out = ""
        for section in Agenda.Section.allCases {
            let items = agendaItems.filter { $0.section == section }
            guard !items.isEmpty else { continue }
            out += "\n\(level) \(section.title)\n\n| Key | Chain | Events | Users | Complaints | Trend | Versions | Status |\n|---|---|---:|---:|---:|---|---|---|\n"
            for item in items {
                let s = item.issue
                out += "| `\(s.key)` | \(MarkdownText.inline(ChainText.fullForm(s.chain))) | \(s.events) | \(s.users) | \(s.complaints) | "
                    + "\(Sparkline.line(s.series, width: 14)) | \(MarkdownText.inline(ReportText.versions(s))) | \(Format.statusWithSignals(s)) |\n"
            }
        }
        return out
    }

    /// The decisions of the period and the complaints no code explains.
    static func decisionsAndUnlinked(_ m: MinutesData) -> String {
        var out = "\n## Decisions\n\n"
        if m.decisions.isEmpty {
            out += "None recorded in this period.\n"
        } else {
            for d in m.decisions {
                out += "- \(d.at.minuteText) UTC, \(MarkdownText.inline(d.by)): `\(d.key)` \(MarkdownText.inline(d.text))\n"
            }
        }
        if m.unlinked.total > 0 {
            out += "\n## \(Format.unlinkedTitle) (\(Format.unlinkedCount(m.unlinked, window: m.window)))\n\n"
            for g in m.unlinked.groups {
                out += "- **\(MarkdownText.inline(g.category))**: \(g.count)"
                out += g.samples.isEmpty ? "\n" : " — e.g. “\(MarkdownText.inline(String(g.samples[0].prefix(100))))”\n"
            }
        }
        return out
    }

    /// `+12.5%`, `−3`, or `–` when there is nothing to compare.
    static func change(_ now: Int, _ before: Int?) -> String {
        guard let before else { return "–" }
        guard before > 0 else { return now == 0 ? "0" : "new" }
        let percent = Double(now - before) * 100 / Double(before)
        let sign = percent >= 0 ? "+" : "−"
        return sign + Format.percent(abs(percent))
    }
}
