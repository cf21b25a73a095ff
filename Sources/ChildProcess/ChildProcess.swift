#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with posix_spawn and reaped with wait4: its exit status, its output
/// (captured in files, not pipes, so that a grandchild holding them open cannot stall the
/// reader), the time from spawn to exit and its peak memory. Foundation's `Process` misses the
/// exit of some children when the caller's threads block SIGCHLD; wait4 never does.
public final class ChildProcess {
    /// How a finished child ended.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal that ended it (as a shell reports it).
        public var status: Int32
        /// What it wrote to standard output (empty unless captured).
        public var stdout: String
        /// What it wrote to standard error (empty unless captured).
        public var stderr: String
        /// Seconds from spawn to exit.
        public var seconds: Double
        /// Peak resident memory in KiB.
        public var maxRSSKiB: Int
        /// CPU seconds it used, user and system.
        public var cpuSeconds: Double = 0
    }

    /// Where a child's standard output and error go.
    public enum Output: Sendable {
        /// Into files, returned in the result.
        case capture
        /// To /dev/null.
        case discard
        /// Standard output to /dev/null; standard error stays the caller's.
        case discardStdout
    }

    /// Why a child could not start.
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// Which program, and the system's reason.
        public var description: String
    }

    /// The child's process id.
    public let pid: pid_t
    private let started: Double
    private let scratch: String
    private let output: Output
    private var finished: Result?

    /// Starts `arguments[0]` (looked up in PATH when it has no slash) with the rest as arguments,
    /// `stdin` as its input (else /dev/null), the caller's environment with `environment` merged
    /// over it, in `directory` (else the caller's). With `ownProcessGroup` the child leads a process
    /// group of its own, so that a signal to the caller's group (a shell's or a job runner's kill
    /// of a job) does not reach it.
    public init(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                directory: String? = nil, output: Output = .capture, ownProcessGroup: Bool = false) throws(SpawnFailure) {
        precondition(!arguments.isEmpty, "a child needs a program")
        self.output = output
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            FileManager.default.createFile(atPath: scratch + ".in", contents: Data(stdin.utf8))
            posix_spawn_file_actions_addopen(&actions, 0, scratch + ".in", O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .capture:
            posix_spawn_file_actions_addopen(&actions, 1, scratch + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, scratch + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .discardStdout:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if let directory {
            guard let addChdir = ChildProcess.addChdir else {
                throw SpawnFailure(description: "cannot start \(arguments[0]) in \(directory): posix_spawn cannot change folders here")
            }
            _ = addChdir(&actions, directory)
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let env = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            env.forEach { free($0) }
            argv.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if ownProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        var child = pid_t()
        started = ChildProcess.clock()
        let spawned = arguments[0].contains("/")
            ? posix_spawn(&child, arguments[0], &actions, &attributes, argv, env)
            : posix_spawnp(&child, arguments[0], &actions, &attributes, argv, env)
        guard spawned == 0 else {
            ChildProcess.remove(scratch)
            throw SpawnFailure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        pid = child
    }

    deinit {
        if finished == nil { _ = wait() }
    }

    /// Runs a child to its end and returns how it ended.
    public static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                           directory: String? = nil, output: Output = .capture) throws(SpawnFailure) -> Result {
        try ChildProcess(arguments, stdin: stdin, environment: environment, directory: directory, output: output).wait()
    }

    /// Whether the child is still running (it is reaped here when it has ended).
    public var isRunning: Bool {
        guard finished == nil else { return false }
        var status: Int32 = 0
        var usage = rusage()
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        guard reaped == pid else { return reaped == 0 }
        finished = collect(status: status, usage: usage)
        return false
    }

    /// What a running child has written to standard error so far (captured output only).
    public var stderrSoFar: String {
        guard case .capture = output, finished == nil else { return finished?.stderr ?? "" }
        return String(decoding: FileManager.default.contents(atPath: scratch + ".err") ?? Data(), as: UTF8.self)
    }

    /// What a running child has written to standard output so far (captured output only).
    public var stdoutSoFar: String {
        guard case .capture = output, finished == nil else { return finished?.stdout ?? "" }
        return String(decoding: FileManager.default.contents(atPath: scratch + ".out") ?? Data(), as: UTF8.self)
    }

    /// Sends a signal to the child.
    public func signal(_ number: Int32) {
        if finished == nil { kill(pid, number) }
    }

    /// Waits for the child to end and returns how it ended.
    @discardableResult
    public func wait() -> Result {
        if let finished { return finished }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let result = collect(status: status, usage: usage)
        finished = result
        return result
    }

    private func collect(status: Int32, usage: rusage) -> Result {
        let seconds = ChildProcess.clock() - started
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var out = "", err = ""
        if case .capture = output {
            out = String(decoding: FileManager.default.contents(atPath: scratch + ".out") ?? Data(), as: UTF8.self)
            err = String(decoding: FileManager.default.contents(atPath: scratch + ".err") ?? Data(), as: UTF8.self)
        }
        ChildProcess.remove(scratch)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Result(status: code, stdout: out, stderr: err, seconds: seconds, maxRSSKiB: Int(usage.ru_maxrss), cpuSeconds: cpu)
    }

    private static func remove(_ scratch: String) {
        for suffix in [".in", ".out", ".err"] { unlink(scratch + suffix) }
    }

    /// posix_spawn_file_actions_addchdir_np (glibc 2.29, macOS 10.15), which Swift's C modules
    /// do not declare: looked up at run time.
    private static let addChdir: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT on Darwin
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT in glibc
        #endif
        guard let symbol = dlsym(everywhere, "posix_spawn_file_actions_addchdir_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

    /// Seconds on the monotonic clock.
    public static func clock() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The running executable's own path.
    public static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
