import TriageModel

extension DashboardState {
    /// Handles a key press on whatever is on screen.
    mutating func press(_ key: Key) -> [DashboardEffect] {
        if key == .ctrl("c") { return [.quit] }
        if prompt != nil { return promptKey(key) }
        message = nil
        guard KeyBinding.applies(key, on: screen.place) else {
            if let name = key.name { message = StatusMessage(notHere(name, key), isError: true) }
            return []
        }
        // Ctrl-L repaints, and reads again what is on screen (as after another process's write).
        if key == .ctrl("l") { return [.redraw] + reloadEffects() }
        if key == .char("?"), screen != .help {
            screens.append(.help)
            helpScroll = 0
            return []
        }
        if key == .char("N"), screen != .help { return toggleDataAnchor() }
        if key == .char("T"), screen.takesMarks, let issue = markTarget {
            return [.writeTicket(key: issue.key, window: query.window)]
        }
        if screen.takesMarks, let effects = markKey(key) { return effects }
        if screen != .help, let effects = meetingKey(key) { return effects }
        switch screen {
        case .list: return listKey(key)
        case .detail: return detailKey(key)
        case .event: return eventKey(key)
        case .help: return helpKey(key)
        case .pivot: return pivotKey(key)
        case .meetingEnd: return meetingEndKey(key)
        case .release: return releaseKey(key)
        case .views: return viewsKey(key)
        }
    }

    /// `x does nothing on the release screen (it works on the list); ? lists this screen's keys.`
    func notHere(_ name: String, _ key: Key) -> String {
        let elsewhere = KeyBinding.home(of: key).map { " (it works on the \($0.name) screen)" } ?? ""
        return "\(name) does nothing on the \(screen.place.name) screen\(elsewhere); ? lists this screen's keys."
    }

    /// `N`: windows end at the store's newest event (as `demo` and `--now data` do), or at the clock again.
    mutating func toggleDataAnchor() -> [DashboardEffect] {
        guard let end = dataEnd else {
            message = StatusMessage("N: no event in the store yet to end the windows at.", isError: true)
            return []
        }
        anchoredToData.toggle()
        message = StatusMessage(anchoredToData ? "Windows end at the last event, \(end.minuteText); N: at the clock again."
                                               : "Windows end at the clock again; N: at the last event.")
        return reloadEffects()
    }

    mutating func listKey(_ key: Key) -> [DashboardEffect] {
        let count = list?.issues.count ?? 0
        let page = max(1, ListLayout(size: size).visibleIssues)
        switch key {
        case .up, .char("k"): select(selectedIndex - 1)
        case .down, .char("j"): select(selectedIndex + 1)
        case .pageUp: select(selectedIndex - page)
        case .pageDown: select(selectedIndex + page)
        case .home, .char("g"): select(0)
        case .end, .char("G"): select(count - 1)
        case .enter: return openDetail()
        case .escape, .backspace:
            if !query.text.isEmpty { return changeQuery { $0.text = "" } }
            // A list narrowed from the pivot goes back to the pivot it came from.
            if query.scope != nil {
                screens = [.list, .pivot]
                return changeQuery { $0.scope = nil }
            }
        case .char("p"): return openPivot()
        case .char("V"): return openRelease()
        case .char("v"): return openViews()
        case .char("q"): return [.quit]
        case .char("s"): return changeQuery { $0.mode = $0.mode.cycled() }
        case .char("w"): return changeQuery { $0.window = $0.window.cycled() }
        case .char("f"): return changeQuery { $0.filter = $0.filter.cycled() }
        case .char("/"): prompt = Prompt(purpose: .filter, text: query.text)
        default: break
        }
        return []
    }

    mutating func detailKey(_ key: Key) -> [DashboardEffect] {
        let page = max(1, DetailLayout(size: size).bodyHeight - 1)
        if case .char(let c) = key, let numbered = DetailPane(digit: c) {
            showPane(numbered)
            return []
        }
        switch key {
        case .escape, .backspace, .char("q"): closeDetail()
        case .tab, .right: showPane(pane.next)
        case .backTab, .left: showPane(pane.previous)
        case .up, .char("k"): scrollPane(by: -1)
        case .down, .char("j"): scrollPane(by: 1)
        case .pageUp: scrollPane(by: -page)
        case .pageDown: scrollPane(by: page)
        case .home, .char("g"): scrollPane(by: Int.min / 2)
        case .end, .char("G"): scrollPane(by: Int.max / 2)
        case .enter: openEvent()
        case .char("w"): return changeQuery { $0.window = $0.window.cycled() }
        default: break
        }
        return []
    }

    mutating func eventKey(_ key: Key) -> [DashboardEffect] {
        let height = DetailLayout(size: size).bodyHeight
        if [.escape, .backspace, .char("q")].contains(key) {
            screens.removeLast()
            return []
        }
        if let delta = scrollDelta(key, page: height - 1) { scrollEvent(by: delta) }
        return []
    }

    mutating func scrollEvent(by delta: Int) {
        let count = IssueDetailView.bodyLines(self, size: size).count
        eventScroll = Scrolling.clamp(eventScroll.addingClamped(delta), visible: DetailLayout(size: size).bodyHeight, count: count)
    }

    mutating func helpKey(_ key: Key) -> [DashboardEffect] {
        let height = HelpView.bodyHeight(size)
        if [.escape, .backspace, .char("q"), .char("?")].contains(key) {
            screens.removeLast()
            return []
        }
        if let delta = scrollDelta(key, page: height - 1) { scrollHelp(by: delta) }
        return []
    }

    mutating func scrollHelp(by delta: Int) {
        helpScroll = Scrolling.clamp(helpScroll.addingClamped(delta), visible: HelpView.bodyHeight(size),
                                     count: HelpView.lines(for: helpPlace, unicode: unicode, width: size.cols - 1).count)
    }

    /// How far a scrolling key moves: a line, a page, or to either end.
    func scrollDelta(_ key: Key, page: Int) -> Int? {
        switch key {
        case .up, .char("k"): -1
        case .down, .char("j"): 1
        case .pageUp: -max(1, page)
        case .pageDown: max(1, page)
        case .home, .char("g"): Int.min / 2
        case .end, .char("G"): Int.max / 2
        default: nil
        }
    }

    /// Selects a list row, clamped to the list.
    mutating func select(_ index: Int) {
        let count = list?.issues.count ?? 0
        selectedIndex = index.clampedRow(count: count)
        selectedKey = list?.issues[safe: selectedIndex]?.key
        listScroll = currentListScroll
    }

    /// Changes the query and reloads what it affects. A list the user re-ranked, re-windowed or re-filtered
    /// starts at its top row: the selection follows the key only when the list reloads by itself.
    mutating func changeQuery(_ change: (inout IssueQuery) -> Void) -> [DashboardEffect] {
        let window = query.window
        change(&query)
        selectedKey = nil
        selectedIndex = 0
        listScroll = 0
        loading = true
        var effects: [DashboardEffect] = [.loadList(query)]
        if query.window != window, let key = detailKey { effects.append(.loadDetail(key: key, window: query.window)) }
        if screens.contains(.pivot) {
            pivot.groups = nil
            effects.append(.loadPivot(query, pivot.layer))
        }
        return effects
    }

    mutating func openDetail() -> [DashboardEffect] {
        guard let issue = selectedIssue else { return [] }
        screens.append(.detail)
        return showDetail(issue.key)
    }

    /// Points the detail screen at an issue, at its first pane, and loads it.
    mutating func showDetail(_ key: String) -> [DashboardEffect] {
        if detail?.summary.key != key { detail = nil }
        detailKey = key
        pane = .chain
        paneScroll = 0
        eventIndex = 0
        return [.loadDetail(key: key, window: query.window)]
    }

    mutating func closeDetail() {
        screens = screens.starts(with: [.list, .release]) ? [.list, .release] : [.list]
        detail = nil
        detailKey = nil
        pane = .chain
        paneScroll = 0
    }

    mutating func showPane(_ newPane: DetailPane) {
        guard newPane != pane else { return }
        pane = newPane
        paneScroll = 0
        settleScrolling()
    }

    /// Scrolls the pane, or in the Events pane moves the selected event.
    mutating func scrollPane(by delta: Int) {
        if pane == .events {
            let count = detail?.recentEvents.count ?? 0
            eventIndex = eventIndex.addingClamped(delta).clampedRow(count: count)
        } else {
            paneScroll = paneScroll.addingClamped(delta)
        }
        settleScrolling()
    }

    mutating func openEvent() {
        guard pane == .events, let events = detail?.recentEvents, events.indices.contains(eventIndex) else { return }
        screens.append(.event(index: eventIndex))
        eventScroll = 0
    }
}

extension Int {
    /// Addition that saturates instead of trapping.
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// This row index kept within `count` rows (0 when there are none).
    func clampedRow(count: Int) -> Int { Swift.max(0, Swift.min(self, count - 1)) }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
    /// The next case, wrapping around.
    func cycled() -> Self {
        let all = Self.allCases
        let i = all.firstIndex(of: self) ?? 0
        return all[(i + 1) % all.count]
    }
}
