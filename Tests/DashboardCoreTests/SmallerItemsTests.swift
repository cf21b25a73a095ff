import DashboardCore
import Testing
import TriageModel

/// The smaller items of issue 29: checked input, views that follow the store, the complaints
/// outside the window named, copyable text whole.
@Suite struct SmallerItemsTests {
    @Test func aFixVersionThatIsNotAVersionIsRefusedAndThePromptStays() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        _ = reduce(&state, .key(.ctrl("u")))
        for c in "not a version!!" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt?.error?.contains("is not a version") == true)
        #expect(state.list.selectedIssue?.status == .open)
        _ = reduce(&state, .key(.ctrl("u")))
        for c in "1.14" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)) == [.mark(key: Fixtures.login.key, .status(.resolved, version: "1.14"))])
    }

    @Test func aTrackerLinkThatIsNotALinkIsRefused() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("t")))
        _ = reduce(&state, .key(.ctrl("u")))
        for c in "not a url" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt?.error?.contains("is not a link") == true)
        let screen = render(state, size: state.size).lines
        #expect(screen.dropLast().suffix(3).joined().contains("is not a link"), "the reason is above the prompt")
    }

    @Test func aViewWithoutARankingOpensRankedByEvents() {
        var state = Fixtures.loadedState()
        state.query.mode = .complaints
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded(ViewsReducerTests.views))
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.enter))
        #expect(state.query.mode == .events)
    }

    @Test func theViewsScreenFollowsTheStoreAndCtrlLReadsItAgain() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .viewsLoaded(ViewsReducerTests.views))
        #expect(reduce(&state, .storeChanged).contains(.loadViews))
        #expect(reduce(&state, .key(.ctrl("l"))).contains(.loadViews))
    }

    @Test func viewsInColumnsAt60x15And200x60() {
        for size in [Size(rows: 15, cols: 60), Size(rows: 60, cols: 200)] {
            var state = Fixtures.loadedState(size)
            _ = reduce(&state, .key(.char("v")))
            _ = reduce(&state, .viewsLoaded(ViewsReducerTests.views))
            expectSnapshot(render(state, size: size), "views-\(size.cols)x\(size.rows)")
        }
    }

    @Test func theComplaintsPaneSaysWhichComplaintsAreBeforeTheWindow() {
        var detail = Fixtures.loginDetail
        detail.window = .h24
        var state = Fixtures.detailState(pane: .complaints)
        _ = reduce(&state, .detailLoaded(detail))
        let text = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(text.contains("1 in the last 24h"), "\(text)")
        #expect(text.contains("Before the last 24h: not counted in the window"))
    }

    @Test func theClosingPageKeepsTheMinutesCommandWholeAt60Columns() {
        var state = Fixtures.loadedState(Size(rows: 15, cols: 60))
        _ = reduce(&state, .agendaLoaded(Agenda(items: []), unlinked: UnlinkedComplaints(groups: [])))
        _ = reduce(&state, .key(.char("]")))
        let text = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(text.contains("errtriage report --since-meeting --format markdown"), "\(text)")
    }
}
