import Foundation
import Testing

/// A throwaway PostgreSQL cluster for one test run: `initdb` in a temporary folder, a Unix socket
/// in that folder and no TCP port, started once and stopped when the test process ends.
///
/// Tests never skip for want of a server: when the cluster cannot start, each test that asks for
/// it fails with the server's log. As root (CI here) the server runs as the `postgres` user.
final class PostgresCluster: Sendable {
    /// The run's cluster, started on first use.
    static let shared: Result<PostgresCluster, ClusterError> = Result { () throws(ClusterError) in try PostgresCluster() }

    let folder: String
    let port = 54329
    private let bin: String
    private let counter = Counter()

    /// Why the cluster could not start: the step, and the server's log.
    struct ClusterError: Error, CustomStringConvertible {
        let description: String
    }

    private init() throws(ClusterError) {
        bin = try Self.binaries()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-pg-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // The server runs as another user when the tests run as root: it must write here.
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder)
        } catch { throw ClusterError(description: "cannot make \(folder): \(error)") }
        Self.stopAtExit(bin: bin, folder: folder)
        try server("initdb", ["-D", "\(folder)/data", "--auth=trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        try server("pg_ctl", ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o",
                              "-k \(folder) -c listen_addresses='' -p \(port) -c fsync=off -c max_connections=200", "start"])
    }

    /// A new empty database on the cluster, and its URI.
    func createDatabase() throws(ClusterError) -> String {
        let name = "errtriage_test_\(ProcessInfo.processInfo.processIdentifier)_\(counter.next())"
        try server("createdb", ["-h", folder, "-p", String(port), "-U", "postgres", name])
        return uri(name)
    }

    /// The URI of database `name` as libpq reads it.
    func uri(_ name: String, user: String = "postgres") -> String {
        "postgresql://\(user)@/\(name)?host=\(folder)&port=\(port)"
    }

    /// The cluster's database for a test, or a recorded failure with the server's log.
    static func database(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        do {
            return try shared.get().createDatabase()
        } catch {
            Issue.record("PostgreSQL could not start: \(error)", sourceLocation: sourceLocation)
            throw error
        }
    }

    private func server(_ tool: String, _ arguments: [String]) throws(ClusterError) {
        try Self.run(bin + "/" + tool, arguments, log: folder + "/log")
    }

    private static func run(_ tool: String, _ arguments: [String], log: String) throws(ClusterError) {
        let asRoot = getuid() == 0
        let argv = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        // The test's own PG* settings must not steer the server's tools.
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }.map { "\($0.key)=\($0.value)" }
        // Output to a file, not a pipe: the server pg_ctl starts could hold a pipe open for ever.
        let printedPath = log + ".tools"
        let status = spawnAndWait(argv, environment: environment, output: printedPath)
        guard status == 0 else {
            let printed = (try? String(contentsOfFile: printedPath, encoding: .utf8)) ?? ""
            let serverLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "(no server log)"
            throw ClusterError(description: "\(tool) \(arguments.joined(separator: " ")) exited \(status):\n\(printed)\nserver log:\n\(serverLog)")
        }
    }

    /// posix_spawn and waitpid: Foundation's `Process.waitUntilExit` can wait for ever when
    /// called while other tests block on this cluster's lazy start.
    private static func spawnAndWait(_ argv: [String], environment: [String], output: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Finds initdb and pg_ctl: `pg_config --bindir` (Debian keeps them off PATH), else PATH (Homebrew).
    private static func binaries() throws(ClusterError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_config", "--bindir"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let dir = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            process.waitUntilExit()
            if process.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: dir + "/initdb") { return dir }
        }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        where FileManager.default.isExecutableFile(atPath: dir + "/initdb") { return dir }
        throw ClusterError(description: "PostgreSQL's server is not installed (no initdb from pg_config --bindir or on PATH): run make setup")
    }

    /// Stops the server and removes its folder when this process ends, however it ends: a watcher
    /// process waits for this one to go, so a crash or a kill of the tests leaves no server behind.
    private static func stopAtExit(bin: String, folder: String) {
        let stop = getuid() == 0 ? "runuser -u postgres -- '\(bin)/pg_ctl'" : "'\(bin)/pg_ctl'"
        let script = """
            while kill -0 \(ProcessInfo.processInfo.processIdentifier) 2>/dev/null; do sleep 0.2; done
            \(stop) -D '\(folder)/data' -m immediate stop >/dev/null 2>&1
            rm -rf '\(folder)'
            """
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = ["-c", script]
        watcher.standardInput = FileHandle.nullDevice
        watcher.standardOutput = FileHandle.nullDevice
        watcher.standardError = FileHandle.nullDevice
        try? watcher.run()
    }
}

/// A thread-safe counter for unique database names.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
