import Presentation
import TriageModel

/// The issue detail screen (and the event screen under it): header, tab bar, a scrolling pane, status line.
enum IssueDetailView {
    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = DetailLayout(size: buffer.size)
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(headerSpans(state), row: layout.headerRow, col: 0)
        writeTabs(state, layout: layout, into: &buffer)

        let lines = bodyLines(state, size: buffer.size)
        let scroll = bodyScroll(state, size: buffer.size, lineCount: lines.count)
        let width = buffer.size.cols - 1
        for i in 0..<layout.bodyHeight where scroll + i < lines.count {
            let row = layout.bodyTop + i
            buffer.write(lines[scroll + i], row: row, col: 1, width: width)
            if state.screen == .detail, state.pane == .events, state.detail?.recentEvents.isEmpty == false,
               scroll + i == state.eventIndex + 1 {
                buffer.paint(row: row, col: 0, width: buffer.size.cols, style: .selected)
            }
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }

    /// Which issue and which pane, and the issue's status.
    static func headerSpans(_ state: DashboardState) -> [Span] {
        let key = state.detailKey ?? "?"
        let dot = state.unicode ? " · " : " | "
        var spans: [Span] = []
        if let walk = state.meeting, let item = walk.item, item.issue.key == key {
            let owner = state.meetingByOwner ? dot + (item.issue.owner.map { "owner " + TextSanitizer.sanitize($0, unicode: state.unicode) } ?? "no owner") : ""
            spans.append(Span(" \(walk.progress)\(dot)\(item.section.title)\(owner) ", .ranked))
        }
        spans.append(Span(" " + key, .header))
        if case .event(let index) = state.screen {
            let id = state.detail?.recentEvents[safe: index]?.eventID ?? "?"
            spans.append(Span(dot + "Event " + id, .header))
            return spans
        }
        spans.append(Span(dot + state.pane.title, .header))
        if let summary = state.detail?.summary ?? state.list?.issues.first(where: { $0.key == key }) {
            spans.append(Span(dot + summary.status.rawValue, .header))
            if let assignee = summary.assignee { spans.append(Span(dot + "@" + TextSanitizer.sanitize(assignee, unicode: state.unicode), .header)) }
            spans.append(Span(dot + Format.title(summary.chain, unicode: state.unicode), .header))
        }
        if state.readOnly { spans.append(Span(dot + "read-only", .header)) }
        if state.offline { spans.append(Span(dot + "offline", .header)) }
        return spans
    }

    static func writeTabs(_ state: DashboardState, layout: DetailLayout, into buffer: inout ScreenBuffer) {
        let (tabs, separator) = layout.tabs(unicode: buffer.unicode)
        for (i, tab) in tabs.enumerated() {
            if i > 0 { buffer.write(separator, row: layout.tabRow, col: tab.columns.lowerBound - separator.count, style: .dim) }
            buffer.write(tab.label, row: layout.tabRow, col: tab.columns.lowerBound, width: tab.columns.count,
                         style: tab.pane == state.pane ? .tabActive : .tab)
        }
    }

    /// The lines of the current pane or event at this size.
    static func bodyLines(_ state: DashboardState, size: Size) -> [[Span]] {
        let layout = DetailLayout(size: size)
        let width = max(1, size.cols - 2)
        guard let detail = state.detail, detail.summary.key == state.detailKey else {
            return [[Span(state.unicode ? "loading…" : "loading...", .dim)]]
        }
        if case .event(let index) = state.screen {
            guard let event = detail.recentEvents[safe: index] else { return [[Span("No such event.", .dim)]] }
            return EventDetailView.lines(event, width: width, unicode: state.unicode)
        }
        switch state.pane {
        case .chain: return ChainLadder.lines(detail, width: width, height: layout.bodyHeight, unicode: state.unicode)
        case .breakdowns: return BreakdownPane.lines(detail, width: width, unicode: state.unicode)
        case .events: return EventsPane.lines(detail, width: width, unicode: state.unicode)
        case .complaints: return ComplaintsPane.lines(detail, width: width, unicode: state.unicode)
        case .notes: return NotesPane.lines(detail, width: width, unicode: state.unicode)
        case .life: return LifePane.lines(detail, width: width, unicode: state.unicode)
        }
    }

    /// The first body line shown, clamped to the content; the Events pane keeps the selected event in view.
    static func bodyScroll(_ state: DashboardState, size: Size, lineCount: Int) -> Int {
        let height = DetailLayout(size: size).bodyHeight
        if case .event = state.screen { return Scrolling.clamp(state.eventScroll, visible: height, count: lineCount) }
        if state.pane == .events {
            return Scrolling.keep(state.eventIndex + 1, visible: height, scroll: state.paneScroll, count: lineCount)
        }
        return Scrolling.clamp(state.paneScroll, visible: height, count: lineCount)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
