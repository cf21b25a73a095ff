@testable import DashboardCore
import Testing
import TriageModel

/// The meeting: `M` builds the agenda, `]` and `[` walk it in the detail screen, the closing page ends it.
@Suite struct MeetingReducerTests {
    static let agenda = Agenda.build(from: Fixtures.issues, top: 2)
    static let unlinked = UnlinkedComplaints(groups: [
        .init(category: "slow loading", count: 5, samples: ["The task list takes forever to load"]),
        .init(category: "withdrawals", count: 2, samples: ["I cannot withdraw my money"]),
    ])

    /// The fixture list with the meeting started and its agenda loaded.
    static func meetingState(_ size: Size = Size(rows: 24, cols: 80)) -> DashboardState {
        var state = Fixtures.loadedState(size)
        _ = reduce(&state, .key(.char("M")))
        _ = reduce(&state, .agendaLoaded(agenda, unlinked: unlinked))
        return state
    }

    @Test func theAgendaPutsRegressedThenSpikesThenNewThenTheTops() {
        #expect(Self.agenda.items.map(\.section) == [.regressed, .spikes, .spikes, .new])
        #expect(Self.agenda.items.map(\.issue.key) == [Fixtures.sync.key, Fixtures.login.key, Fixtures.parse.key, Fixtures.offline.key])
    }

    @Test func mAsksForTheAgendaOfTheWindowAndRecordsTheMeetingOnce() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("M"))) == [.loadAgenda(window: .d7, top: 5, record: true)])
        _ = reduce(&state, .key(.char("w")))
        #expect(reduce(&state, .key(.char("M"))) == [.loadAgenda(window: .d30, top: 5, record: false)])
    }

    @Test func aReadOnlyStoreWalksTheAgendaWithoutRecordingIt() {
        var state = Fixtures.loadedState(readOnly: true)
        #expect(reduce(&state, .key(.char("M"))) == [.loadAgenda(window: .d7, top: 5, record: false)])
    }

    @Test func theMeetingCommandStartsOnTheAgenda() {
        var state = DashboardState(storeName: "s")
        state.meetingPlan.startsAtOnce = true
        state.meetingPlan.top = 3
        #expect(state.start() == [.loadList(IssueQuery()), .loadAgenda(window: .d7, top: 3, record: true)])
    }

    @Test func theLoadedAgendaOpensItsFirstItemInTheDetailScreen() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("M")))
        let effects = reduce(&state, .agendaLoaded(Self.agenda, unlinked: Self.unlinked))
        #expect(state.screen == .detail)
        #expect(state.detail.key == Fixtures.sync.key)
        #expect(state.list.selectedKey == Fixtures.sync.key)
        #expect(effects == [.loadDetail(key: Fixtures.sync.key, window: .d7)])
        #expect(state.meeting?.progress == "item 1 of 4")
    }

    @Test func bracketsWalkForwardAndBack() {
        var state = Self.meetingState()
        #expect(reduce(&state, .key(.char("]"))) == [.loadDetail(key: Fixtures.login.key, window: .d7)])
        #expect(state.meeting?.index == 1)
        _ = reduce(&state, .key(.char("]")))
        #expect(state.detail.key == Fixtures.parse.key)
        _ = reduce(&state, .key(.char("[")))
        #expect(state.detail.key == Fixtures.login.key)
        #expect(state.detail.pane == .chain)
    }

    @Test func backFromTheFirstItemStaysThereAndSaysSo() {
        var state = Self.meetingState()
        _ = reduce(&state, .key(.char("[")))
        #expect(state.meeting?.index == 0)
        #expect(state.detail.key == Fixtures.sync.key)
        #expect(state.message?.text == "This is the first item.")
    }

    @Test func pastTheLastItemComesTheClosingPageAndBackReturnsToTheLastItem() {
        var state = Self.meetingState()
        for _ in 0..<4 { _ = reduce(&state, .key(.char("]"))) }
        #expect(state.screen == .meetingEnd)
        #expect(state.meeting?.progress == "end of agenda (4 items)")
        _ = reduce(&state, .key(.char("]")))
        #expect(state.screen == .meetingEnd)
        #expect(reduce(&state, .key(.char("["))) == [.loadDetail(key: Fixtures.offline.key, window: .d7)])
        #expect(state.screen == .detail)
    }

    @Test func leavingForTheListKeepsThePlaceAndBracketResumesThere() {
        var state = Self.meetingState()
        _ = reduce(&state, .key(.char("]")))
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
        #expect(state.meeting?.index == 1)
        _ = reduce(&state, .key(.char("]")))
        #expect(state.screen == .detail)
        #expect(state.detail.key == Fixtures.login.key)
    }

    @Test func marksDuringTheMeetingApplyToTheItemShown() {
        var state = Self.meetingState()
        _ = reduce(&state, .detailLoaded(IssueDetail(summary: Fixtures.sync, window: .d7, now: Fixtures.now,
                                                     seriesStart: Fixtures.seriesStart, breakdowns: [], recentEvents: [],
                                                     complaints: [], notes: [], history: [], resolvedVersion: nil)))
        #expect(reduce(&state, .key(.char("m"))) == [.mark(key: Fixtures.sync.key, .status(.muted, version: nil))])
    }

    @Test func bracketsWithoutAMeetingSaySo() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("]"))).isEmpty)
        #expect(state.message?.text == "No meeting under way: M starts one.")
    }

    @Test func anEmptyAgendaGoesStraightToTheClosingPage() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("M")))
        #expect(reduce(&state, .agendaLoaded(Agenda(items: []), unlinked: Self.unlinked)).isEmpty)
        #expect(state.screen == .meetingEnd)
    }

    @Test func escOnTheClosingPageReturnsToTheList() {
        var state = Self.meetingState()
        for _ in 0..<4 { _ = reduce(&state, .key(.char("]"))) }
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
    }
}

/// `meeting --by-owner`: the dashboard walks the agenda owner by owner.
@Suite struct MeetingByOwnerTests {
    static func owned(_ issue: IssueSummary, _ owner: String?) -> IssueSummary {
        var copy = issue
        copy.owner = owner
        return copy
    }

    static let agenda = Agenda(items: [
        Agenda.Item(section: .regressed, issue: owned(Fixtures.sync, "sync")),
        Agenda.Item(section: .spikes, issue: owned(Fixtures.login, "backend")),
        Agenda.Item(section: .spikes, issue: owned(Fixtures.parse, nil)),
        Agenda.Item(section: .new, issue: owned(Fixtures.offline, "backend")),
    ])

    @Test func theWalkGoesOwnerByOwnerKeepingTheAgendasOrderWithinEach() {
        var state = Fixtures.loadedState()
        state.meetingPlan.byOwner = true
        _ = reduce(&state, .key(.char("M")))
        _ = reduce(&state, .agendaLoaded(Self.agenda, unlinked: UnlinkedComplaints(groups: [])))
        #expect(state.meeting?.agenda.items.map(\.issue.key) == [Fixtures.login.key, Fixtures.offline.key, Fixtures.sync.key, Fixtures.parse.key])
        #expect(state.detail.key == Fixtures.login.key)
    }

    @Test func theItemHeaderNamesTheOwner() {
        var state = Fixtures.loadedState()
        state.meetingPlan.byOwner = true
        _ = reduce(&state, .key(.char("M")))
        _ = reduce(&state, .agendaLoaded(Self.agenda, unlinked: UnlinkedComplaints(groups: [])))
        _ = reduce(&state, .detailLoaded(Fixtures.loginDetail))
        expectSnapshot(render(state, size: Size(rows: 24, cols: 80)), "meeting-item-by-owner-80x24")
    }
}
