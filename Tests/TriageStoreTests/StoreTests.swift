import TestSupport
import Foundation
import Testing
import TriageImport
import TriageModel
@testable import TriageStore

@Suite struct StoreTests {
    @Test func migrationsCreateTheSchemaAndReopeningKeepsData() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        let reopened = try TriageStore(path: f.path)
        let version = try reopened.read { db in try TriageStore.storedSchemaVersion(db) }
        #expect(version == TriageStore.schemaVersion)
        #expect(try reopened.latestEventTime() == Timestamp.parse("2026-11-01T09:00:00Z"))
    }

    /// A team store of schema 6 (the first on PostgreSQL) is brought to the current one by the
    /// first open of a role that may write, reading commands included, as an SQLite file is.
    @Test func aPostgreSQLStoreOfAnEarlierSchemaIsUpgradedOnOpen() throws {
        let uri = try PostgresCluster.database()
        let store = try TriageStore(path: uri)
        guard case .event(let event) = try NativeDecoder().decode(
            line: Array(TemporaryStore.event("e1", "2026-11-01T09:00:00Z", version: "1.9").utf8)) else { return }
        _ = try IngestWriter(store: store).write(events: [event], complaints: [])
        try store.write { db in
            try db.execute(sql: "DROP TABLE app_version")
            try TriageStore.setStoredSchemaVersion(db, 6)
        }
        let reopened = try TriageStore(path: uri, readOnly: true)
        #expect(try reopened.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        #expect(try reopened.versions() == ["1.9"])
        #expect(try reopened.verify().isSound)
    }

    @Test func aStoreFromANewerSchemaIsRefusedWithAClearMessage() throws {
        let f = try TemporaryStore()
        try f.store.write { db in try TriageStore.setStoredSchemaVersion(db, 99) }
        #expect(throws: StoreError.self) { try TriageStore(path: f.path) }
        do {
            _ = try TriageStore(path: f.path)
        } catch {
            #expect(error.message.contains("newer errtriage"))
        }
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-notdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("x.sqlite").path
        try Data(String(repeating: "hello, not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try TriageStore(path: path)
            Issue.record("opened a text file as a store")
        } catch {
            #expect(error.message.contains("not an errtriage store"))
        }
    }

    @Test func theCodeDictionaryLearnsNamesAndFillsEventsThatCarryOnlyCodes() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", codes: "US4-IN156")])
        try f.ingest(lines: [#"{"event_id":"e2","timestamp":"2026-11-01T10:00:00Z","codes":"US4-IN156","chain":"UserError.dataUnavailable - InteractorError.loadTaskList"}"#])
        let decoded = try f.store.decode("US4-IN156-TA103")
        #expect(decoded.map { $0.name?.name } == ["dataUnavailable", "loadTaskList", nil])
        let detail = try f.store.issueDetail(key: "US4-IN156", window: .all, now: Timestamp.parse("2026-11-02T00:00:00Z")!)
        #expect(detail.summary.chain.fullForm == "UserError.dataUnavailable - InteractorError.loadTaskList")
    }

    @Test func shortNamesMissingFromTheDataAreDerivedFromTheDomain() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [#"{"event_id":"e1","timestamp":"2026-11-01T09:00:00Z","chain":[{"domain":"TolokaAPIError","code":202,"name":"taskSuites"},{"domain":"NSURLErrorDomain","code":-1009,"name":"notConnectedToInternet"}]}"#])
        let list = try f.store.issueList(IssueQuery(window: .all), now: Timestamp.parse("2026-11-02T00:00:00Z")!)
        #expect(list.issues.map(\.key) == ["TA202-NSn1009"])
    }

    @Test func theListRanksByTheModeAndFiltersByText() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [
            TemporaryStore.event("a1", "2026-11-01T09:00:00Z", codes: "US1-NE8", user: "u1"),
            TemporaryStore.event("a2", "2026-11-01T09:01:00Z", codes: "US1-NE8", user: "u1"),
            TemporaryStore.event("b1", "2026-11-01T09:00:00Z", codes: "US2-NE9", user: "u2"),
            #"{"complaint_id":"t1","timestamp":"2026-11-01T10:00:00Z","text":"US2-NE9 again"}"#,
        ])
        let now = Timestamp.parse("2026-11-02T00:00:00Z")!
        #expect(try f.store.issueList(IssueQuery(mode: .events), now: now).issues.map(\.key) == ["US1-NE8", "US2-NE9"])
        #expect(try f.store.issueList(IssueQuery(mode: .complaints), now: now).issues.map(\.key) == ["US2-NE9", "US1-NE8"])
        #expect(try f.store.issueList(IssueQuery(text: "ne9"), now: now).issues.map(\.key) == ["US2-NE9"])
        #expect(try f.store.issueList(IssueQuery(text: "%"), now: now).issues.isEmpty)
    }
}
