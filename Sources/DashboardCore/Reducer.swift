import TriageModel

/// Applies one action to the state and returns the effects the program must perform: the only way state changes.
public func reduce(_ state: inout DashboardState, _ action: DashboardAction) -> [DashboardEffect] {
    switch action {
    case .key(let key):
        return state.press(key)
    case .mouse(let event):
        return state.mouse(event)
    case .resize(let size):
        state.size = size
        state.settleScrolling()
        return []
    case .listLoaded(let list):
        state.listLoaded(list)
        // Anchored to the data, a list counted to an older end (new events came in) is asked again.
        if state.anchoredToData, let end = list.latestEvent, end != list.now, list.query == state.query {
            return state.reloadEffects()
        }
        return []
    case .detailLoaded(let detail):
        guard detail.summary.key == state.detailKey else { return [] }
        state.detail = detail
        state.eventIndex = max(0, min(state.eventIndex, detail.recentEvents.count - 1))
        state.settleScrolling()
        return []
    case .pivotLoaded(let layer, let query, let groups, let unknownDomain):
        state.pivotLoaded(layer: layer, query: query, groups: groups, unknownDomain: unknownDomain)
        return []
    case .releaseLoaded(let comparison, let window):
        state.releaseLoaded(comparison, window: window)
        return []
    case .agendaLoaded(let agenda, let unlinked):
        return state.agendaLoaded(agenda, unlinked: unlinked)
    case .ticketWritten(_, let path, let text):
        state.message = StatusMessage("Ticket: \(path) (copied where the terminal allows)", ticksLeft: 15)
        return [.copy(text)]
    case .viewsLoaded(let views):
        state.viewsLoaded(views)
        return []
    case .marked(let receipt):
        return state.confirmMark(receipt)
    case .undone(let receipt):
        return state.confirmUndo(receipt)
    case .undoSkipped(let receipt, let why):
        return state.skipUndo(receipt, because: why)
    case .failed(let text):
        state.fail(text)
        return []
    case .storeChanged:
        return state.reloadEffects()
    case .connection(let offline):
        guard offline != state.offline else { return [] }
        state.offline = offline
        return offline ? [] : state.reloadEffects()
    case .tick:
        if var message = state.message {
            message.ticksLeft -= 1
            state.message = message.ticksLeft > 0 ? message : nil
        }
        return []
    }
}

extension DashboardState {
    /// Takes a loaded list, keeping the selection on the same issue when it is still there.
    /// After a change of query (no selected key) the selection is the top row, and a list loaded for
    /// the query before the change does not pick the key for the one asked for.
    mutating func listLoaded(_ newList: IssueList) {
        list = newList
        loading = false
        if let end = newList.latestEvent { dataEnd = end }
        let current = newList.query == query
        if let key = selectedKey, let index = newList.issues.firstIndex(where: { $0.key == key }) {
            selectedIndex = index
        } else {
            selectedIndex = max(0, min(selectedIndex, newList.issues.count - 1))
            if current || selectedKey != nil { selectedKey = newList.issues[safe: selectedIndex]?.key }
        }
        settleScrolling()
    }

    /// Loads again what is on screen: the list, and the open detail.
    mutating func reloadEffects() -> [DashboardEffect] {
        loading = true
        var effects: [DashboardEffect] = [.loadList(query)]
        if let key = detailKey { effects.append(.loadDetail(key: key, window: query.window)) }
        if screens.contains(.pivot) { effects.append(.loadPivot(query, pivot.layer)) }
        if screens.contains(.release) { effects.append(.loadRelease(window: release.window)) }
        if screens.contains(.views) { effects.append(.loadViews) }
        return effects
    }

    /// Scroll offsets as the views will draw them at the current size.
    mutating func settleScrolling() {
        listScroll = currentListScroll
        let lines = IssueDetailView.bodyLines(self, size: size).count
        let height = DetailLayout(size: size).bodyHeight
        if pane == .events {
            paneScroll = Scrolling.keep(eventIndex + 1, visible: height, scroll: paneScroll, count: lines)
        } else if screen == .detail {
            paneScroll = Scrolling.clamp(paneScroll, visible: height, count: lines)
        }
        if case .event = screen { eventScroll = Scrolling.clamp(eventScroll, visible: height, count: lines) }
        pivot.scroll = Scrolling.keep(pivot.selected, visible: PivotView.visibleRows(size), scroll: pivot.scroll,
                                      count: pivot.groups?.count ?? 0)
        release.scroll = ReleaseView.scroll(self)
        if var walk = meeting {
            walk.endScroll = Scrolling.clamp(walk.endScroll, visible: MeetingEndView.bodyHeight(size),
                                             count: MeetingEndView.lines(walk, unicode: unicode).count)
            meeting = walk
        }
        helpScroll = Scrolling.clamp(helpScroll, visible: HelpView.bodyHeight(size), count: HelpView.lines(for: helpPlace, unicode: unicode, width: size.cols - 1).count)
    }

    /// The first list row the view shows.
    var currentListScroll: Int {
        Scrolling.keep(selectedIndex, visible: ListLayout(size: size).visibleIssues, scroll: listScroll,
                       count: list?.issues.count ?? 0)
    }
}
