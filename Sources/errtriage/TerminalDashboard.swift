#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashboardCore
import Synchronization
import DashboardRuntime
import Terminal
import TriageModel
import TriageStore

/// The dashboard on the terminal: checks that there is one, enters curses, and runs the loop on it.
enum TerminalDashboard {
    /// Whether standard input and output are a terminal.
    static var isInteractive: Bool { isatty(0) != 0 && isatty(1) != 0 }

    /// Opens the dashboard; with `meeting` it starts on the meeting's agenda (`top` issues in each
    /// top section); `anchorToData` ends its windows at the store's newest event, following new ones.
    static func run(store: TriageStore, now: Timestamp?, storeName: String, window: TimeWindow = .d7,
                    meeting: Bool = false, top: Int = 5, byOwner: Bool = false, anchorToData: Bool = false,
                    code: CodeSettings = CodeSettings()) throws {
        guard isInteractive else {
            throw CLIError.usage("the dashboard needs a terminal; for scripts use errtriage report (or show) instead")
        }
        let screen: TerminalScreen
        do {
            screen = try TerminalScreen()
        } catch {
            throw CLIError.usage("\(error); set TERM (for example TERM=xterm-256color), or use errtriage report instead")
        }
        // Nothing may write to the terminal under curses: a mark waiting for another process's
        // write says so on the status line (the screen goes on answering), standard error after.
        let waits = WaitNotices()
        TriageStore.onWait { waits.say($0) }
        defer {
            screen.close()
            TriageStore.onWait { Stderr.write("errtriage: \($0)\n") }
        }
        var state = DashboardState(storeName: storeName, query: IssueQuery(window: window), unicode: screen.unicode,
                                   color: screen.color, readOnly: store.readOnly)
        state.meetingPlan = MeetingPlan(top: top, startsAtOnce: meeting, byOwner: byOwner)
        if anchorToData, let end = try? store.latestEventTime() {
            state.anchoredToData = true
            state.dataEnd = end
        }
        let lookup = CodeEffects(store: store, commandLine: code, environmentRepo: CodeOptions.environmentRepo)
        DashboardLoop(screen: screen, effects: StoreEffects(store: store, user: loginName()), state: state, now: now, code: lookup,
                      waits: { waits.take() }).run()
    }
}

/// What the store said of its last wait for another process, until the loop takes it.
final class WaitNotices: Sendable {
    private let said = Mutex<String?>(nil)
    func say(_ text: String) { said.withLock { $0 = text } }
    func take() -> String? { said.withLock { text in defer { text = nil }; return text } }
}
