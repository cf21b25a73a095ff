import DashboardCore
import DashboardRuntime
import Foundation
import TestSupport
import Testing
import TriageModel

/// The checkout's lookups in the running loop: on a worker of their own, so that a slow git holds
/// no key; `e` runs the editor the environment names through the screen, with `+LINE FILE`.
@Suite struct CodeEffectTests {
    /// A Sentry event whose NetworkError was raised in billing/amounts.py:41, kept whole.
    static let event = #"{"event_id":"f1","timestamp":"2026-11-20T10:00:00Z","platform":"python","release":"shop@2.1.0","#
        + #""exception":{"values":[{"type":"NetworkError","value":"[8] timeout","stacktrace":{"frames":["#
        + #"{"filename":"billing/amounts.py","abs_path":"/srv/app/billing/amounts.py","function":"parse","lineno":41,"in_app":true}]}}]}}"#

    /// Answers after a pause, as a slow git would; records what it was asked.
    final class SlowCode: CodePerformer, @unchecked Sendable {
        let lock = NSLock()
        var asked: [CodeRequest] = []
        let seconds: Double

        init(seconds: Double) { self.seconds = seconds }

        func perform(_ request: CodeRequest) -> DashboardAction {
            lock.withLock { asked.append(request) }
            Thread.sleep(forTimeInterval: seconds)
            guard case .issue(let key, let raise, _) = request else { return .failed("unexpected") }
            return .codeLoaded(.issue(key: key, raise: raise, CodeFacts(checkout: "/src/my shop", sites: [
                CodeSite(path: "billing/amounts.py", absolutePath: "/src/my shop/billing/amounts.py", line: 41, owners: ["@ben"]),
            ])))
        }
    }

    func run(code: SlowCode, environment: [String: String], steps: [() -> TerminalEvent?]) throws -> (FakeScreen, DashboardLoop<FakeScreen>) {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [Self.event])
        let screen = FakeScreen(size: Size(rows: 24, cols: 100), steps: steps)
        let loop = DashboardLoop(screen: screen, effects: StoreEffects(store: temporary.store, user: "tester"),
                                 state: DashboardState(storeName: "test.sqlite"), now: Timestamp.parse("2026-11-20T18:00:00Z")!,
                                 code: code, environment: environment)
        loop.run()
        return (screen, loop)
    }

    static func wait() -> TerminalEvent? {
        Thread.sleep(forTimeInterval: 0.05)
        return nil
    }

    @Test func aSlowCheckoutHoldsNoKeyAndEOpensTheEditorAtTheLine() throws {
        let code = SlowCode(seconds: 1.5)
        var sawBreakdowns = false
        var screenRef: FakeScreen?
        let steps: [() -> TerminalEvent?] = [Self.wait, Self.wait, { .key(.enter) }] + Array(repeating: Self.wait, count: 6)
            // While the checkout is still read, the keys go on: the Breakdowns pane, then back.
            + [{ .key(.char("2")) }, Self.wait, Self.wait, { sawBreakdowns = screenRef?.lastFrame.contains("· Breakdowns") ?? false; return .key(.char("1")) }]
            + Array(repeating: Self.wait, count: 40) + [{ .key(.char("e")) }] + Array(repeating: Self.wait, count: 4)
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [Self.event])
        let screen = FakeScreen(size: Size(rows: 24, cols: 100), steps: steps)
        screenRef = screen
        let loop = DashboardLoop(screen: screen, effects: StoreEffects(store: temporary.store, user: "tester"),
                                 state: DashboardState(storeName: "test.sqlite"), now: Timestamp.parse("2026-11-20T18:00:00Z")!,
                                 code: code, environment: ["EDITOR": "nano", "VISUAL": "vim -p"])
        let started = Date()
        loop.run()
        #expect(sawBreakdowns, "the pane key waited for the checkout")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(code.asked.count == 1)
        guard case .issue(_, let raise, _)? = code.asked.first else { Issue.record("asked \(code.asked)"); return }
        #expect(raise.release == "shop@2.1.0" && raise.frames.first??.absPath == "/srv/app/billing/amounts.py")
        // $VISUAL before $EDITOR, its own arguments kept, the file with its space as one argument.
        #expect(screen.ran == [["vim", "-p", "+41", "/src/my shop/billing/amounts.py"]])
        #expect(screen.lastFrame.contains("@ben"), "\(screen.lastFrame)")
    }

    @Test func withoutAnEditorTheKeySaysWhy() throws {
        let code = SlowCode(seconds: 0)
        let steps: [() -> TerminalEvent?] = [Self.wait, Self.wait, { .key(.enter) }] + Array(repeating: Self.wait, count: 20)
            + [{ .key(.char("e")) }] + Array(repeating: Self.wait, count: 3)
        let (screen, _) = try run(code: code, environment: [:], steps: steps)
        #expect(screen.ran.isEmpty)
        #expect(screen.lastFrame.contains("No editor: set $VISUAL or $EDITOR"), "\(screen.lastFrame)")
    }
}
