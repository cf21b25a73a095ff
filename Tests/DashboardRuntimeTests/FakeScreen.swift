import DashboardCore
import DashboardRuntime
import Foundation
import TriageModel

/// A screen for the loop in tests: each wait for input runs the next scripted step (which may
/// act on the test's effects first), and every frame drawn is kept. When the script is over it
/// presses Ctrl-C, so that every run ends.
final class FakeScreen: DashboardScreen {
    var size: Size
    let unicode = true
    let color = false
    /// Every frame drawn, in order.
    private(set) var frames: [ScreenBuffer] = []
    /// What each wait for input does, in order.
    var steps: [() -> TerminalEvent?]

    init(size: Size = Size(rows: 24, cols: 100), steps: [() -> TerminalEvent?]) {
        self.size = size
        self.steps = steps
    }

    /// Keys typed ahead: in the terminal's buffer, read before the next step, dropped by `discardTypeahead`.
    var typedAhead: [TerminalEvent] = []
    /// The keys `discardTypeahead` dropped, in order.
    private(set) var discarded: [TerminalEvent] = []

    func discardTypeahead() {
        discarded += typedAhead
        typedAhead = []
    }

    func nextEvent(timeoutMillis: Int32) -> TerminalEvent? {
        if !typedAhead.isEmpty { return typedAhead.removeFirst() }
        guard !steps.isEmpty else { return .key(.ctrl("c")) }
        let event = steps.removeFirst()()
        if case .resize(let newSize) = event { size = newSize }
        return event
    }

    func draw(_ buffer: ScreenBuffer) { frames.append(buffer) }

    func forceRedraw() {}

    /// What the loop put on the clipboard, in order.
    private(set) var copied: [String] = []

    func copyToClipboard(_ text: String) { copied.append(text) }

    /// The last frame, as text.
    var lastFrame: String { frames.last?.lines.joined(separator: "\n") ?? "" }

    /// The programs run with the terminal (`e`'s editor), in order, and what each run answers.
    private(set) var ran: [[String]] = []
    var runAnswer: String?

    func runWithTerminal(_ arguments: [String]) -> String? {
        ran.append(arguments)
        return runAnswer
    }
}

/// The store's effects, recorded in order, with the first effect a test picks held until it opens the gate.
final class HeldEffects: EffectPerformer, @unchecked Sendable {
    private let inner: StoreEffects
    private let lock = NSLock()
    private var log: [StoreRequest] = []
    private var holding = false
    private var held = false
    private var finished = 0
    private let gate = DispatchSemaphore(value: 0)
    private let holds: @Sendable (StoreRequest) -> Bool

    /// Holds the first effect `holds` picks (none by default).
    init(_ inner: StoreEffects, holding holds: @escaping @Sendable (StoreRequest) -> Bool = { _ in false }) {
        self.inner = inner
        self.holds = holds
    }

    /// While set, the store does not answer (as a team store whose server went away).
    var unreachable: Bool {
        get { lock.lock(); defer { lock.unlock() }; return down }
        set { lock.lock(); down = newValue; lock.unlock() }
    }
    private var down = false

    func revision() -> Int64? { unreachable ? nil : inner.revision() }

    func perform(_ effect: StoreRequest, now: Timestamp) -> DashboardAction {
        let hold = lock.withLock {
            log.append(effect)
            guard !held, holds(effect) else { return false }
            held = true
            holding = true
            return true
        }
        if hold {
            gate.wait()
            lock.withLock { holding = false }
        }
        let result = inner.perform(effect, now: now)
        lock.withLock { finished += 1 }
        return result
    }

    /// The effects carried out so far, said short: `list by events`, `detail KEY`, `mark KEY`.
    var performed: [String] {
        lock.withLock {
            log.map { effect in
                if let list = effect.load as? ListScreen.Load { "list by \(list.query.mode.rawValue)" }
                else if let detail = effect.load as? DetailScreen.Load { "detail \(detail.key)" }
                else if let mark = effect.load as? Marks.Mark { "mark \(mark.key)" }
                else { "\(effect.load)" }
            }
        }
    }

    /// Lets the held effect go on.
    func open() { gate.signal() }

    /// Waits (up to five seconds) until the worker is blocked on the held effect.
    func waitUntilHeld() { waitUntil { holding } }

    /// Waits (up to five seconds) until `count` effects have been carried out.
    func waitUntilFinished(_ count: Int) { waitUntil { finished >= count } }

    private func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !lock.withLock(condition) { Thread.sleep(forTimeInterval: 0.002) }
    }
}
