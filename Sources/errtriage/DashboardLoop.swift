#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashboardCore
import Foundation
import Terminal
import TriageModel
import TriageStore

/// Runs the dashboard: terminal input becomes actions, the reducer's effects are carried out
/// against the store, and their results come back as actions (bubbletea's loop).
enum DashboardLoop {
    /// How often the loop looks for writes by other processes (an ingest in another terminal).
    static let pollMillis: Int32 = 500
    /// How soon the loop looks again while the store works on a load or a mark: one frame.
    static let frameMillis: Int32 = 16

    /// Whether standard input and output are a terminal.
    static var isInteractive: Bool { isatty(0) != 0 && isatty(1) != 0 }

    /// Opens the dashboard; with `meeting` it starts on the meeting's agenda (`top` issues in each top section).
    static func run(store: TriageStore, now fixedNow: Timestamp?, storeName: String, window: TimeWindow = .d7,
                    meeting: Bool = false, top: Int = 5) throws {
        guard isInteractive else {
            throw CLIError.usage("the dashboard needs a terminal; for scripts use errtriage report (or show) instead")
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen()
        } catch {
            throw CLIError.usage("\(error); set TERM (for example TERM=xterm-256color), or use errtriage report instead")
        }
        defer { screen.close() }
        var state = DashboardState(storeName: storeName, query: IssueQuery(window: window), unicode: screen.unicode,
                                   color: screen.color, readOnly: store.readOnly)
        state.startsMeeting = meeting
        state.meetingTop = top
        var effects = state.start(size: screen.size)
        var queue: [DashboardAction] = []
        var revision = (try? store.revision()) ?? 0
        var lastTick = Date()
        let worker = EffectWorker(store: store)
        var typeahead: [DashboardAction] = []
        func now() -> Timestamp { fixedNow ?? Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) }
        while true {
            for effect in effects {
                switch effect {
                case .quit:
                    // Marks still on their way land before the program ends, and so does what
                    // their results set off (an undo typed before its mark was confirmed).
                    while worker.isBusy {
                        worker.finish()
                        for (result, _) in worker.take() {
                            for next in reduce(&state, result) {
                                if case .mark = next { worker.submit(next, now: now()) }
                                if case .undo = next { worker.submit(next, now: now()) }
                            }
                        }
                    }
                    return
                case .redraw: screen.forceRedraw()
                default: worker.submit(effect, now: now())
                }
            }
            effects = []
            for (result, revisionAfter) in worker.take() {
                queue.append(result)
                // Our own writes raise the revision too: they need no reload.
                if let revisionAfter { revision = revisionAfter }
            }
            if queue.isEmpty {
                screen.draw(render(state, size: screen.size))
                let busy = worker.isBusy
                if !busy, !typeahead.isEmpty {
                    queue.append(typeahead.removeFirst())
                } else if let event = screen.nextEvent(timeoutMillis: busy ? frameMillis : pollMillis) {
                    // Keys and clicks while the store works wait for its answer, in order, as if it
                    // had been instant (`s` then Enter opens the new top issue); a resize is drawn at once.
                    let next = action(for: event)
                    if case .resize = event {
                        queue.append(next)
                    } else if busy || !typeahead.isEmpty {
                        typeahead.append(next)
                    } else {
                        queue.append(next)
                    }
                } else if !busy, let current = try? store.revision(), current != revision {
                    revision = current
                    queue.append(.storeChanged)
                }
                if Date().timeIntervalSince(lastTick) >= 1 {
                    lastTick = Date()
                    queue.append(.tick)
                }
            }
            while !queue.isEmpty {
                effects += reduce(&state, queue.removeFirst())
            }
        }
    }

    static func action(for event: TerminalEvent) -> DashboardAction {
        switch event {
        case .key(let key): .key(key)
        case .mouse(let mouse): .mouse(mouse)
        case .resize(let size): .resize(size)
        }
    }

    /// Carries out one effect against the store; its result comes back as an action.
    static func perform(_ effect: DashboardEffect, store: TriageStore, now: Timestamp) -> DashboardAction {
        do {
            switch effect {
            case .loadList(let query):
                return .listLoaded(try store.issueList(query, now: now))
            case .loadDetail(let key, let window):
                return .detailLoaded(try store.issueDetail(key: key, window: window, now: now))
            case .loadPivot(let query, let layer):
                return .pivotLoaded(layer: layer, query: query, groups: try store.layerPivot(query, by: layer, now: now))
            case .loadAgenda(let window, let top, let record):
                if record { try store.recordMeeting(at: now, by: loginName()) }
                return .agendaLoaded(try store.agenda(window: window, now: now, top: top),
                                     unlinked: try store.unlinkedComplaints(window: window, now: now))
            // Decisions carry the dashboard's time: with --now (and in the demo) the clock stands
            // still at the data's end, so that the minutes of that window hold them.
            case .mark(let key, let mark):
                return .marked(try store.mark(key, mark, by: loginName(), at: now))
            case .undo(let receipt):
                try store.undo(receipt, by: loginName(), at: now)
                return .undone(receipt)
            case .redraw, .quit:
                return .tick
            }
        } catch {
            return .failed(error.message)
        }
    }
}

/// Carries out the reducer's effects off the input loop, one at a time and in order, so that the
/// dashboard never waits on the store: keys are read and frames drawn (with "loading…") while a
/// query runs or a mark waits for an ingest's transaction. Results wait here for the loop.
final class EffectWorker: @unchecked Sendable {
    private let store: TriageStore
    private let queue = DispatchQueue(label: "errtriage.effects")
    private let lock = NSLock()
    private var results: [(DashboardAction, Int64?)] = []
    private var pending = 0

    init(store: TriageStore) { self.store = store }

    /// Starts an effect; its action (and, after a write, the store's revision) comes out of `take`.
    func submit(_ effect: DashboardEffect, now: Timestamp) {
        lock.withLock { pending += 1 }
        queue.async { [self] in
            let result = DashboardLoop.perform(effect, store: store, now: now)
            var revisionAfter: Int64?
            switch effect {
            case .mark, .undo: revisionAfter = try? store.revision()
            default: break
            }
            lock.withLock {
                results.append((result, revisionAfter))
                pending -= 1
            }
        }
    }

    /// Whether an effect is still running, or its result is still to be taken: until the loop has
    /// reduced it, keys must wait.
    var isBusy: Bool { lock.withLock { pending > 0 || !results.isEmpty } }

    /// The results finished since the last call, in the order their effects were submitted.
    func take() -> [(DashboardAction, Int64?)] {
        lock.withLock {
            defer { results = [] }
            return results
        }
    }

    /// Waits for every submitted effect to finish.
    func finish() { queue.sync {} }
}
