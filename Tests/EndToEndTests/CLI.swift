import ChildProcess
import Foundation
import TestSupport
import Testing

/// Runs the built `errtriage` binary as a user would, in a temporary folder.
final class CLI {
    let temporary: TemporaryFolder
    var folder: URL { temporary.url }
    /// The test's store: a file in the folder, or on the PostgreSQL pass of `make test` a new
    /// database on the run's cluster (its URI).
    let store: String

    init() throws {
        temporary = try TemporaryFolder("errtriage-e2e")
        store = TemporaryStore.onPostgres ? try PostgresCluster.database() : temporary.path("store.sqlite")
    }

    /// A CLI on a new PostgreSQL database whatever the pass: for what only a team store has.
    init(postgres: Void) throws {
        temporary = try TemporaryFolder("errtriage-e2e")
        store = try PostgresCluster.database()
    }

    /// Where ingest copies rejected lines: beside an SQLite store; for a team store, in the
    /// folder it ran in, named after the database.
    var rejects: String {
        guard store.hasPrefix("postgres") else { return store + ".rejects" }
        return temporary.path("errtriage-\(PostgresCluster.databaseName(store)).rejects")
    }

    /// A CLI whose store is an SQLite file whatever the pass: for what only a file has (its
    /// permissions, its bytes, SQLite's own tools).
    init(sqlite: Void) throws {
        temporary = try TemporaryFolder("errtriage-e2e")
        store = temporary.path("store.sqlite")
    }

    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary `swift build` made.
    static var binary: String {
        if let explicit = ProcessInfo.processInfo.environment["ERRTRIAGE_BIN"] { return explicit }
        return packageRoot.appendingPathComponent(".build/debug/errtriage").path
    }

    typealias Result = ChildProcess.Result

    /// Writes a file in the test folder and returns its path.
    func file(_ name: String, _ contents: String) throws -> String { try temporary.file(name, contents) }

    /// The environment every run gets: the test store, and a fixed user.
    var environment: [String: String] { ["ERRTRIAGE_STORE": store, "USER": "tester"] }

    /// Runs `errtriage ARGS` with the test store in the environment.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        try ChildProcess.run([CLI.binary] + arguments, stdin: stdin ?? "", environment: environment.merging(extra) { $1 },
                             directory: folder.path)
    }

    /// Starts `errtriage ARGS` without waiting for it; its output is discarded.
    func start(_ arguments: [String], output: ChildProcess.Output = .discard) throws -> ChildProcess {
        try ChildProcess([CLI.binary] + arguments, environment: environment, directory: folder.path, output: output)
    }
}

extension ChildProcess.Result {
    /// Standard output parsed as JSON.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
    }
}

/// A tool the tests call (sqlite3, gzip), run to its end; a failure to start it is thrown.
@discardableResult
func tool(_ arguments: String...) throws -> ChildProcess.Result { try ChildProcess.run(arguments) }
