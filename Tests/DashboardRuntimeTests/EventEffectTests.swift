import DashboardCore
import DashboardRuntime
import Foundation
import TestSupport
import Testing
import TriageModel

/// `loadEvent` against a real store: the kept payload read whole, the issue's kept events newest
/// first; an event the store does not keep whole comes back without a detail. And Enter on the
/// Events pane of the running dashboard shows the kept event.
@Suite struct EventEffectTests {
    static let key = "US14-LO43-AP7-NE8"
    static let lines = [
        TemporaryStore.event("a1", "2026-11-18T10:00:00Z", version: "1.2", user: "u1"),
        TemporaryStore.event("a2", "2026-11-19T10:00:00Z", version: "1.2", user: "u2"),
        TemporaryStore.event("a3", "2026-11-20T10:00:00Z", version: "1.4", user: "u1"),
    ]

    @Test func theEffectReadsTheKeptPayloadAndListsTheIssuesKeptEvents() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: Self.lines)
        let effects = StoreEffects(store: temporary.store, user: "tester")
        let now = Timestamp.parse("2026-11-20T18:00:00Z")!
        guard let whole = effects.perform(StoreRequest(EventScreen.Load(id: "a3", issueKey: Self.key)), now: now).answer(as: WholeEvent.self) else {
            Issue.record("no eventLoaded")
            return
        }
        #expect(whole.eventID == "a3")
        #expect(whole.detail?.eventID == "a3")
        #expect(whole.detail?.source == "native")
        #expect(whole.detail?.release == "1.4")
        #expect(whole.roles.contains("latest"))
        #expect(whole.kept.map(\.eventID) == ["a3", "a2", "a1"])

        guard let missing = effects.perform(StoreRequest(EventScreen.Load(id: "zz", issueKey: Self.key)), now: now).answer(as: WholeEvent.self) else {
            Issue.record("no eventLoaded")
            return
        }
        #expect(missing.detail == nil)
        #expect(missing.kept.count == 3)
    }

    @Test func enterOnTheEventsPaneShowsTheEventReadWhole() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: Self.lines)
        let wait: () -> TerminalEvent? = { Thread.sleep(forTimeInterval: 0.05); return nil }
        let screen = FakeScreen(size: Size(rows: 24, cols: 100),
                                steps: [wait, wait, { .key(.enter) }] + Array(repeating: wait, count: 20)
                                    + [{ .key(.char("3")) }, wait, { .key(.enter) }] + Array(repeating: wait, count: 10))
        let loop = DashboardLoop(screen: screen, effects: StoreEffects(store: temporary.store, user: "tester"),
                                 state: DashboardState(storeName: "test.sqlite"), now: Timestamp.parse("2026-11-20T18:00:00Z")!)
        loop.run()
        let text = screen.lastFrame
        #expect(text.contains("Event a3"), "\(text)")
        #expect(text.contains("Kept whole, 1 of 3 of the issue's"), "\(text)")
        #expect(text.contains("latest"), "\(text)")
        #expect(text.contains("Release               1.4"), "\(text)")
    }
}
