import TriageModel

extension DashboardState {
    /// Handles a mouse report, hit-testing with the same layout the views draw with.
    mutating func mouse(_ event: MouseEvent) -> [DashboardEffect] {
        guard prompt == nil, size.fitsDashboard else { return [] }
        let wheel = event.kind == .wheelUp ? -3 : event.kind == .wheelDown ? 3 : 0
        switch screen {
        case .list:
            if wheel != 0 {
                select(selectedIndex + wheel)
                return []
            }
            let layout = ListLayout(size: size)
            guard let count = list?.issues.count,
                  let index = layout.issueIndex(atRow: event.row, scroll: currentListScroll, count: count) else { return [] }
            select(index)
            return event.kind == .doubleClick ? openDetail() : []
        case .detail:
            if wheel != 0 {
                scrollPane(by: wheel)
                return []
            }
            let layout = DetailLayout(size: size)
            if event.row == layout.tabRow {
                if let pane = layout.pane(atCol: event.col, unicode: unicode) { showPane(pane) }
                return []
            }
            if pane == .events, event.row >= layout.bodyTop, event.row < layout.bodyTop + layout.bodyHeight {
                let lines = IssueDetailView.bodyLines(self, size: size)
                let line = IssueDetailView.bodyScroll(self, size: size, lineCount: lines.count) + event.row - layout.bodyTop
                if let events = detail?.recentEvents, events.indices.contains(line - 1) {
                    eventIndex = line - 1
                    settleScrolling()
                    if event.kind == .doubleClick { openEvent() }
                }
            }
            return []
        case .event:
            scrollEvent(by: wheel)
            return []
        case .help:
            scrollHelp(by: wheel)
            return []
        case .pivot:
            let count = pivot.groups?.count ?? 0
            if wheel != 0 {
                selectGroup(pivot.selected + wheel, count: count)
                return []
            }
            guard let index = ListLayout(size: size).issueIndex(atRow: event.row, scroll: pivot.scroll, count: count) else { return [] }
            selectGroup(index, count: count)
            return event.kind == .doubleClick ? narrowList() : []
        case .meetingEnd:
            scrollMeetingEnd(by: wheel)
            return []
        case .release:
            let count = release.comparison?.all.count ?? 0
            if wheel != 0 { selectReleaseIssue(release.selected + wheel, count: count) }
            return []
        case .views:
            let count = savedViews.views?.count ?? 0
            if wheel != 0 {
                selectView(savedViews.selected + wheel)
                return []
            }
            guard let index = ListLayout(size: size).issueIndex(atRow: event.row, scroll: savedViews.scroll, count: count) else { return [] }
            selectView(index)
            return event.kind == .doubleClick ? openSelectedView() : []
        }
    }
}
