import TriageModel

/// The human outputs of `report`, `show` and the agenda: aligned text, and the pivot's markdown table.
public enum ReportText {
    /// The top-N list as aligned text (the markdown of `report` is the minutes).
    /// Said under the header when the data stops more than an hour before the window ends: the
    /// window holds less than it spans (`--now data` ends it at the newest event).
    public static func staleNote(_ latest: Timestamp?, now: Timestamp) -> String? {
        guard let latest, let gap = IssueList.dataGap(latest: latest, now: now) else { return nil }
        return "Note: last event \(Format.age(millis: gap)) ago (\(latest.minuteText) UTC); "
            + "the window holds less than it spans. --now data ends it at the last event.\n"
    }

    public static func list(_ list: IssueList) -> String {
        let q = list.query
        let window = "window \(q.window.rawValue) ending \(list.now.minuteText) UTC, by \(q.mode.rawValue), status \(q.filter.label)"
        let t = list.totals
        let totals = "\(t.issues) issues · \(t.events) events · \(list.approximateUsers ? "≈" : "")\(t.users) users · \(t.complaints) complaints"
        var out = "errtriage report — \(window)\n\(totals)   \(Sparkline.line(t.series, width: 30))\n"
        if let stale = staleNote(list.latestEvent, now: list.now) { out += stale }
        out += "\n"
        if list.storeEvents == 0 {
            return out + "The store is empty: errtriage ingest FILE… to add events, or errtriage demo for sample data.\n"
        }
        if list.issues.isEmpty { return out + "No issue matches.\n" + list.unmatched.map { "Note: \($0)\n" }.joined() }
        // A key of many links (up to 100) is cut with an ellipsis: `show` and the JSON give it whole.
        let keyWidth = min(Format.maxKeyColumn, max(3, list.issues.map { TextSanitizer.width($0.key) }.max() ?? 3))
        out += Format.fit("#", 3) + "  " + Format.fit("KEY", keyWidth) + "  " + Format.right("EVENTS", 7) + "  "
            + Format.right("USERS", 6) + "  " + Format.right("CMPL", 5) + "  " + Format.fit("TREND", 14) + "  "
            + Format.fit("VERSIONS", 14) + "  " + Format.fit("STATUS", 18) + "  TITLE\n"
        for (i, s) in list.issues.enumerated() {
            out += Format.right("\(i + 1)", 3) + "  " + Format.fit(s.key, keyWidth) + "  " + Format.right("\(s.events)", 7) + "  "
                + Format.right("\(s.users)", 6) + "  " + Format.right("\(s.complaints)", 5) + "  "
                + Format.fit(Sparkline.line(s.series, width: 14), 14) + "  " + Format.fit(versions(s), 14) + "  "
                + Format.fit(Format.statusWithSignals(s), 18) + "  " + TextSanitizer.sanitize(Format.title(s.chain)) + "\n"
        }
        return out
    }

    /// The root-cause pivot: issues grouped by one link, with what they surface as.
    public static func pivot(_ groups: [LayerGroup], layer: Layer, list: IssueList, markdown: Bool) -> String {
        let q = list.query
        var out = (markdown ? "## " : "") + "errtriage — issues by \(layer.label), window \(q.window.rawValue) ending \(list.now.minuteText) UTC, status \(q.filter.label)\n\n"
        if groups.isEmpty { return out + "No issue has a link there.\n" }
        let relatedTitle = layer == .outer ? "Root causes" : "Surfaces as"
        if markdown {
            out += "| Link | Events | Complaints | Issues | \(relatedTitle) |\n|---|---:|---:|---:|---|\n"
        } else {
            out += Format.fit("LINK", 48) + Format.right("EVENTS", 8) + Format.right("CMPL", 6) + Format.right("ISSUES", 8) + "  "
                + relatedTitle.uppercased() + "\n"
        }
        for g in groups {
            let name = "\(g.link.shortCode) \(g.link.fullName)"
            let related = g.related(for: layer)
            let surfaces = related.prefix(3).map { "\($0.link.name ?? $0.link.shortCode) \($0.events)" }.joined(separator: ", ")
                + (related.count > 3 ? ", …" : "")
            if markdown {
                out += "| `\(g.link.shortCode)` \(MarkdownText.inline(g.link.fullName)) | \(g.events) | \(g.complaints) | \(g.issues.count) | \(MarkdownText.inline(surfaces)) |\n"
            } else {
                out += Format.fit(name, 48) + Format.right("\(g.events)", 8) + Format.right("\(g.complaints)", 6)
                    + Format.right("\(g.issues.count)", 8) + "  " + TextSanitizer.sanitize(surfaces) + "\n"
            }
        }
        return out
    }

    /// Complaints that cite no known issue, by category with sample texts.
    public static func unlinked(_ u: UnlinkedComplaints, window: TimeWindow) -> String {
        guard u.total > 0 else { return "" }
        var out = "\n\(Format.unlinkedTitle) (\(Format.unlinkedCount(u, window: window)))\n"
        for g in u.groups {
            out += "  " + Format.fit(g.category, 42) + Format.right("\(g.count)", 6) + "\n"
            for sample in g.samples { out += "      “\(TextSanitizer.sanitize(String(sample.prefix(100))))”\n" }
        }
        return out
    }

    /// `raisedAt`: where each link was raised, outermost first, as the issue's latest kept event
    /// says (empty where none says; a link whose place is unknown is nil). `keptWhole`: the ids of
    /// the issue's events kept whole (`keptWholeCapped`: the newest of more), marked among the recent
    /// events, whose lines fit `width`.
    public static func detail(_ d: IssueDetail, raisedAt: [FrameLocation?] = [], keptWhole: [String] = [], keptWholeCapped: Bool = false,
                              width: Int = 80, code: CodeFacts? = nil) -> String {
        let s = d.summary
        var out = "\(s.key)  \(Format.statusWithSignals(s))\n\(TextSanitizer.sanitize(ChainText.fullForm(s.chain)))\n\n"
        let places = raisedAt.count == s.chain.links.count ? raisedAt : []
        for i in ChainText.shown(s.chain.links.count) {
            guard let i else {
                out += ChainText.elision(s.chain.links.count) + "\n"
                continue
            }
            let link = s.chain.links[i]
            let marker = i == s.chain.links.count - 1 ? "  ← root cause" : ""
            out += ChainText.indent(i) + "\(link.shortCode)  \(TextSanitizer.sanitize(link.fullName))  [\(Format.code(of: link))]\(marker)\n"
            if let place = places.isEmpty ? nil : places[i] {
                out += ChainText.indent(i) + "    raised at \(TextSanitizer.sanitize(place.description))\n"
                if let code, code.problem == nil, let site = code.sites[safe: i] ?? nil {
                    out += CodeText.siteLines(site, place: place, indent: ChainText.indent(i) + "      ")
                }
            }
        }
        if let code { out += CodeText.checkoutLine(code) + "\n" }
        if !s.members.isEmpty {
            out += "\nMerged group: \(s.members.count) chains, each with its own counts (in \(d.window.rawValue))\n"
            for m in s.members { out += "  \(Format.memberLine(m))\n    \(TextSanitizer.sanitize(ChainText.fullForm(m.chain)))\n" }
        }
        out += "\nFirst seen \(s.firstSeen.minuteText) · last seen \(s.lastSeen.minuteText) · versions \(versions(s))\n"
        out += "Window \(d.window.rawValue): \(s.events) events · \(d.approximateUsers ? "≈" : "")\(s.users) users · \(s.complaints) complaints\n"
        if let since = d.rawEventsSince { out += PruneText.rawEventsNote(since: since) + "\n" }
        if let v = d.resolvedVersion { out += "Resolved in \(TextSanitizer.sanitize(v))\n" }
        if let t = s.trackerURL { out += "Tracker: \(TextSanitizer.sanitize(t))\n" }
        if let a = s.assignee { out += "Assignee: \(TextSanitizer.sanitize(a))\n" }
        if let o = s.owner { out += "Owner: \(TextSanitizer.sanitize(o))\n" }
        out += "\(d.window.isHourly ? "Per hour" : "Per day") from \(d.seriesStart.minuteText): \(Sparkline.line(s.series, width: 90)) (max \(s.series.max() ?? 0))\n"
        for b in d.shownDimensions.map(d.breakdown) {
            out += "\n\(b.dimension.label)\n"
            for row in b.rows.prefix(8) {
                let value = b.dimension == .device ? Format.device(row.value, width: 34) : row.value
                out += "  " + Format.fit(value, 34) + Format.right("\(row.count)", 8) + Format.right(Format.percent(row.percent), 8) + "\n"
            }
        }
        for f in d.facets {
            out += "\n\(TextSanitizer.sanitize(f.heading))\n"
            for row in f.rows {
                out += "  " + Format.fit(row.value, 34) + Format.right("\(row.count)", 8) + Format.right(Format.percent(row.percent), 8) + "\n"
            }
            if let others = f.othersText { out += "  (\(others))\n" }
        }
        if d.moreTags > 0 { out += "\n" + Format.moreTags(d.moreTags) + "\n" }
        if !d.recentEvents.isEmpty {
            out += recentEvents(Array(d.recentEvents.prefix(10)), of: s.key, keptWhole: keptWhole, capped: keptWholeCapped, width: width)
        }
        if !d.complaints.isEmpty {
            out += "\nComplaints\n"
            for c in d.complaints.prefix(10) {
                out += "  \(c.timestamp.minuteText)  \(TextSanitizer.sanitize(c.channel ?? "-"))  \(TextSanitizer.sanitize(String(c.text.prefix(200))))\n"
            }
        }
        if !d.notes.isEmpty {
            out += "\nNotes\n"
            for n in d.notes { out += "  \(n.at.minuteText)  \(TextSanitizer.sanitize(n.by)): \(TextSanitizer.sanitize(n.text))\n" }
        }
        if !d.history.isEmpty {
            out += "\nHistory\n"
            for h in d.history {
                let version = h.version.map { " in \(TextSanitizer.sanitize($0))" } ?? ""
                let note = h.note.map { " — \(TextSanitizer.sanitize($0))" } ?? ""
                out += "  \(h.at.minuteText)  \(TextSanitizer.sanitize(h.by)): \(h.from?.rawValue ?? "-") → \(h.to.rawValue)\(version)\(note)\n"
            }
        }
        return out
    }

    /// The recent events under a heading row, each message cut to `width`; an event kept whole is
    /// marked `◆` and followed by the command that opens it.
    static func recentEvents(_ events: [ErrorEvent], of key: String, keptWhole: [String], capped: Bool, width: Int) -> String {
        let kept = Set(keptWhole)
        let listedKept = events.filter { kept.contains($0.eventID) }.count
        let unlisted = kept.count - Set(events.map(\.eventID)).intersection(kept).count
        var out = "\nRecent events" + (listedKept > 0 ? "   ◆ kept whole: the line under it opens it" : "") + "\n"
        let indent = 4
        let columns = EventColumns.fitted(events, width: width - indent)
        let room = max(8, width - indent - EventColumns.taken(columns))
        out += String(repeating: " ", count: indent) + columns.map { Format.fit($0.heading, $0.width) + " " }.joined() + "MESSAGE\n"
        for e in events {
            let isKept = kept.contains(e.eventID)
            let cells = columns.map { Format.fit($0.text(e), $0.width) + " " }.joined() + Format.cells(e.message ?? "-", room).text
            out += (isKept ? "  ◆ " : "    ") + cells + "\n"
            if isKept { out += "      errtriage event \(TextSanitizer.sanitize(e.eventID))\n" }
        }
        let command = "errtriage show \(TextSanitizer.sanitize(key)) --format json"
        if capped {
            out += "  More kept whole: \(command) lists the newest \(kept.count)\n"
        } else if unlisted > 0 {
            out += "  \(unlisted) more kept whole: \(command)\n"
        }
        return out
    }

    /// The issue's version range as every output shows it.
    static func versions(_ s: IssueSummary) -> String {
        Format.versionRange(s.firstVersion, s.lastVersion)
    }
}
