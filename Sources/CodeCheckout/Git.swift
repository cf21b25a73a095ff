#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcess
import Foundation

/// The `git` command line, run read-only on a checkout: one argument vector a run (never a shell,
/// so that no path is read as a command), no pager, no prompt, no optional locks, no fsmonitor
/// hook, and a bound on the time each run takes: past it the run is killed and says so.
public struct Git: Sendable {
    /// The program: `git`, looked up in PATH.
    public var executable: String
    /// The longest a run may take, in seconds.
    public var timeout: Double

    public init(executable: String = "git", timeout: Double = Git.defaultTimeout) {
        self.executable = executable
        self.timeout = timeout
    }

    /// 3 seconds, or `ERRTRIAGE_GIT_TIMEOUT` (seconds) where set.
    public static var defaultTimeout: Double {
        ProcessInfo.processInfo.environment["ERRTRIAGE_GIT_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil } ?? 3
    }

    /// What a run printed.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Why a run gave no answer.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// git is not installed.
        case missing
        /// It took longer than the bound, and was stopped.
        case timedOut(seconds: Double, command: String)
        /// It ended with an error: its status and the first line it wrote to standard error.
        case failed(status: Int32, message: String)

        public var description: String {
            switch self {
            case .missing: "git is not installed (errtriage reads checkouts with it)"
            case .timedOut(let seconds, let command):
                "git \(command) took longer than \(Git.secondsText(seconds)) s and was stopped (ERRTRIAGE_GIT_TIMEOUT sets the bound)"
            case .failed(_, let message): message
            }
        }
    }

    /// Runs `git -C directory ARGS…` within `deadline` (a monotonic clock's second, `ChildProcess.clock`)
    /// or the run's bound, whichever comes first.
    public func run(_ arguments: [String], in directory: String, deadline: Double? = nil) -> Result<Output, Failure> {
        let argv = [executable, "-C", directory, "--no-pager", "--no-optional-locks",
                    "-c", "core.fsmonitor=false", "-c", "core.quotepath=off", "-c", "color.ui=false"] + arguments
        // The user's own configuration stays (safe.directory, say); what could run a program or
        // write is turned off above and here.
        let environment = ["GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_PAGER": "cat"]
        let child: ChildProcess
        do {
            child = try ChildProcess(argv, environment: environment, ownProcessGroup: true)
        } catch {
            return .failure(error.description.contains("No such file") ? .missing : .failed(status: 127, message: error.description))
        }
        let start = ChildProcess.clock()
        let end = min(start + timeout, deadline ?? .infinity)
        var pause: useconds_t = 200
        while child.isRunning {
            if ChildProcess.clock() >= end {
                kill(-child.pid, SIGKILL)
                child.signal(SIGKILL)
                child.wait()
                return .failure(.timedOut(seconds: max(0, end - start), command: arguments.first ?? ""))
            }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
        let result = child.wait()
        // posix_spawnp reports a missing program as a child that exits 127.
        if result.status == 127, result.stdout.isEmpty { return .failure(.missing) }
        guard result.status == 0 else {
            let line = result.stderr.split(separator: "\n").first { !$0.hasPrefix("hint:") }.map(String.init) ?? "git \(arguments.first ?? "") failed"
            return .failure(.failed(status: result.status, message: Git.strip(line)))
        }
        return .success(Output(status: result.status, stdout: result.stdout, stderr: result.stderr))
    }

    /// `fatal: x` as `x`.
    static func strip(_ line: String) -> String {
        for prefix in ["fatal: ", "error: "] where line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
        return line
    }

    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
