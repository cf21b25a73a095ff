import DashboardCore
import Testing
import TriageModel

/// Whole screens as text, compared with the recorded files in Snapshots/.
@Suite struct ScreenSnapshotTests {
    static let small = Size(rows: 12, cols: 40)
    static let standard = Size(rows: 24, cols: 80)
    static let large = Size(rows: 48, cols: 160)

    @Test func listAt80x24() {
        expectSnapshot(render(Fixtures.loadedState(Self.standard), size: Self.standard), "list-80x24")
    }

    @Test func listAt80x24InASCII() {
        expectSnapshot(render(Fixtures.loadedState(Self.standard, unicode: false), size: Self.standard), "list-80x24-ascii")
    }

    @Test func listAt160x48() {
        expectSnapshot(render(Fixtures.loadedState(Self.large), size: Self.large), "list-160x48")
    }

    @Test func listAt40x12() {
        expectSnapshot(render(Fixtures.loadedState(Self.small), size: Self.small), "list-40x12")
    }

    @Test func listRankedByComplaintsWithFilter() {
        var state = Fixtures.loadedState(Self.standard)
        state.query.mode = .complaints
        state.query.text = "NE"
        expectSnapshot(render(state, size: Self.standard), "list-complaints-filter-80x24")
    }

    @Test func aBadQueryInTheFilterShowsItsErrorAboveTheKeptList() {
        var state = Fixtures.loadedState(Self.standard)
        _ = reduce(&state, .key(.char("/")))
        for c in "colour:red" { _ = reduce(&state, .key(.char(c))) }
        expectSnapshot(render(state, size: Self.standard), "list-bad-query-80x24")
    }

    @Test func emptyStoreShowsHowToGetData() {
        var state = Fixtures.loadedState(Self.standard)
        _ = reduce(&state, .listLoaded(Fixtures.list([], storeEvents: 0)))
        expectSnapshot(render(state, size: Self.standard), "list-empty-store")
    }

    @Test func filterMatchingNothingSaysSo() {
        var state = Fixtures.loadedState(Self.standard)
        state.query.text = "zzz"
        _ = reduce(&state, .listLoaded(Fixtures.list([], query: state.query)))
        expectSnapshot(render(state, size: Self.standard), "list-no-match")
    }

    @Test func resolvePromptInStatusLine() {
        var state = Fixtures.loadedState(Self.standard)
        _ = reduce(&state, .key(.char("r")))
        expectSnapshot(render(state, size: Self.standard), "list-resolve-prompt")
    }

    @Test func chainPaneAt80x24() {
        expectSnapshot(render(Fixtures.detailState(Self.standard), size: Self.standard), "detail-chain-80x24")
    }

    @Test func chainPaneAt80x24InASCII() {
        expectSnapshot(render(Fixtures.detailState(Self.standard, unicode: false), size: Self.standard), "detail-chain-80x24-ascii")
    }

    @Test func chainPaneAt160x48() {
        expectSnapshot(render(Fixtures.detailState(Self.large), size: Self.large), "detail-chain-160x48")
    }

    @Test func chainPaneAt40x12() {
        expectSnapshot(render(Fixtures.detailState(Self.small), size: Self.small), "detail-chain-40x12")
    }

    @Test func breakdownsPaneAt80x24() {
        expectSnapshot(render(Fixtures.detailState(Self.standard, pane: .breakdowns), size: Self.standard), "detail-breakdowns-80x24")
    }

    @Test func breakdownsPaneAt80x24InASCII() {
        let state = Fixtures.detailState(Self.standard, unicode: false, pane: .breakdowns)
        expectSnapshot(render(state, size: Self.standard), "detail-breakdowns-80x24-ascii")
    }

    @Test func breakdownsPaneAt160x48() {
        expectSnapshot(render(Fixtures.detailState(Self.large, pane: .breakdowns), size: Self.large), "detail-breakdowns-160x48")
    }

    @Test func eventsPaneAt80x24() {
        expectSnapshot(render(Fixtures.detailState(Self.standard, pane: .events), size: Self.standard), "detail-events-80x24")
    }

    /// A backend's events (no device, OS or network): those columns are left out and the user and
    /// the message take their room, at 80 columns and at 160.
    @Test func aBackendsEventsPaneLeavesOutTheColumnsNoEventFills() {
        for size in [Self.standard, Self.large] {
            var state = Fixtures.detailState(size, pane: .events)
            state.detail.loaded?.recentEvents = Fixtures.backendEvents
            expectSnapshot(render(state, size: size), "detail-events-backend-\(size.cols)x\(size.rows)")
        }
    }

    @Test func eventsPaneAt160x48() {
        expectSnapshot(render(Fixtures.detailState(Self.large, pane: .events), size: Self.large), "detail-events-160x48")
    }

    @Test func eventFieldsAt80x24() {
        var state = Fixtures.detailState(Self.standard, pane: .events)
        _ = reduce(&state, .key(.enter))
        expectSnapshot(render(state, size: Self.standard), "detail-event-fields-80x24")
    }

    @Test func complaintsPaneAt80x24() {
        expectSnapshot(render(Fixtures.detailState(Self.standard, pane: .complaints), size: Self.standard), "detail-complaints-80x24")
    }

    @Test func notesPaneAt80x24() {
        expectSnapshot(render(Fixtures.detailState(Self.standard, pane: .notes), size: Self.standard), "detail-notes-80x24")
    }

    /// Month by month since first seen: quiet months folded, status changes and merges under their
    /// month, a month with a mark and no events, and where the raw events stop.
    @Test func lifePaneAt80x24() {
        expectSnapshot(render(Fixtures.lifeState(Self.standard), size: Self.standard), "detail-life-80x24")
    }

    @Test func lifePaneAt160x48() {
        expectSnapshot(render(Fixtures.lifeState(Self.large), size: Self.large), "detail-life-160x48")
    }

    @Test func lifePaneAt80x24InASCII() {
        expectSnapshot(render(Fixtures.lifeState(Self.standard, unicode: false), size: Self.standard),
                       "detail-life-80x24-ascii")
    }

    @Test func helpAt80x24() {
        var state = Fixtures.loadedState(Self.standard)
        _ = reduce(&state, .key(.char("?")))
        expectSnapshot(render(state, size: Self.standard), "help-80x24")
    }

    @Test func helpAt160x48InASCII() {
        var state = Fixtures.loadedState(Self.large, unicode: false)
        _ = reduce(&state, .key(.char("?")))
        expectSnapshot(render(state, size: Self.large), "help-160x48-ascii")
    }

    @Test func tooSmallShowsOneLine() {
        let size = Size(rows: 11, cols: 39)
        expectSnapshot(render(Fixtures.loadedState(size), size: size), "too-small-39x11")
    }

    @Test func pivotByRootCauseAt80x24() {
        expectSnapshot(render(PivotReducerTests.pivotState(Self.standard), size: Self.standard), "pivot-root-80x24")
    }

    @Test func pivotByUserFacingErrorAt160x48ShowsRootCauses() {
        expectSnapshot(render(PivotReducerTests.pivotState(Self.large, layer: .outer), size: Self.large), "pivot-outer-160x48")
    }

    @Test func pivotAt40x12() {
        expectSnapshot(render(PivotReducerTests.pivotState(Self.small), size: Self.small), "pivot-40x12")
    }

    @Test func listNarrowedToAPivotGroup() {
        var state = PivotReducerTests.pivotState(Self.standard)
        _ = reduce(&state, .key(.enter))
        let keys = state.query.scope?.keys ?? []
        _ = reduce(&state, .listLoaded(Fixtures.list(Fixtures.issues.filter { keys.contains($0.key) }, query: state.query)))
        expectSnapshot(render(state, size: Self.standard), "list-pivot-scope-80x24")
    }

    @Test func meetingItemHeaderShowsProgressAndSection() {
        var state = MeetingReducerTests.meetingState(Self.standard)
        _ = reduce(&state, .key(.char("]")))
        _ = reduce(&state, .detailLoaded(Fixtures.loginDetail))
        expectSnapshot(render(state, size: Self.standard), "meeting-item-80x24")
    }

    @Test func meetingClosingPageListsComplaintsWithoutACode() {
        var state = MeetingReducerTests.meetingState(Self.standard)
        for _ in 0..<4 { _ = reduce(&state, .key(.char("]"))) }
        expectSnapshot(render(state, size: Self.standard), "meeting-end-80x24")
    }

    @Test func meetingClosingPageAt40x12() {
        var state = MeetingReducerTests.meetingState(Self.small)
        for _ in 0..<4 { _ = reduce(&state, .key(.char("]"))) }
        expectSnapshot(render(state, size: Self.small), "meeting-end-40x12")
    }
}
