#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcess
import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster: `initdb` in a temporary folder, a Unix socket in that folder
/// and no TCP port, stopped (and its folder removed) when this process ends, however it ends.
/// The tests start one per run (TestSupport's `PostgresCluster`), the bench one per run.
public final class ThrowawayPostgres: Sendable {
    /// The folder of the data, the log and the server's socket.
    public let folder: String
    /// The port in the socket's name (no TCP port is opened).
    public let port: Int
    private let bin: String
    private let counter = Counter()

    /// Why the cluster could not start: the step, and the server's log.
    public struct ClusterError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(port: Int) throws(ClusterError) {
        self.port = port
        bin = try Self.binaries()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-pg-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The server runs as another user when the tests run as root: it must write here.
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        } catch { throw ClusterError(description: "cannot make \(folder): \(error)") }
        Self.stopAtExit(bin: bin, folder: folder)
        try server("initdb", ["-D", "\(folder)/data", "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        try start()
    }

    /// Starts the server (again, after `stop`).
    public func start() throws(ClusterError) {
        try server("pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o",
                              "-k \(folder) -c listen_addresses='' -p \(port) -c fsync=off -c max_connections=200", "start"])
    }

    /// Stops the server, dropping every connection (as a server going away does).
    public func stop() throws(ClusterError) {
        try server("pg_ctl", ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }

    /// The path of one of the server's client tools (`psql`), from the same installation.
    public func tool(_ name: String) -> String { bin + "/" + name }

    /// A new empty database on the cluster, and its URI.
    public func createDatabase() throws(ClusterError) -> String {
        let name = "errtriage_test_\(ProcessInfo.processInfo.processIdentifier)_\(counter.next())"
        try server("createdb", ["-h", folder, "-p", String(port), "-U", "postgres", name])
        return uri(name)
    }

    /// The URI of database `name` as libpq reads it.
    public func uri(_ name: String, user: String = "postgres") -> String {
        "postgresql://\(user)@/\(name)?host=\(folder)&port=\(port)"
    }

    private func server(_ tool: String, _ arguments: [String]) throws(ClusterError) {
        // As root the server's tools run as `postgres`, which PostgreSQL requires.
        let path = bin + "/" + tool
        let argv = getuid() == 0 ? ["runuser", "-u", "postgres", "--", path] + arguments : [path] + arguments
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(argv) } catch { throw ClusterError(description: "cannot run \(tool): \(error)") }
        guard result.status == 0 else {
            let serverLog = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "(no server log)"
            throw ClusterError(description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status):\n\(result.stdout)\(result.stderr)\nserver log:\n\(serverLog)")
        }
    }

    /// Finds initdb and pg_ctl: `pg_config --bindir` (Debian keeps them off PATH), else PATH (Homebrew).
    private static func binaries() throws(ClusterError) -> String {
        if let found = try? ChildProcess.run(["pg_config", "--bindir"]), found.status == 0 {
            let dir = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if FileManager.default.isExecutableFile(atPath: dir + "/initdb") { return dir }
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: dir + "/initdb") { return dir }
        throw ClusterError(description: "PostgreSQL's server is not installed (no initdb from pg_config --bindir or on PATH): run make setup")
    }

    nonisolated(unsafe) private static var watchers: [ChildProcess] = []
    private static let watchersLock = NSLock()

    /// Stops the server and removes its folder when this process ends, however it ends: a watcher
    /// process waits for this one to go, so a crash or a kill of the tests (or of their whole
    /// process group) leaves no server behind.
    private static func stopAtExit(bin: String, folder: String) {
        let stop = getuid() == 0 ? "runuser -u postgres -- '\(bin)/pg_ctl'" : "'\(bin)/pg_ctl'"
        let script = """
            while kill -0 \(ProcessInfo.processInfo.processIdentifier) 2>/dev/null; do sleep 0.2; done
            \(stop) -D '\(folder)/data' -m immediate stop >/dev/null 2>&1
            rm -rf '\(folder)'
            """
        // Kept, never waited for (a ChildProcess waits when it goes): it outlives this process on
        // purpose. In a process group of its own, so that a kill of the caller's group (a job
        // stopped with `kill -- -PGID`, a CI step's timeout) does not take the watcher with it and
        // leave the server and its folder behind; the server itself is already in its own session.
        guard let watcher = try? ChildProcess(["/bin/sh", "-c", script], output: .discard, ownProcessGroup: true) else { return }
        watchersLock.lock()
        watchers.append(watcher)
        watchersLock.unlock()
    }
}

/// A thread-safe counter for unique database names.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}
