import DashboardCore
import Testing
import TriageModel

/// `v`: the saved views screen, and opening a view on the list.
@Suite struct ViewsReducerTests {
    static let views = [
        SavedView(name: "backend-ios17", query: "domain:TolokaBackendError os:17* has:complaints", mode: .complaints, window: .d30),
        SavedView(name: "crashes", query: "kind:crash"),
    ]

    @Test func vOpensTheViewsScreenAndLoadsThem() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("v"))) == [.loadViews])
        #expect(state.screen == .views)
        _ = reduce(&state, .viewsLoaded(Self.views))
        #expect(state.views.views == Self.views)
    }

    @Test func enterOpensTheSelectedViewWithItsRankingAndWindow() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded(Self.views))
        let effects = reduce(&state, .key(.enter))
        let expected = IssueQuery(window: .d30, mode: .complaints, text: "domain:TolokaBackendError os:17* has:complaints")
        #expect(effects == [.loadList(expected)])
        #expect(state.screen == .list)
        #expect(state.query == expected)
    }

    @Test func aViewWithoutSettingsKeepsTheCurrentOnes() {
        var state = Fixtures.loadedState()
        state.query.window = .h24
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded(Self.views))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.enter))
        #expect(state.query == IssueQuery(window: .h24, text: "kind:crash"))
    }

    @Test func escapeGoesBackWithoutChangingTheList() {
        var state = Fixtures.loadedState()
        let before = state.query
        _ = reduce(&state, .key(.char("v")))
        #expect(reduce(&state, .key(.escape)).isEmpty)
        #expect(state.screen == .list && state.query == before)
    }

    @Test func viewsScreenAt80x24() {
        var state = Fixtures.loadedState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded(Self.views))
        expectSnapshot(render(state, size: state.size), "views-80x24")
    }

    @Test func noViewsSaysHowToSaveOne() {
        var state = Fixtures.loadedState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded([]))
        expectSnapshot(render(state, size: state.size), "views-none-80x24")
    }
}
