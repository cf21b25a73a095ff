import Foundation
import Testing
import SampleData
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// A fresh store in a temporary folder, removed when it goes.
public final class TemporaryStore: @unchecked Sendable {
    /// The folder the store lives in.
    public let folder: TemporaryFolder
    /// The store file's path.
    public let path: String
    /// The store, open read-write.
    public let store: TriageStore

    /// Creates an empty store.
    /// A new empty store on the engine under test: an SQLite file in a temporary folder, or, when
    /// `ERRTRIAGE_TEST_ENGINE=postgres` (the second pass of `make test`), a new database on the
    /// run's throwaway PostgreSQL cluster. `path` is then its URI, which the CLI takes as `--store`.
    public init() throws {
        folder = try TemporaryFolder()
        path = TemporaryStore.onPostgres ? try PostgresCluster.database() : folder.path("store.sqlite")
        store = try TriageStore(path: path)
    }

    /// An SQLite store whatever the engine under test (for what only a file can do).
    public init(sqlite: Void) throws {
        folder = try TemporaryFolder()
        path = folder.path("store.sqlite")
        store = try TriageStore(path: path)
    }

    /// Whether this test run puts its stores on PostgreSQL.
    public static let onPostgres = ProcessInfo.processInfo.environment["ERRTRIAGE_TEST_ENGINE"] == "postgres"

    /// Writes lines through the ingest pipeline `ingest` uses, in batches of `batch` records; a
    /// rejected line fails the test's set-up.
    @discardableResult
    public func ingest(lines: [String], batch: Int = 500) throws -> IngestCounts {
        guard !lines.isEmpty else { return IngestCounts() }
        let pipeline = try IngestPipeline(store: store, batchSize: batch, onReject: { rejection in
            throw StoreError("line \(rejection.line) of the test's lines was rejected: \(rejection.reason)")
        })
        return try pipeline.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "lines").counts
    }

    /// Generated sample lines.
    public static func sampleLines(events: Int, issues: Int = 30, days: Int = 20, seed: UInt64 = 3) -> [String] {
        var lines: [String] = []
        SampleGenerator(.init(events: events, issues: issues, days: days, seed: seed, end: sampleEnd)).write { lines.append($0) }
        return lines
    }

    /// Where the generated sample lines end.
    public static let sampleEnd = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// One native event line.
    public static func event(_ id: String, _ time: String, codes: String = "US14-LO43-AP7-NE8", version: String? = nil,
                             build: String? = nil, user: String? = nil) -> String {
        var line = "{\"event_id\":\"\(id)\",\"timestamp\":\"\(time)\",\"codes\":\"\(codes)\""
        if let version {
            line += ",\"app\":{\"version\":\"\(version)\"" + (build.map { ",\"build\":\"\($0)\"" } ?? "") + "}"
        }
        if let user { line += ",\"user_id\":\"\(user)\"" }
        return line + "}"
    }

    /// One native complaint line citing `codes`.
    public static func complaint(_ id: String, _ time: String, codes: [String]) -> String {
        "{\"complaint_id\":\"\(id)\",\"timestamp\":\"\(time)\",\"text\":\"it failed\",\"codes\":[\(codes.map { "\"\($0)\"" }.joined(separator: ","))]}"
    }
}
