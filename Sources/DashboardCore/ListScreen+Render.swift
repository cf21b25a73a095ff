import Presentation
import TriageModel

/// How the list draws: its header, controls, column headings and rows, and its status line.
extension ListScreen {
    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let width = buffer.size.cols
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(headerSpans(state, width: width), row: layout.headerRow, col: 0)
        buffer.write(controlSpans(state), row: layout.controlsRow, col: 0)
        var whole: String?
        defer { StatusBar.render(state, row: layout.statusRow, whole: whole, note: intakeNote(state), into: &buffer) }

        guard let list = state.list.loaded else {
            buffer.write(state.loading ? "loading…" : "No data loaded.", row: layout.firstIssueRow, col: 1, style: .dim)
            return
        }
        if list.storeEvents == 0 {
            let lines = [
                ("The store \(state.storeName) has no events yet.", Style.normal),
                ("", .normal),
                ("Load some:", .normal),
                ("  errtriage ingest FILE…", .key),
                ("or explore made-up data:", .normal),
                ("  errtriage demo", .key),
            ]
            for (i, line) in lines.enumerated() where i < layout.visibleIssues {
                buffer.write(line.0, row: layout.firstIssueRow + i, col: 1, style: line.1)
            }
            return
        }
        if list.issues.isEmpty {
            var text = "No issues match"
            if !state.query.text.isEmpty { text += " the filter \"\(state.query.text)\"" }
            if let scope = state.query.scope { text += " in \(scope.label)" }
            text += " (status \(state.query.filter.label), \(state.query.window.rawValue))."
            buffer.write(text, row: layout.firstIssueRow, col: 1)
            let narrowed = !state.query.text.isEmpty || state.query.scope != nil
            let hint = narrowed ? "Esc clears the filter; f changes the status filter." : "f changes the status filter, w the window."
            // Why the filter matches nothing, where a term names a value the store does not hold.
            var row = layout.firstIssueRow + 1
            for sentence in list.unmatched {
                for line in TextWrap.wrap(sentence.prefix(1).uppercased() + sentence.dropFirst(), width: max(1, width - 2),
                                          unicode: buffer.unicode, maxLines: 3) where row < layout.firstIssueRow + layout.visibleIssues - 1 {
                    buffer.write(line, row: row, col: 1)
                    row += 1
                }
            }
            if row < layout.firstIssueRow + layout.visibleIssues { buffer.write(hint, row: row, col: 1, style: .dim) }
            return
        }

        let scroll = state.list.rows.shownScroll(count: list.issues.count, visible: layout.visibleIssues)
        let columns = columns(state, size: buffer.size)
        // The selected key, whole in the status line, where its row shows it cut.
        if let issue = state.list.selectedIssue, columns.compactKeys || !columns.has(.key) { whole = issue.key }
        writeHeadings(columns, mode: state.query.mode, row: layout.columnsRow, unicode: buffer.unicode, into: &buffer)
        for line in 0..<layout.visibleIssues {
            let index = scroll + line
            guard index < list.issues.count else { break }
            let row = layout.firstIssueRow + line
            writeRow(list.issues[index], rank: index + 1, columns: columns, mode: state.query.mode, row: row,
                     picked: state.list.picked.contains(list.issues[index].key), into: &buffer)
            if index == state.list.rows.selected { buffer.paint(row: row, col: 0, width: width, style: .selected) }
        }
    }

    /// Store, window and its end, the data's end when it stops long before, totals, and the
    /// sparkline of every event in the window. Nothing here is ever cut: a number cut short reads
    /// as another number, so the totals shorten, then give way one by one, and the store's path
    /// shortens to its file name.
    static func headerSpans(_ state: DashboardState, width: Int) -> [Span] {
        let unicode = state.unicode
        func cells(_ spans: [Span]) -> Int { spans.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: unicode) } }
        let dot = unicode ? " · " : " | "
        var flags: [Span] = []
        if state.readOnly { flags.append(Span(" [read-only]", .header)) }
        if state.offline { flags.append(Span(" [offline]", .header)) }
        guard let list = state.list.loaded else { return [Span(" \(state.storeName)", .header)] + flags }
        let windowText = dot + "\(list.query.window.rawValue) to \(list.now.minuteText)" + (state.anchoredToData ? " (last event)" : "")
        let note = Format.lastEventNote(list)
        let windows: [[Span]] = [
            [Span(windowText, .header)] + (note.map { [Span(dot + $0 + " (N)", .headerAlert)] } ?? []),
            [Span(windowText, .header)] + (note.map { [Span(dot + $0, .headerAlert)] } ?? []),
        ]
        let t = list.totals
        let long = [(t.issues, "issues"), (t.events, "events"), (t.users, "users"), (t.complaints, "complaints")]
            .map { Format.grouped($0.0) + " " + $0.1 }.joined(separator: "  ")
        let shortParts = [(t.issues, "iss"), (t.events, "ev"), (t.users, "usr"), (t.complaints, "cmp")].map { Format.count($0.0) + " " + $0.1 }
        let name = TextSanitizer.sanitize(state.storeName, unicode: unicode)
        let base = name.split(separator: "/").last.map(String.init) ?? name
        // The fullest header that fits, in this order of giving way: the path to its file name, the
        // totals to their short form and then one by one from the last, the key hint, the name.
        var candidates: [(store: String, window: [Span], totals: String)] = [
            (name, windows[0], long), (base, windows[0], long), (name, windows[0], shortParts.joined(separator: " ")),
        ]
        for count in stride(from: 4, through: 0, by: -1) {
            candidates.append((base, windows[0], shortParts.prefix(count).joined(separator: " ")))
        }
        candidates += [(base, windows[1], ""), ("", windows[1], "")]
        var best: [Span] = []
        for c in candidates {
            let spans = (c.store.isEmpty ? [] : [Span(" " + c.store, .header)]) + flags + c.window
                + (c.totals.isEmpty ? [] : [Span(dot + c.totals, .header)])
            best = spans
            if cells(spans) <= width { break }
        }
        let left = width - cells(best) - 2
        if left >= 5, !t.series.isEmpty {
            best.append(Span("  ", .header))
            best.append(Span(Sparkline.line(t.series, width: min(left, 60), unicode: unicode), .sparkline))
        }
        return best
    }

    /// The rank mode, status filter and filter text.
    static func controlSpans(_ state: DashboardState) -> [Span] {
        var spans = [
            Span(" rank: ", .dim), Span(state.query.mode.rawValue, .ranked),
            Span("  status: ", .dim), Span(state.query.filter.label),
        ]
        if state.prompt?.error != nil {
            spans += [Span("  filter: ", .dim), Span("\"\(state.query.text)\""), Span("  not a query (below)", .error)]
        } else if !state.query.text.isEmpty || state.prompt?.purpose == .filter {
            spans += [Span("  filter: ", .dim), Span("\"\(state.query.text)\"")]
        }
        if let scope = state.query.scope { spans += [Span("  only: ", .dim), Span(scope.label)] }
        if let walk = state.meeting { spans += [Span("  meeting: ", .dim), Span(walk.progress + " (] resumes)")] }
        return spans
    }

    static func heading(_ kind: ListColumns.Kind, mode: RankMode, unicode: Bool) -> String {
        let mark = unicode ? "▼" : "v"
        switch kind {
        case .rank: return "#"
        case .badges: return ""
        case .key: return "KEY"
        case .title: return "TITLE"
        case .events: return (mode == .events ? mark : "") + "EVENTS"
        case .users: return (mode == .users ? mark : "") + "USERS"
        case .complaints: return (mode == .complaints ? mark : "") + "COMPL"
        case .trend: return "TREND"
        case .versions: return "VERSIONS"
        case .status: return "STATUS"
        case .assignee: return "ASSIGNEE"
        }
    }

    static func isNumeric(_ kind: ListColumns.Kind) -> Bool {
        kind == .rank || kind == .events || kind == .users || kind == .complaints
    }

    static func writeHeadings(_ columns: ListColumns, mode: RankMode, row: Int, unicode: Bool, into buffer: inout ScreenBuffer) {
        let ranked = ListColumns.kind(for: mode)
        for (column, x) in columns.positions {
            var text = heading(column.kind, mode: mode, unicode: unicode)
            if column.kind == .status, columns.shortStatus { text = "STAT" }
            if isNumeric(column.kind) { text = Format.right(text, column.width) }
            buffer.write(text, row: row, col: x, width: column.width, style: column.kind == ranked ? .ranked : .heading)
        }
    }

    static func writeRow(_ issue: IssueSummary, rank: Int, columns: ListColumns, mode: RankMode, row: Int, picked: Bool = false,
                         into buffer: inout ScreenBuffer) {
        let ranked = ListColumns.kind(for: mode)
        for (column, x) in columns.positions {
            let w = column.width
            switch column.kind {
            case .rank:
                // A row picked for a merge (`Space`) shows the mark in place of its rank.
                if picked {
                    buffer.write(Format.right(buffer.unicode ? "●" : "*", w), row: row, col: x, width: w, style: .flagged)
                } else {
                    buffer.write(Format.right(String(rank), w), row: row, col: x, width: w, style: .dim)
                }
            case .badges:
                var spans: [Span] = []
                for badge in Format.badges(of: issue) {
                    if !spans.isEmpty { spans.append(Span(" ")) }
                    spans.append(Span(columns.compactBadges ? Format.compactBadge(badge.text) : badge.text, badge.style))
                }
                buffer.write(spans, row: row, col: x, width: w)
            case .key:
                // Cut in the middle where the column is narrower (its outermost and root links kept).
                buffer.write(Format.fittedKey(issue.key, width: w, unicode: buffer.unicode), row: row, col: x, width: w)
            case .title:
                buffer.write(Format.fittedTitle(issue.chain, width: w, unicode: buffer.unicode), row: row, col: x, width: w)
            case .events, .users, .complaints:
                let value: Int = column.kind == .events ? issue.events : column.kind == .users ? issue.users : issue.complaints
                buffer.write(Format.right(Format.count(value), w), row: row, col: x, width: w,
                             style: column.kind == ranked ? .ranked : .normal)
            case .trend:
                buffer.write(Sparkline.line(issue.series, width: w, unicode: buffer.unicode), row: row, col: x, width: w,
                             style: .sparkline)
            case .versions:
                buffer.write(Format.versionRange(issue.firstVersion, issue.lastVersion, unicode: buffer.unicode),
                             row: row, col: x, width: w, style: .dim)
            case .status:
                let text = Format.status(issue.status, short: columns.shortStatus)
                buffer.write(text, row: row, col: x, width: w, style: Format.style(of: issue.status))
            case .assignee:
                buffer.write(issue.assignee ?? "", row: row, col: x, width: w, style: .dim)
            }
        }
    }

    /// `serve refused 12 requests in the minute to 14:32 (unauthorized 10, too_large 2)`, while a
    /// server on this store recorded refusals within the last five minutes of the list's end: the
    /// minute is named by its end, so the note stays true as time passes.
    static func intakeNote(_ state: DashboardState) -> String? {
        guard let list = state.list.loaded, let rejected = list.intakeRejections, rejected.total > 0,
              list.now.millis - rejected.at.millis < 5 * 60_000, rejected.at.millis <= list.now.millis + 60_000 else { return nil }
        let reasons = rejected.byReason.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "serve refused \(rejected.total) request\(rejected.total == 1 ? "" : "s") in the minute to \(rejected.at.minuteText) (\(reasons))"
    }
}
