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
        func now() -> Timestamp { fixedNow ?? Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) }
        while true {
            for effect in effects {
                switch effect {
                case .quit: return
                case .redraw: screen.forceRedraw()
                default:
                    queue.append(perform(effect, store: store, now: now()))
                    // Our own writes raise the revision too: they need no reload.
                    if case .mark = effect { revision = (try? store.revision()) ?? revision }
                    if case .undo = effect { revision = (try? store.revision()) ?? revision }
                }
            }
            effects = []
            if queue.isEmpty {
                screen.draw(render(state, size: screen.size))
                if let event = screen.nextEvent(timeoutMillis: pollMillis) {
                    queue.append(action(for: event))
                } else if let current = try? store.revision(), current != revision {
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
