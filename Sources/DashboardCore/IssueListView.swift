import Presentation
import TriageModel

/// The first screen: totals, then one ranked row per issue.
enum IssueListView {
    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let width = buffer.size.cols
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(headerSpans(state, width: width), row: layout.headerRow, col: 0)
        buffer.write(controlSpans(state), row: layout.controlsRow, col: 0)

        guard let list = state.list else {
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
            if layout.visibleIssues > 1 { buffer.write(hint, row: layout.firstIssueRow + 1, col: 1, style: .dim) }
            return
        }

        let columns = ListColumns.fitted(list.issues, mode: state.query.mode, width: width, unicode: buffer.unicode)
        writeHeadings(columns, mode: state.query.mode, row: layout.columnsRow, unicode: buffer.unicode, into: &buffer)
        let scroll = Scrolling.keep(state.selectedIndex, visible: layout.visibleIssues, scroll: state.listScroll,
                                    count: list.issues.count)
        for line in 0..<layout.visibleIssues {
            let index = scroll + line
            guard index < list.issues.count else { break }
            let row = layout.firstIssueRow + line
            writeRow(list.issues[index], rank: index + 1, columns: columns, mode: state.query.mode, row: row, into: &buffer)
            if index == state.selectedIndex { buffer.paint(row: row, col: 0, width: width, style: .selected) }
        }
    }

    /// Store, window and now, totals, and the sparkline of every event in the window.
    static func headerSpans(_ state: DashboardState, width: Int) -> [Span] {
        var spans = [Span(" \(state.storeName)", .header)]
        if state.readOnly { spans.append(Span(" [read-only]", .header)) }
        if state.offline { spans.append(Span(" [offline]", .header)) }
        guard let list = state.list else { return spans }
        let dot = state.unicode ? " · " : " | "
        spans.append(Span(dot + "\(list.query.window.rawValue) to \(list.now.minuteText)", .header))
        let t = list.totals
        let long = dot + "\(Format.grouped(t.issues)) issues  \(Format.grouped(t.events)) events  "
            + "\(Format.grouped(t.users)) users  \(Format.grouped(t.complaints)) complaints"
        let short = dot + "\(Format.count(t.issues)) iss \(Format.count(t.events)) ev "
            + "\(Format.count(t.users)) usr \(Format.count(t.complaints)) cmp"
        let used = spans.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: state.unicode) }
        let totals = used + long.count + 10 <= width ? long : short
        spans.append(Span(totals, .header))
        let left = width - used - totals.count - 2
        if left >= 5, !t.series.isEmpty {
            spans.append(Span("  ", .header))
            spans.append(Span(Sparkline.line(t.series, width: min(left, 60), unicode: state.unicode), .sparkline))
        }
        return spans
    }

    /// The rank mode, status filter and filter text.
    static func controlSpans(_ state: DashboardState) -> [Span] {
        var spans = [
            Span(" rank: ", .dim), Span(state.query.mode.rawValue, .ranked),
            Span("  status: ", .dim), Span(state.query.filter.label),
        ]
        if let error = state.prompt?.error {
            spans += [Span("  ", .dim), Span(error, .error)]
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

    static func writeRow(_ issue: IssueSummary, rank: Int, columns: ListColumns, mode: RankMode, row: Int,
                         into buffer: inout ScreenBuffer) {
        let ranked = ListColumns.kind(for: mode)
        for (column, x) in columns.positions {
            let w = column.width
            switch column.kind {
            case .rank:
                buffer.write(Format.right(String(rank), w), row: row, col: x, width: w, style: .dim)
            case .badges:
                var spans: [Span] = []
                for badge in Format.badges(of: issue) {
                    if !spans.isEmpty { spans.append(Span(" ")) }
                    spans.append(Span(columns.compactBadges ? Format.compactBadge(badge.text) : badge.text, badge.style))
                }
                buffer.write(spans, row: row, col: x, width: w)
            case .key:
                buffer.write(columns.compactKeys ? Format.compactKey(issue.key, unicode: buffer.unicode) : issue.key,
                             row: row, col: x, width: w)
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
}
