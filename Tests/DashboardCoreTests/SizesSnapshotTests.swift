import DashboardCore
import Testing
import TriageModel

/// Every screen issue 29 changed, at the small and the large size the team records (80×24 is in
/// the screens' own suites).
@Suite struct SizesSnapshotTests {
    static let sizes = [Size(rows: 15, cols: 60), Size(rows: 60, cols: 200)]

    static func name(_ screen: String, _ size: Size) -> String { "\(screen)-\(size.cols)x\(size.rows)" }

    @Test(arguments: sizes) func release(_ size: Size) {
        expectSnapshot(render(ReleaseReducerTests.releaseState(size), size: size), Self.name("release", size))
    }

    @Test(arguments: sizes) func pivot(_ size: Size) {
        expectSnapshot(render(PivotReducerTests.pivotState(size), size: size), Self.name("pivot-root", size))
    }

    @Test(arguments: sizes) func detailPanes(_ size: Size) {
        for pane in [DetailPane.chain, .complaints, .notes] {
            let state = Fixtures.detailState(size, pane: pane)
            expectSnapshot(render(state, size: size), Self.name("detail-\(pane.title.lowercased().prefix(5))", size))
        }
    }

    @Test(arguments: sizes) func meetingEnd(_ size: Size) {
        var state = MeetingReducerTests.meetingState(size)
        for _ in 0..<4 { _ = reduce(&state, .key(.char("]"))) }
        expectSnapshot(render(state, size: size), Self.name("meeting-end", size))
    }

    @Test(arguments: sizes) func badQuery(_ size: Size) {
        var state = Fixtures.loadedState(size)
        _ = reduce(&state, .key(.char("/")))
        for c in "oss:17" { _ = reduce(&state, .key(.char(c))) }
        expectSnapshot(render(state, size: size), Self.name("list-bad-query", size))
    }

    @Test(arguments: sizes) func undoSkipped(_ size: Size) {
        var state = Fixtures.detailState(size)
        let m = Fixtures.receipt(Fixtures.login.key, .status(.muted, version: nil))
        _ = reduce(&state, .marked(m))
        _ = reduce(&state, .key(.char("u")))
        _ = reduce(&state, .undoSkipped(m, "ben marked it open since"))
        expectSnapshot(render(state, size: size), Self.name("detail-undo-skipped", size))
    }
}
