@testable import DashboardCore
import Testing
import TriageModel

/// Where the selection goes when the list changes: to the top when the user asks for another list,
/// on the same issue when the list reloads by itself.
@Suite struct SelectionReducerTests {
    static let byComplaints = [Fixtures.sync, Fixtures.login, Fixtures.offline, Fixtures.parse, Fixtures.database]

    /// The fixture list with the cursor on the database issue, fourth by events and last by complaints.
    func stateOnDatabase() -> DashboardState {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("G")))
        _ = reduce(&state, .key(.up))
        #expect(state.list.selectedKey == Fixtures.database.key)
        return state
    }

    @Test func rankingByComplaintsThenEnterOpensTheTopIssueByComplaints() {
        var state = stateOnDatabase()
        _ = reduce(&state, .key(.char("s")))
        _ = reduce(&state, .listLoaded(Fixtures.list(Self.byComplaints, query: IssueQuery(mode: .complaints))))
        #expect(state.list.rows.selected == 0)
        #expect(reduce(&state, .key(.enter)) == [.loadDetail(key: Fixtures.sync.key, window: .d7)])
    }

    @Test func aListForTheOldRankArrivingLateDoesNotKeepTheCursorOffTheTop() {
        var state = stateOnDatabase()
        _ = reduce(&state, .key(.char("s")))
        _ = reduce(&state, .listLoaded(Fixtures.list(Fixtures.issues.reversed())))
        _ = reduce(&state, .listLoaded(Fixtures.list(Self.byComplaints, query: IssueQuery(mode: .complaints))))
        #expect(state.list.selectedKey == Fixtures.sync.key)
        #expect(state.list.rows.selected == 0)
    }

    @Test(arguments: ["w", "f"] as [Character])
    func changingTheWindowOrStatusFilterGoesToTheTop(key: Character) {
        var state = stateOnDatabase()
        _ = reduce(&state, .key(.char(key)))
        _ = reduce(&state, .listLoaded(Fixtures.list(Fixtures.issues, query: state.query)))
        #expect(state.list.rows.selected == 0)
        #expect(state.list.selectedKey == Fixtures.login.key)
        #expect(state.list.rows.scroll == 0)
    }

    @Test func typingAFilterGoesToTheTop() {
        var state = stateOnDatabase()
        _ = reduce(&state, .key(.char("/")))
        _ = reduce(&state, .key(.char("a")))
        _ = reduce(&state, .listLoaded(Fixtures.list([Fixtures.login, Fixtures.database], query: state.query)))
        #expect(state.list.selectedKey == Fixtures.login.key)
    }

    @Test func aLiveIngestKeepsTheCursorOnTheSameIssue() {
        var state = stateOnDatabase()
        _ = reduce(&state, .storeChanged)
        _ = reduce(&state, .listLoaded(Fixtures.list(Self.byComplaints)))
        #expect(state.list.selectedKey == Fixtures.database.key)
        #expect(state.list.rows.selected == 4)
    }

    @Test func aMarkKeepsTheCursorOnTheSameIssue() {
        var state = stateOnDatabase()
        let effects = reduce(&state, .key(.char("R")))
        #expect(effects == [.mark(key: Fixtures.database.key, .status(.regressed, version: nil))])
        let reload = reduce(&state, .marked(Fixtures.receipt(Fixtures.database.key, .status(.regressed, version: nil))))
        #expect(reload.contains(.loadList(IssueQuery())))
        _ = reduce(&state, .listLoaded(Fixtures.list([Fixtures.database, Fixtures.login, Fixtures.sync])))
        #expect(state.list.selectedKey == Fixtures.database.key)
        #expect(state.list.rows.selected == 0)
    }
}
