import DashboardCore
import Testing
import TriageModel

/// Honest windows: a store whose data stopped days before the window's end says so in the header,
/// and `N` ends the windows at the newest event instead (as `demo` and `--now data` do).
@Suite struct DataEndTests {
    /// The clock four days after the fixture's last event.
    static let clock = Fixtures.now.adding(millis: 4 * 86_400_000 + 3_600_000)

    static func staleState(_ size: Size) -> DashboardState {
        var state = DashboardState(storeName: "/srv/exports/nightly/triage.sqlite", query: IssueQuery())
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(Fixtures.list(now: clock, latestEvent: Fixtures.now)))
        return state
    }

    @Test func theHeaderSaysWhenTheLastEventWasAndWhichKeyEndsTheWindowThere() {
        let state = Self.staleState(Size(rows: 24, cols: 80))
        let header = render(state, size: state.size).lines[0]
        #expect(header.contains("7d to 2026-10-08 23:30"))
        #expect(header.contains("last event 4d ago (N)"))
    }

    @Test func aWindowThatRunsToTheDataSaysNothing() {
        let state = Fixtures.loadedState()
        #expect(!render(state, size: state.size).lines[0].contains("last event"))
    }

    @Test func nAnchorsTheWindowsToTheLastEventAndReloadsThenBackToTheClock() {
        var state = Self.staleState(Size(rows: 24, cols: 80))
        #expect(state.windowEnd == nil)
        #expect(reduce(&state, .key(.char("N"))) == [.loadList(state.query)])
        #expect(state.windowEnd == Fixtures.now)
        #expect(state.message?.text.hasPrefix("Windows end at the last event, 2026-10-04 22:30") == true)
        _ = reduce(&state, .listLoaded(Fixtures.list(latestEvent: Fixtures.now)))
        let header = render(state, size: state.size).lines[0]
        #expect(header.contains("7d to 2026-10-04 22:30 (last event)"))
        #expect(!header.contains("ago"))
        _ = reduce(&state, .key(.char("N")))
        #expect(state.windowEnd == nil)
    }

    @Test func anchoredANewerEventReloadsTheListToEndThere() {
        var state = Self.staleState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .key(.char("N")))
        let later = Fixtures.now.adding(millis: 600_000)
        // A list counted to the old end comes back naming a newer event (an ingest meanwhile).
        #expect(reduce(&state, .listLoaded(Fixtures.list(latestEvent: later))) == [.loadList(state.query)])
        #expect(state.windowEnd == later)
        #expect(reduce(&state, .listLoaded(Fixtures.list(now: later, latestEvent: later))).isEmpty)
    }

    @Test func numbersInTheHeaderAreNeverCutTheyGiveWayWhole() {
        for cols in [60, 62, 64, 66, 70, 75, 80, 90, 100] {
            let state = Self.staleState(Size(rows: 24, cols: cols))
            let header = render(state, size: state.size).lines[0]
            #expect(!header.contains("…"), "at \(cols): \(header)")
            #expect(header.contains("last event 4d ago"), "at \(cols): \(header)")
        }
    }

    @Test func staleListAt60x15() {
        let size = Size(rows: 15, cols: 60)
        expectSnapshot(render(Self.staleState(size), size: size), "list-stale-60x15")
    }

    @Test func staleListAt80x24() {
        let size = Size(rows: 24, cols: 80)
        expectSnapshot(render(Self.staleState(size), size: size), "list-stale-80x24")
    }

    @Test func staleListAt200x60() {
        let size = Size(rows: 60, cols: 200)
        expectSnapshot(render(Self.staleState(size), size: size), "list-stale-200x60")
    }
}

/// One truncation rule: what identifies a row gives way last, and two issues never read the same.
@Suite struct TruncationTests {
    /// Two payment issues with the same outer and root links, as the sample's `os:17* has:complaints` shows them.
    static let twins: [IssueSummary] = [330, 331].map { code in
        Fixtures.issue(ErrorChain(links: [
            ChainLink(domain: "UserError", short: "US", code: 21, name: "paymentFailed"),
            ChainLink(domain: "InteractorError", short: "IN", code: code, name: "checkout\(code)"),
            ChainLink(domain: "NSURLErrorDomain", short: "NSn", code: 1001, name: "timedOut"),
        ]), .open, events: code == 330 ? 14 : 3, users: 3, complaints: 1, versions: ("1.12", "1.13"), series: [0, 1, 2, 3, 4, 2, 2])
    }

    static func state(_ size: Size) -> DashboardState {
        var state = Fixtures.loadedState(size, issues: twins + Fixtures.issues)
        _ = reduce(&state, .key(.down))
        return state
    }

    @Test func noTwoRowsReadTheSameAtAnySize() {
        for cols in [40, 60, 80, 100, 120, 200] {
            let size = Size(rows: 15, cols: cols)
            let rows = render(Self.state(size), size: size).lines[3..<10].map { String($0.dropFirst(4)) }
            #expect(Set(rows).count == rows.count, "at \(cols): \(rows)")
        }
    }

    @Test func unrankedCountsGiveWayBeforeATitleIsCut() {
        let size = Size(rows: 15, cols: 60)
        let lines = render(Fixtures.loadedState(size), size: size).lines
        #expect(lines[2].contains("TITLE") && !lines[2].contains("USERS"))
        #expect(lines.contains { $0.contains("connectionIssue … timeout") })
    }

    @Test func twinsAt60x15() {
        let size = Size(rows: 15, cols: 60)
        expectSnapshot(render(Self.state(size), size: size), "list-twins-60x15")
    }

    @Test func twinsAt80x24() {
        let size = Size(rows: 24, cols: 80)
        expectSnapshot(render(Self.state(size), size: size), "list-twins-80x24")
    }

    @Test func twinsAt200x60() {
        let size = Size(rows: 60, cols: 200)
        expectSnapshot(render(Self.state(size), size: size), "list-twins-200x60")
    }
}

/// The screens over the list say where the data stops too, and give way whole rather than cut a date.
@Suite struct OverListHeaderTests {
    @Test func thePivotsHeaderSaysWhenTheLastEventWasAndDropsTheStoreBeforeCuttingADate() {
        var state = DataEndTests.staleState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .key(.char("p")))
        let header = render(state, size: state.size).lines[0]
        #expect(header.contains("Pivot by root cause · 7d to 2026-10-08 23:30 · last event 4d ago"), "\(header)")
        let narrow = render(state, size: Size(rows: 12, cols: 40)).lines[0]
        #expect(narrow.contains("Pivot by root cause · 7d") && !narrow.contains("…"), "\(narrow)")
    }
}
