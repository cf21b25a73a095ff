import DashboardCore
import Foundation
@testable import DashboardRuntime
import TestSupport
import Testing
import TriageModel
import TriageStore

/// The loop's rules, on a fake screen and a real store: keys typed while the store works wait
/// for its answer, in order; a resize is drawn at once; frames go on while the store works; a
/// write by another process reloads the list; quitting lands every mark still on its way.
@Suite struct DashboardLoopTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!
    /// Five events from one user: first by events.
    static let busy = "US14-LO43-AP7-NE8"
    /// Three events from three users and a complaint: first by complaints and by users.
    static let cited = "IN500-TA202-TB30-HT400-NE29"

    let temporary: TemporaryStore

    init() throws {
        temporary = try TemporaryStore()
        var lines = (1...5).map { TemporaryStore.event("a\($0)", "2026-11-20T10:0\($0):00Z", codes: Self.busy, user: "u1") }
        lines += (1...3).map { TemporaryStore.event("b\($0)", "2026-11-20T11:0\($0):00Z", codes: Self.cited, user: "u\($0)") }
        lines.append(TemporaryStore.complaint("T-1", "2026-11-20T12:00:00Z", codes: [Self.cited]))
        try temporary.ingest(lines: lines)
    }

    func makeLoop(_ screen: FakeScreen, _ effects: HeldEffects) -> DashboardLoop<FakeScreen> {
        DashboardLoop(screen: screen, effects: effects, state: DashboardState(storeName: "test.sqlite", readOnly: false), now: Self.now)
    }

    func heldEffects(holding holds: @escaping @Sendable (StoreRequest) -> Bool = { _ in false }) -> HeldEffects {
        HeldEffects(StoreEffects(store: temporary.store, user: "tester"), holding: holds)
    }

    /// A step that gives the store a moment, so that the loop sees it idle on a later step (a
    /// step that comes while it works waits as typeahead, and the loop looks for writes only when idle).
    static func settle() { Thread.sleep(forTimeInterval: 0.05) }

    static func isList(_ effect: StoreRequest) -> Bool {
        effect.load is ListScreen.Load
    }

    @Test func keysTypedWhileTheListLoadsWaitForItAndRunInOrder() {
        let effects = heldEffects(holding: Self.isList)
        let screen = FakeScreen(steps: [
            { effects.waitUntilHeld(); return .key(.down) },  // to the second issue, once there is a list
            { .key(.enter) },  // and open it
            { effects.open(); return nil },
        ])
        let loop = makeLoop(screen, effects)
        loop.run()
        #expect(effects.performed == ["list by events", "detail \(Self.cited)"])
        #expect(loop.state.detail.key == Self.cited)
    }

    /// `r`, a version and Enter typed in one go with more after it: the prompt takes the version,
    /// and what came after its Enter is dropped, not run as keys (`s` would change the ranking).
    @Test func keysTypedPastAPromptsEnterAreDropped() {
        let effects = heldEffects()
        var screen: FakeScreen!
        screen = FakeScreen(steps: [
            {
                Self.settle()
                screen.typedAhead = (["r"] + Array("2.3.2") + ["\n"] + Array(" maybe s")).map { $0 == "\n" ? .key(.enter) : .key(.char($0)) }
                return nil
            },
            { Self.settle(); return nil },
            { Self.settle(); return nil },
        ])
        let loop = makeLoop(screen, effects)
        loop.run()
        #expect(loop.state.query.mode == .events, "a key typed past the prompt ran: \(loop.state.query.mode)")
        #expect(screen.discarded.count == " maybe s".count)
        #expect(effects.performed.filter { $0.hasPrefix("mark") } == ["mark \(Self.busy)"], "\(effects.performed)")
        #expect(screen.frames.contains { $0.lines.joined().contains("resolved in 2.3.2") }, "\(screen.lastFrame)")
    }

    @Test func framesGoOnWhileTheStoreWorks() {
        let effects = heldEffects(holding: Self.isList)
        let screen = FakeScreen(steps: [{ effects.waitUntilHeld(); return nil }, { nil }, { effects.open(); return nil }])
        makeLoop(screen, effects).run()
        let whileLoading = screen.frames.prefix(3).map { $0.lines.joined(separator: "\n") }
        #expect(whileLoading.count == 3)
        #expect(whileLoading.allSatisfy { $0.contains("loading") }, "\(whileLoading.last ?? "")")
    }

    /// A load that waits for another process writing the store says whom it waits for on the
    /// status line while it waits, and the screen goes on.
    @Test func aWaitForAnotherWriterIsSaidWhileTheStoreWorks() {
        let effects = heldEffects(holding: Self.isList)
        let said = WaitSaid("waiting for test.sqlite: errtriage retention prune (pid 4242) is writing it")
        let screen = FakeScreen(steps: [{ effects.waitUntilHeld(); return nil }, { nil }, { effects.open(); return nil }])
        DashboardLoop(screen: screen, effects: effects, state: DashboardState(storeName: "test.sqlite", readOnly: false), now: Self.now,
                      waits: { said.take() }).run()
        #expect(screen.frames.contains { $0.lines.joined().contains("errtriage retention prune (pid 4242) is writing it") },
                "\(screen.lastFrame)")
    }

    /// Says its text once.
    final class WaitSaid: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        init(_ text: String) { self.text = text }
        func take() -> String? { lock.lock(); defer { lock.unlock() }; defer { text = nil }; return text }
    }

    @Test func aResizeWhileTheListLoadsIsDrawnAtOnce() {
        let effects = heldEffects(holding: Self.isList)
        let screen = FakeScreen(steps: [])
        var drawnWhileLoading: Size?
        screen.steps = [
            { effects.waitUntilHeld(); return .resize(Size(rows: 30, cols: 120)) },
            { drawnWhileLoading = screen.frames.last?.size; effects.open(); return nil },
        ]
        makeLoop(screen, effects).run()
        #expect(drawnWhileLoading == Size(rows: 30, cols: 120))
    }

    @Test func quittingWaitsForTheMarkOnItsWayAndTheMarkLands() throws {
        let effects = heldEffects { $0.load is Marks.Mark }
        let screen = FakeScreen(steps: [
            { .key(.char("m")) },  // mute the top issue
            { effects.waitUntilHeld(); return .key(.char("q")) },
            { effects.open(); return nil },
        ])
        let loop = makeLoop(screen, effects)
        loop.run()
        #expect(effects.performed.contains("mark \(Self.busy)"))
        #expect(loop.state.marks.pending.isEmpty)
        #expect(try temporary.store.issueDetail(key: Self.busy, window: .all, now: Self.now).summary.status == .muted)
    }

    @Test func theDrainLandsEveryMarkInFlightAndSkipsTheLoadsTheirConfirmationsAskFor() throws {
        let effects = heldEffects()
        let loop = makeLoop(FakeScreen(steps: []), effects)
        for key in [Self.busy, Self.cited] {
            loop.worker.submit(StoreRequest(Marks.Mark(key: key, mark: .status(.resolved, version: nil))), now: Self.now)
        }
        loop.drain()
        #expect(effects.performed == ["mark \(Self.busy)", "mark \(Self.cited)"])
        #expect(!loop.worker.isBusy)
        for key in [Self.busy, Self.cited] {
            #expect(try temporary.store.issueDetail(key: key, window: .all, now: Self.now).summary.status == .resolved)
        }
    }

    @Test func aStoreThatStopsAnsweringKeepsTheScreenOfflineAndComingBackReloads() throws {
        let effects = heldEffects()
        let other = "DB3-SQ5"
        var offlineFrame = ""
        let screen = FakeScreen(steps: [
            { effects.waitUntilFinished(1); return nil },
            { effects.unreachable = true; return nil },
            { Self.settle(); return nil },
            { Self.settle(); return nil },
            { _ = recordingErrors { try temporary.ingest(lines: [TemporaryStore.event("c1", "2026-11-20T13:00:00Z", codes: other)]) }; return nil },
            { effects.unreachable = false; return nil },
            { Self.settle(); return nil },
            { Self.settle(); return nil },
        ])
        let loop = makeLoop(screen, effects)
        let observer = screen
        screen.steps.insert({ offlineFrame = observer.lastFrame; return nil }, at: 4)
        loop.run()
        #expect(offlineFrame.contains("[offline]"))
        #expect(offlineFrame.contains(Self.busy), "the last screen stays while offline")
        #expect(!loop.state.offline)
        #expect(!screen.lastFrame.contains("[offline]"))
        #expect(loop.state.list.loaded?.issues.contains { $0.key == other } == true)
    }

    @Test func aWriteByAnotherProcessReloadsTheList() throws {
        let effects = heldEffects()
        let other = "DB3-SQ5"
        let screen = FakeScreen(steps: [
            { effects.waitUntilFinished(1); return nil },
            { _ = recordingErrors { try temporary.ingest(lines: [TemporaryStore.event("c1", "2026-11-20T13:00:00Z", codes: other)]) }; return nil },
            { Self.settle(); return nil },
            { Self.settle(); return nil },
        ])
        let loop = makeLoop(screen, effects)
        loop.run()
        #expect(effects.performed.filter { $0.hasPrefix("list") }.count >= 2)
        #expect(loop.state.list.loaded?.issues.contains { $0.key == other } == true)
    }
}
