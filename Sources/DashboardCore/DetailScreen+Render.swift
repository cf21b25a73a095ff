import Presentation
import TriageModel

/// How the detail draws: a header, the tab bar, the pane scrolled, and the status line. The event
/// screen draws the same header and tab bar.
extension DetailScreen {
    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = DetailLayout(size: buffer.size)
        renderChrome(state, event: nil, into: &buffer)
        let lines = paneLines(state, size: buffer.size)
        let scroll = shownScroll(state, size: buffer.size, lineCount: lines.count)
        let width = buffer.size.cols - 1
        for i in 0..<layout.bodyHeight where scroll + i < lines.count {
            let row = layout.bodyTop + i
            buffer.write(lines[scroll + i], row: row, col: 1, width: width)
            if state.detail.pane == .events, state.detail.loaded?.recentEvents.isEmpty == false, scroll + i == state.detail.selectedEvent + 1 {
                buffer.paint(row: row, col: 0, width: buffer.size.cols, style: .selected)
            } else if lines[scroll + i].first?.style == .selected {
                buffer.paint(row: row, col: 0, width: buffer.size.cols, style: .selected)
            }
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }

    /// The header (which issue, which pane or event, its status) and the tab bar.
    static func renderChrome(_ state: DashboardState, event: String?, into buffer: inout ScreenBuffer) {
        let layout = DetailLayout(size: buffer.size)
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(headerSpans(state, event: event), row: layout.headerRow, col: 0)
        let (tabs, separator) = layout.tabs(unicode: buffer.unicode)
        for (i, tab) in tabs.enumerated() {
            if i > 0 { buffer.write(separator, row: layout.tabRow, col: tab.columns.lowerBound - separator.count, style: .dim) }
            buffer.write(tab.label, row: layout.tabRow, col: tab.columns.lowerBound, width: tab.columns.count,
                         style: tab.pane == state.detail.pane ? .tabActive : .tab)
        }
    }

    /// Which issue and which pane (or event: its ID), and the issue's status.
    static func headerSpans(_ state: DashboardState, event: String?) -> [Span] {
        let key = state.detail.key ?? "?"
        let dot = state.unicode ? " · " : " | "
        var spans: [Span] = []
        if let walk = state.meeting, let item = walk.item, item.issue.key == key {
            var owner = state.meetingPlan.byOwner ? dot + (item.issue.owner.map { "owner " + TextSanitizer.sanitize($0, unicode: state.unicode) } ?? "no owner") : ""
            // An item nobody owns yet: the owners CODEOWNERS gives where it was raised, as the agenda suggests them.
            if item.issue.owner == nil, let suggested = state.detail.code?.suggestedOwners, !suggested.isEmpty {
                owner += dot + "CODEOWNERS " + TextSanitizer.sanitize(suggested.joined(separator: " "), unicode: state.unicode)
            }
            spans.append(Span(" \(walk.progress)\(dot)\(item.section.title)\(owner) ", .ranked))
        }
        spans.append(Span(" " + key, .header))
        if let event {
            spans.append(Span(dot + "Event " + event, .header))
            return spans
        }
        spans.append(Span(dot + state.detail.pane.title, .header))
        if let summary = state.detail.loaded?.summary ?? state.list.loaded?.issues.first(where: { $0.key == key }) {
            spans.append(Span(dot + summary.status.rawValue, .header))
            if let assignee = summary.assignee { spans.append(Span(dot + "@" + TextSanitizer.sanitize(assignee, unicode: state.unicode), .header)) }
            spans.append(Span(dot + Format.title(summary.chain, unicode: state.unicode), .header))
        }
        if state.readOnly { spans.append(Span(dot + "read-only", .header)) }
        if state.offline { spans.append(Span(dot + "offline", .header)) }
        return spans
    }

    /// The lines of the pane shown, at a size.
    static func paneLines(_ state: DashboardState, size: Size) -> [[Span]] {
        let width = max(1, size.cols - 2)
        guard let detail = state.detail.loaded, detail.summary.key == state.detail.key else {
            return [[Span(state.unicode ? "loading…" : "loading...", .dim)]]
        }
        switch state.detail.pane {
        case .chain:
            return ChainLadder.lines(detail, width: width, height: DetailLayout(size: size).bodyHeight, unicode: state.unicode,
                                     code: state.detail.code, codeAsked: state.detail.codeFor != nil, selected: CodeKeys.site(state))
        case .breakdowns: return BreakdownPane.lines(detail, width: width, unicode: state.unicode)
        case .events: return EventsPane.lines(detail, width: width, unicode: state.unicode)
        case .complaints: return ComplaintsPane.lines(detail, width: width, unicode: state.unicode)
        case .notes: return NotesPane.lines(detail, width: width, unicode: state.unicode)
        case .life: return LifePane.lines(detail, width: width, unicode: state.unicode)
        }
    }

    /// The first pane line shown, clamped to the content; the Events pane keeps the selected event in view.
    static func shownScroll(_ state: DashboardState, size: Size, lineCount: Int) -> Int {
        let height = DetailLayout(size: size).bodyHeight
        if state.detail.pane == .events {
            return Scrolling.keep(state.detail.selectedEvent + 1, visible: height, scroll: state.detail.scroll, count: lineCount)
        }
        return Scrolling.clamp(state.detail.scroll, visible: height, count: lineCount)
    }
}
