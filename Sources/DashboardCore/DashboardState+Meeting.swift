import TriageModel

extension DashboardState {
    /// Asks for the agenda of the list's window; the first start of this run also records the meeting.
    mutating func startMeeting() -> DashboardEffect {
        let record = !readOnly && !meetingRecorded
        meetingRecorded = meetingRecorded || record
        message = StatusMessage("Building the agenda…")
        return .loadAgenda(window: query.window, top: meetingTop, record: record)
    }

    /// Starts walking a loaded agenda at its first item.
    mutating func agendaLoaded(_ agenda: Agenda, unlinked: UnlinkedComplaints) -> [DashboardEffect] {
        meeting = MeetingWalk(agenda: meetingByOwner ? agenda.orderedByOwner : agenda, unlinked: unlinked, window: query.window)
        message = StatusMessage("Meeting: \(agenda.items.count) issues on the agenda. ] next, [ previous.", ticksLeft: 12)
        return goToItem(0)
    }

    /// The meeting keys: `M` starts the meeting, `]` and `[` walk it. Nil when the key is not one.
    mutating func meetingKey(_ key: Key) -> [DashboardEffect]? {
        switch key {
        case .char("M"):
            return [startMeeting()]
        case .char("]"), .char("["):
            guard let walk = meeting else {
                message = StatusMessage("No meeting under way: M starts one.")
                return []
            }
            // From the list (or the pivot) the walk resumes where it stood.
            let inDetail: Bool
            switch screen {
            case .detail, .event: inDetail = detailKey == walk.item?.issue.key
            default: inDetail = false
            }
            let onWalk = screen == .meetingEnd || inDetail
            guard onWalk else { return goToItem(walk.index) }
            return goToItem(walk.index + (key == .char("]") ? 1 : -1))
        default:
            return nil
        }
    }

    /// Shows an agenda item in the detail screen, or the closing page after the last one.
    mutating func goToItem(_ index: Int) -> [DashboardEffect] {
        guard var walk = meeting else { return [] }
        let count = walk.agenda.items.count
        if index < 0 {
            message = StatusMessage("This is the first item.")
        }
        walk.index = max(0, min(index, count))
        meeting = walk
        guard let item = walk.item else {
            screens = [.list, .meetingEnd]
            walk.endScroll = 0
            meeting = walk
            return []
        }
        let key = item.issue.key
        screens = [.list, .detail]
        if detail?.summary.key != key { detail = nil }
        detailKey = key
        pane = .chain
        paneScroll = 0
        eventIndex = 0
        if let i = list?.issues.firstIndex(where: { $0.key == key }) {
            selectedIndex = i
            selectedKey = key
            listScroll = currentListScroll
        }
        return [.loadDetail(key: key, window: query.window)]
    }

    mutating func meetingEndKey(_ key: Key) -> [DashboardEffect] {
        if [.escape, .backspace, .char("q")].contains(key) {
            screens = [.list]
            return []
        }
        if let delta = scrollDelta(key, page: MeetingEndView.bodyHeight(size) - 1) { scrollMeetingEnd(by: delta) }
        return []
    }

    mutating func scrollMeetingEnd(by delta: Int) {
        guard var walk = meeting else { return }
        walk.endScroll = walk.endScroll.addingClamped(delta)
        meeting = walk
        settleScrolling()
    }
}
