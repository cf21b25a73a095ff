import ChildProcess
import Foundation
import Testing

/// Drives the real binary in a tmux session: keys in, the screen out.
protocol TmuxDriving {
    /// The tmux session's name: unique per suite, since suites run side by side.
    var session: String { get }
}

extension TmuxDriving {
    /// Runs a tmux command and returns what it printed. Each suite talks to its own server
    /// (`-L SESSION`): suites run side by side, and two clients starting one shared server at once
    /// can lose a session. (The child runner reaps with wait4 and captures into files, which a
    /// server started here cannot hold open.)
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try ChildProcess.run(["tmux", "-L", session] + arguments).stdout
    }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", session]) }

    /// Waits until the screen shows `text`; fails with the screen if it never does.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 15) throws -> String {
        try waitUntil("'\(text)'", seconds: seconds) { $0.contains(text) }
    }

    /// Waits until the screen satisfies `condition`; records an issue with the screen if it never does.
    @discardableResult
    func waitUntil(_ what: String, seconds: Double = 15, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the screen never showed \(what); it shows:\n\(last)")
        return last
    }

    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", session] + keys) }

    /// Types `text` literally and presses Enter, as into the filter or a prompt.
    func enter(_ text: String) throws {
        try keys("-l", text)
        try keys("Enter")
    }

    /// Waits until the screen shows `text` and no load is under way (the status bar's "loading…"
    /// is gone): loads run off the input loop, so a new header can stand over the old rows a moment.
    @discardableResult
    func waitForLoaded(_ text: String, seconds: Double = 15) throws -> String {
        try waitUntil("'\(text)' loaded", seconds: seconds) { $0.contains(text) && !$0.contains("loading") }
    }

    /// The server of the previous test may still be exiting (tmux leaves when its last session
    /// ends) and take the new session with it: then it starts again.
    func start(_ command: String, cols: Int = 120, rows: Int = 40) throws {
        for _ in 0..<10 {
            try tmux(["new-session", "-d", "-s", session, "-x", "\(cols)", "-y", "\(rows)", command])
            Thread.sleep(forTimeInterval: 0.1)
            if try tmux(["list-sessions", "-F", "#{session_name}"]).split(separator: "\n").contains(Substring(session)) { return }
            Thread.sleep(forTimeInterval: 0.3)
        }
        Issue.record("tmux never started the session \(session)")
    }

    func stop() { _ = try? tmux(["kill-session", "-t", session]) }

    func resize(cols: Int, rows: Int) throws { try tmux(["resize-window", "-t", session, "-x", "\(cols)", "-y", "\(rows)"]) }
}
