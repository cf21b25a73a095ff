@testable import DashboardCore
import Testing
import TriageModel

/// The release screen: opening it, moving, opening an issue and coming back, the window, and its text.
@Suite struct ReleaseReducerTests {
    static func issue(_ chain: ErrorChain, users: Int, previous: Int, perMille: Double, before: Double) -> ReleaseIssue {
        ReleaseIssue(key: chain.shortKey, chain: chain, kind: nil, users: users, events: users + 3, previousUsers: previous,
                     previousEvents: previous + 1, perMille: perMille, previousPerMille: before, series: [0, 1, 3, 5, 8, 6, 4])
    }

    static let comparison = ReleaseComparison(
        version: "1.12", previous: "1.11", window: .d7, users: 12_400, previousUsers: 9_800, adoptionKnown: false,
        new: [issue(Fixtures.parseChain, users: 9, previous: 0, perMille: 0.7, before: 0)],
        worse: [issue(Fixtures.syncChain, users: 301, previous: 60, perMille: 24.3, before: 6.1)],
        better: [issue(Fixtures.databaseChain, users: 4, previous: 40, perMille: 0.3, before: 4.1)],
        gone: [issue(Fixtures.offlineChain, users: 0, previous: 31, perMille: 0, before: 3.2)])

    static func releaseState(_ size: Size = Size(rows: 24, cols: 80)) -> DashboardState {
        var state = Fixtures.loadedState(size)
        _ = reduce(&state, .key(.char("V")))
        _ = reduce(&state, .releaseLoaded(comparison, window: state.query.window))
        return state
    }

    @Test func vOpensTheReleaseScreenAndAsksForTheListsWindow() {
        var state = Fixtures.loadedState()
        let effects = reduce(&state, .key(.char("V")))
        #expect(state.screen == .release)
        #expect(effects == [.loadRelease(window: state.query.window)])
    }

    @Test func aComparisonForAnotherWindowIsIgnored() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("V")))
        _ = reduce(&state, .releaseLoaded(Self.comparison, window: .d90))
        #expect(state.release.comparison == nil)
    }

    @Test func enterOpensTheSelectedIssueAndEscapeComesBackToTheRelease() {
        var state = Self.releaseState()
        _ = reduce(&state, .key(.down))
        let effects = reduce(&state, .key(.enter))
        #expect(state.screen == .detail)
        #expect(state.detail.key == Fixtures.syncChain.shortKey)
        #expect(effects == [.loadDetail(key: Fixtures.syncChain.shortKey, window: state.query.window)])
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .release)
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
    }

    @Test func selectionStaysWithinTheIssues() {
        var state = Self.releaseState()
        for _ in 0..<10 { _ = reduce(&state, .key(.down)) }
        #expect(state.release.selectedIssue?.key == Fixtures.offlineChain.shortKey)
        _ = reduce(&state, .key(.home))
        #expect(state.release.rows.selected == 0)
    }

    @Test func wCyclesTheWindowAndReloads() {
        var state = Self.releaseState()
        let effects = reduce(&state, .key(.char("w")))
        #expect(state.release.window == .d30)
        #expect(state.release.comparison == nil)
        #expect(effects == [.loadRelease(window: .d30)])
    }

    @Test func anotherProcessesIngestReloadsTheReleaseKeepingTheSelection() {
        var state = Self.releaseState()
        _ = reduce(&state, .key(.down))
        let effects = reduce(&state, .storeChanged)
        #expect(effects.contains(.loadRelease(window: state.release.window)))
        _ = reduce(&state, .releaseLoaded(Self.comparison, window: state.release.window))
        #expect(state.release.selectedIssue?.key == Fixtures.syncChain.shortKey)
    }

    @Test func marksDoNothingOnTheReleaseScreen() {
        var state = Self.releaseState()
        #expect(reduce(&state, .key(.char("r"))).isEmpty)
        #expect(state.prompt == nil)
    }

    @Test func releaseAt80x24() {
        expectSnapshot(render(Self.releaseState(), size: Size(rows: 24, cols: 80)), "release-80x24")
    }

    @Test func releaseAt160x48() {
        let size = Size(rows: 48, cols: 160)
        expectSnapshot(render(Self.releaseState(size), size: size), "release-160x48")
    }

    @Test func releaseAt40x12InASCII() {
        let size = Size(rows: 12, cols: 40)
        var state = Self.releaseState(size)
        state.unicode = false
        expectSnapshot(render(state, size: size), "release-40x12-ascii")
    }

    @Test func aStoreWithoutVersionsSaysSo() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("V")))
        _ = reduce(&state, .releaseLoaded(nil, window: state.query.window))
        expectSnapshot(render(state, size: Size(rows: 24, cols: 80)), "release-no-versions")
    }
}
