import TriageModel

/// A meeting walking its agenda one issue at a time.
public struct MeetingWalk: Hashable, Sendable {
    public var agenda: Agenda
    /// The complaints no code explains, shown after the last issue.
    public var unlinked: UnlinkedComplaints
    /// The window the agenda was built from.
    public var window: TimeWindow
    /// The item shown; `agenda.items.count` is the closing page.
    public var index: Int

    public init(agenda: Agenda, unlinked: UnlinkedComplaints, window: TimeWindow, index: Int = 0) {
        self.agenda = agenda
        self.unlinked = unlinked
        self.window = window
        self.index = index
    }

    /// The agenda item shown, nil on the closing page.
    public var item: Agenda.Item? { agenda.items[safe: index] }

    /// Where the walk stands, for headers: `item 4 of 23`, or `end of agenda`.
    public var progress: String {
        item == nil ? "end of agenda (\(agenda.items.count) items)" : "item \(index + 1) of \(agenda.items.count)"
    }
}

/// The meeting's keys: `M` starts it, `]` and `[` walk it (or, away from it, resume it).
public enum Meeting {
    /// `M`, on every screen but help.
    static let start = KeyBinding("M", [.char("M")], "start the meeting: the agenda of the window, item by item", hint: "meeting",
                                  .meeting) { state, _ in [state.startMeeting()] }

    /// `]` `[` where the walk is not shown: back to where it stands.
    static let resume = KeyBinding("] [", [.char("]"), .char("[")], "resume the meeting where it stands", hint: "resume meeting",
                                   .meeting, offered: { $0.meeting != nil }, step)

    /// `]` `[` on the item shown (or the closing page): the next or previous item.
    static let walk = KeyBinding("] [", [.char("]"), .char("[")], "next / previous agenda item", hint: "next/prev item", .meeting,
                                 offered: { $0.screen == .meetingEnd || ($0.detail.key != nil && $0.meeting?.item?.issue.key == $0.detail.key) },
                                 step)

    /// A step of the walk: the next or previous item from the one shown, else where the walk stands.
    @Sendable static func step(_ state: inout DashboardState, _ key: Key) -> [DashboardEffect] {
        guard let walk = state.meeting else {
            state.message = StatusMessage("No meeting under way: M starts one.")
            return []
        }
        let inDetail = (state.screen == .detail || state.screen == .event) && state.detail.key == walk.item?.issue.key
        guard state.screen == .meetingEnd || inDetail else { return state.goToItem(walk.index) }
        return state.goToItem(walk.index + (key == .char("]") ? 1 : -1))
    }
}

extension DashboardState {
    /// Asks for the agenda of the list's window; the first start of this run also records the meeting.
    mutating func startMeeting() -> DashboardEffect {
        let record = !readOnly && !meetingPlan.recorded
        meetingPlan.recorded = meetingPlan.recorded || record
        message = StatusMessage("Building the agenda…")
        return .loadAgenda(window: query.window, top: meetingPlan.top, record: record)
    }

    /// Starts walking a loaded agenda at its first item.
    mutating func agendaLoaded(_ agenda: Agenda, unlinked: UnlinkedComplaints) -> [DashboardEffect] {
        meeting = MeetingWalk(agenda: meetingPlan.byOwner ? agenda.orderedByOwner : agenda, unlinked: unlinked, window: query.window)
        message = StatusMessage("Meeting: \(agenda.items.count) issues on the agenda. ] next, [ previous.", ticksLeft: 12)
        return goToItem(0)
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
            meetingEnd = MeetingEndScreen()
            return []
        }
        let key = item.issue.key
        screens = [.list, .detail]
        if let i = list.loaded?.issues.firstIndex(where: { $0.key == key }) {
            list.rows.selected = i
            list.selectedKey = key
            ListScreen.settle(&self)
        }
        return DetailScreen.show(key, &self)
    }
}

/// How a meeting is run, as `errtriage meeting` asks.
public struct MeetingPlan: Hashable, Sendable {
    /// How many issues the agenda's top-by-complaints and top-by-events sections take.
    public var top = 5
    /// Whether `start` opens the meeting at once (`errtriage meeting`).
    public var startsAtOnce = false
    /// Whether the meeting walks its agenda owner by owner (`meeting --by-owner`).
    public var byOwner = false
    /// Whether this run recorded a meeting start already.
    var recorded = false

    public init(top: Int = 5, startsAtOnce: Bool = false, byOwner: Bool = false) {
        self.top = top
        self.startsAtOnce = startsAtOnce
        self.byOwner = byOwner
    }
}

/// What the meeting asks of the store, and how the answer lands.
extension Meeting {
    /// The meeting's agenda and the complaints no code explains; `record` also records that a
    /// meeting starts now (for `--since-meeting`).
    public struct Load: StoreLoad {
        public var window: TimeWindow
        public var top: Int
        public var record: Bool
        public func perform(_ context: StoreContext) throws -> Loaded {
            if record { try context.store.recordMeeting(at: context.now, by: context.user) }
            return Loaded(agenda: try context.store.agenda(window: window, now: context.now, top: top),
                          unlinked: try context.store.unlinkedComplaints(window: window, now: context.now, samples: 3))
        }
    }

    public struct Loaded: StoreAnswer {
        public var agenda: Agenda
        public var unlinked: UnlinkedComplaints
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { state.agendaLoaded(agenda, unlinked: unlinked) }
    }
}

extension DashboardEffect {
    /// The meeting's load.
    public static func loadAgenda(window: TimeWindow, top: Int, record: Bool) -> Self { .load(Meeting.Load(window: window, top: top, record: record)) }
}

extension DashboardAction {
    /// The meeting's answer.
    public static func agendaLoaded(_ agenda: Agenda, unlinked: UnlinkedComplaints) -> Self { .answer(Meeting.Loaded(agenda: agenda, unlinked: unlinked)) }
}
