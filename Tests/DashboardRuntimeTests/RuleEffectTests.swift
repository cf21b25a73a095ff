import DashboardCore
import DashboardRuntime
import Foundation
import TestSupport
import Testing
import TriageModel

/// `Space` `J` in the running dashboard on a real store: the picked issues are merged, and the rule
/// the prompt offers, made with `Enter`, takes the next coupon at ingest.
@Suite struct RuleEffectTests {
    static func coupon(_ id: String, _ code: String, wrapper: Int) -> String {
        let links: [[String: Any]] = [
            ["domain": "CheckoutError", "short": "CH", "code": 3, "name": "applyCouponFailed"],
            ["domain": "*fmt.wrapError", "short": "WR", "code": wrapper, "name": "load coupon \(code): not found"],
            ["domain": "*errors.errorString", "short": "ES", "code": 1, "name": "not found"],
        ]
        let event: [String: Any] = ["event_id": id, "timestamp": "2026-11-20T10:00:00Z", "chain": links]
        return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func jMergesThePickedAndEnterMakesTheOfferedRule() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [Self.coupon("a", "SAVE10", wrapper: 51_601), Self.coupon("b", "SAVE10b", wrapper: 51_601),
                                     Self.coupon("c", "XMAS24", wrapper: 51_687)])
        let effects = StoreEffects(store: temporary.store, user: "tester", ticketFolder: temporary.folder.path)
        let wait: () -> TerminalEvent? = { Thread.sleep(forTimeInterval: 0.3); return nil }
        let screen = FakeScreen(steps: [wait, { .key(.char(" ")) }, { .key(.down) }, { .key(.char("J")) }, wait, wait, wait,
                                        { .key(.enter) }, wait, wait, wait])
        let loop = DashboardLoop(screen: screen, effects: effects, state: DashboardState(storeName: "test.sqlite"),
                                 now: Timestamp.parse("2026-11-20T18:00:00Z")!)
        loop.run()
        #expect(try temporary.store.groupHead(of: "CH3-WR51687-ES1") == "CH3-WR51601-ES1")
        let rules = try temporary.store.groupingRules()
        #expect(rules.map(\.name) == ["ch3-es1"])
        #expect(rules.first?.headKey == "CH3-WR51601-ES1")
        #expect(rules.first?.query == #"key:CH3-* root:ES1 message:"load coupon *: not found""#)
        try temporary.ingest(lines: [Self.coupon("d", "SPRING", wrapper: 40_001)])
        #expect(try temporary.store.groupHead(of: "CH3-WR40001-ES1") == "CH3-WR51601-ES1")
    }

    /// `u` after `J` (the rule offered left with `Esc`): the merge is taken back in the store, and
    /// the list read again shows both issues.
    @Test func uTakesTheMergeBack() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [Self.coupon("a", "SAVE10", wrapper: 51_601), Self.coupon("c", "XMAS24", wrapper: 51_687)])
        let effects = StoreEffects(store: temporary.store, user: "tester", ticketFolder: temporary.folder.path)
        let wait: () -> TerminalEvent? = { Thread.sleep(forTimeInterval: 0.3); return nil }
        // Waits (up to 10 s) for the store to say the member's head is `head`, then for the answer to reach the screen.
        func until(_ head: String) -> () -> TerminalEvent? {
            {
                for _ in 0..<100 where (try? temporary.store.groupHead(of: "CH3-WR51687-ES1")) != head { Thread.sleep(forTimeInterval: 0.1) }
                Thread.sleep(forTimeInterval: 0.6)
                return nil
            }
        }
        var merged: String?
        let screen = FakeScreen(steps: [wait, { .key(.char(" ")) }, { .key(.down) }, { .key(.char("J")) }, until("CH3-WR51601-ES1"),
                                        { merged = try? temporary.store.groupHead(of: "CH3-WR51687-ES1"); return .key(.escape) },
                                        wait, wait, { .key(.char("u")) }, until("CH3-WR51687-ES1"), wait, wait])
        let loop = DashboardLoop(screen: screen, effects: effects, state: DashboardState(storeName: "test.sqlite"),
                                 now: Timestamp.parse("2026-11-20T18:00:00Z")!)
        loop.run()
        #expect(merged == "CH3-WR51601-ES1")
        #expect(try temporary.store.groupHead(of: "CH3-WR51687-ES1") == "CH3-WR51687-ES1")
        #expect(try temporary.store.groupingRules().isEmpty)
        let last = screen.frames.last?.lines ?? []
        #expect(last.contains { $0.contains("CH3-WR51687-ES1") } && last.contains { $0.contains("CH3-WR51601-ES1") })
        #expect(screen.frames.contains { $0.lines.contains { $0.contains("Undid: the merge into CH3-WR51601-ES1") } })
    }
}
