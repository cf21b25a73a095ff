import TriageModel

/// A ready ticket made from one issue: `errtriage ticket KEY`, the dashboard's `T`.
public enum TicketText {
    /// Where the ticket goes: plain markdown, GitHub issues (markdown with collapsible events), Jira wiki markup.
    public enum Style: String, CaseIterable, Sendable {
        case markdown, github, jira
    }

    /// The ticket's title: what the user saw … the root cause, and the key.
    public static func title(_ summary: IssueSummary) -> String {
        TextSanitizer.sanitize(Format.title(summary.chain) + " (" + summary.key + ")")
    }

    /// The whole ticket; user ids of complaints are left out unless `withUsers`. `code`: what the
    /// checkout says of the raise sites (`detail.raisedAt`): each one's suspect commit and owners.
    public static func render(_ detail: IssueDetail, style: Style, withUsers: Bool = false, code: CodeFacts? = nil) -> String {
        let s = detail.summary
        let jira = style == .jira
        func heading(_ text: String) -> String { jira ? "h2. \(text)\n" : "## \(text)\n" }
        func item(_ text: String) -> String { (jira ? "* " : "- ") + text + "\n" }
        func cell(_ text: String) -> String { jira ? jiraInline(text) : MarkdownText.inline(text) }
        var out = jira ? "h1. \(jiraInline(title(s)))\n\n" : "# \(MarkdownText.inline(title(s)))\n\n"

        out += heading("Chain")
        out += jira ? "{noformat}\n" : "```\n"
        for i in ChainText.shown(s.chain.links.count) {
            guard let i else {
                out += ChainText.elision(s.chain.links.count) + "\n"
                continue
            }
            let link = s.chain.links[i]
            let root = i == s.chain.links.count - 1 ? "  <- root cause" : ""
            out += ChainText.indent(i) + TextSanitizer.sanitize("\(link.shortCode)  \(link.fullName)") + root + "\n"
        }
        out += jira ? "{noformat}\n\n" : "```\n\n"

        if let code, code.problem == nil, code.sites.contains(where: { $0 != nil }) {
            out += heading("Where it was raised")
            for (i, site) in code.sites.enumerated() {
                guard let site, let link = s.chain.links[safe: i] else { continue }
                var text = cell(link.shortCode) + ": " + cell(site.place ?? detail.raisedAt[safe: i]??.description ?? "?")
                if let c = site.suspect {
                    text += ", last changed in " + cell("\(c.shortHash) \(c.subject)") + " by " + cell(c.author) + " on \(c.date.dateText)"
                }
                if !site.owners.isEmpty { text += ", owners " + site.owners.map(cell).joined(separator: " ") }
                out += item(text)
            }
            if let revision = code.revision { out += item("read at " + cell(revision.label) + (revision.note.map { " (" + cell($0) + ")" } ?? "")) }
            out += "\n"
        }

        out += heading("Counts (\(detail.window.rawValue) to \(detail.now.minuteText))")
        out += item("\(s.events) events, \(s.users) users, \(s.complaints) complaints  \(Sparkline.line(s.series, width: min(30, s.series.count)))")
        out += item("status " + Format.statusWithSignals(s) + (s.assignee.map { ", assigned to " + cell($0) } ?? "")
                    + (s.owner.map { ", owner " + cell($0) } ?? ""))
        out += item("first seen \(s.firstSeen.minuteText), last seen \(s.lastSeen.minuteText)")
        out += item("versions " + cell(Format.versionRange(s.firstVersion, s.lastVersion)))
        out += "\n"

        for (dimension, name) in [(Dimension.device, "Top devices"), (.os, "OS versions"), (.appVersion, "App versions")] {
            let rows = detail.breakdown(dimension).rows.prefix(5)
            guard !rows.isEmpty else { continue }
            out += heading(name)
            for row in rows {
                let value = dimension == .device ? Format.device(row.value) : row.value
                out += item(cell(value) + " " + Format.percent(row.percent) + " (\(row.count))")
            }
            out += "\n"
        }

        for facet in detail.facets where !facet.isTag {
            out += heading(facet.label + "s")
            for row in facet.rows {
                out += item(cell(row.value) + " " + Format.percent(row.percent) + " (\(row.count))")
            }
            out += "\n"
        }

        let events = detail.recentEvents.prefix(3)
        if !events.isEmpty {
            out += heading("Recent events")
            if style == .github { out += "<details><summary>\(events.count) most recent</summary>\n\n" }
            for e in events {
                let fields = [e.timestamp.secondText, e.appVersion, e.osLabel, e.deviceModel.map { Format.device($0) },
                              e.network, e.appState, e.kind?.rawValue, e.message].compactMap { $0 }
                out += item(fields.map(cell).joined(separator: " · "))
            }
            out += style == .github ? "\n</details>\n\n" : "\n"
        }

        let complaints = detail.complaints.prefix(5)
        if !complaints.isEmpty {
            out += heading("What users say")
            for c in complaints {
                let who = withUsers ? (c.userID.map { " (" + cell($0) + ")" } ?? "") : ""
                out += (jira ? "bq. " : "> ") + cell(String(c.text.prefix(300))) + who + "\n" + (jira ? "" : "\n")
            }
            if jira { out += "\n" }
        }

        out += heading("Open in errtriage")
        out += jira ? "{noformat}\nerrtriage show \(s.key)\n{noformat}\n" : "```\nerrtriage show \(s.key)\n```\n"
        return out
    }

    /// Sanitised text with Jira's markup characters escaped.
    static func jiraInline(_ text: String) -> String {
        var out = ""
        for ch in TextSanitizer.sanitize(text) {
            if "{}[]|*_+^~-!#".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
