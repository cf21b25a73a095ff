import DashboardCore
import DashboardRuntime
import Foundation
import TestSupport
import Testing
import TriageModel

/// `6` on an issue in the running dashboard: its life month by month, read from the store with the detail.
@Suite struct LifePaneEffectTests {
    @Test func sixShowsTheIssuesMonthsAndTheMarksInThem() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [
            TemporaryStore.event("a1", "2026-09-03T10:00:00Z", codes: "US14-LO43-AP7-NE8", version: "1.2", user: "u1"),
            TemporaryStore.event("a2", "2026-09-04T10:00:00Z", codes: "US14-LO43-AP7-NE8", version: "1.2", user: "u2"),
            TemporaryStore.event("a3", "2026-11-20T10:00:00Z", codes: "US14-LO43-AP7-NE8", version: "1.4", user: "u1"),
        ])
        _ = try temporary.store.mark("US14-LO43-AP7-NE8", .status(.resolved, version: "1.3"), by: "anna",
                                     at: Timestamp.parse("2026-09-10T09:00:00Z")!)
        let wait: () -> TerminalEvent? = { Thread.sleep(forTimeInterval: 0.05); return nil }
        let screen = FakeScreen(size: Size(rows: 24, cols: 100),
                                steps: [wait, wait, { .key(.enter) }] + Array(repeating: wait, count: 20)
                                    + [{ .key(.char("6")) }] + Array(repeating: wait, count: 5))
        let loop = DashboardLoop(screen: screen, effects: StoreEffects(store: temporary.store, user: "tester"),
                                 state: DashboardState(storeName: "test.sqlite"), now: Timestamp.parse("2026-11-20T18:00:00Z")!)
        loop.run()
        let text = screen.lastFrame
        #expect(text.contains(" Life "), "\(text)")
        #expect(text.contains("First seen 2026-09-03 10:00 UTC"), "\(text)")
        #expect(text.contains(#/2026-09\s+2\s+2\s+0  1\.2/#), "\(text)")
        #expect(text.contains("2026-10: no events or complaints"), "\(text)")
        #expect(text.contains(#/2026-11\s+1\s+1\s+0  1\.4/#), "\(text)")
        #expect(text.contains("open → resolved in 1.3  by anna"), "\(text)")
    }
}
