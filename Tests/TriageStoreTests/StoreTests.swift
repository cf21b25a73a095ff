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
    /// first open of a role that may write, reading commands included, as an SQLite file is: its
    /// events, in two months' partitions with their texts inline, keep every value.
    @Test func aPostgreSQLStoreOfAnEarlierSchemaIsUpgradedOnOpen() throws {
        let uri = try PostgresCluster.database()
        let store = try TriageStore(path: uri)
        let lines = [
            #"{"event_id":"e1","timestamp":"2026-10-31T09:00:00Z","codes":"US14-LO43","app":{"version":"1.9","build":"7"},"device":{"model":"Pixel 8"},"message":"timed out","keys":{"screen":"login"}}"#,
            #"{"event_id":"e2","timestamp":"2026-11-01T09:00:00Z","codes":"US14-LO43","device":{"model":"Pixel 8"},"os":{"name":"Android","version":"15"},"kind":"crash"}"#,
        ]
        let events = try lines.map { line -> ErrorEvent in
            guard case .event(let event) = try NativeDecoder().decode(line: Array(line.utf8)) else { throw StoreError("not an event") }
            return event
        }
        guard case .complaint(let complaint) = try NativeDecoder().decode(
            line: Array(TemporaryStore.complaint("c1", "2026-11-01T10:00:00Z", codes: ["US14-LO43"]).utf8)) else { return }
        _ = try IngestWriter(store: store).write(events: events, complaints: [complaint])
        let before = try store.read { db in try SQLRow.fetchAll(db, sql: "SELECT * FROM event ORDER BY id").map(\.values) }
        // Schema 6 as it was: no versions table, no code origins, no projects, no retention tables, no month
        // rollups or daily events of all issues, no levels or aliases, and the events in one partitioned table of texts.
        try store.write { db in
            try db.execute(sql: """
                DROP TABLE app_version; ALTER TABLE chain_link DROP COLUMN origin;
                DROP TABLE pruned_version_day; DROP TABLE pruned_version_users; DROP TABLE issue_month; DROP TABLE issue_month_user;
                ALTER TABLE total_day DROP COLUMN events;
                DROP INDEX complaint_code_by_time; DROP INDEX complaint_code_by_complaint; ALTER TABLE complaint_code DROP COLUMN ts;
                DROP TABLE project_key; DROP TABLE project; DELETE FROM issue_day_dim WHERE dim IN ('project', 'environment', 'level');
                DROP TABLE issue_alias; DELETE FROM meta WHERE key = 'former_grouping_last_issue'; DROP TABLE kept_payload; DROP TABLE kept_role; DROP TABLE payload_dictionary; ALTER TABLE issue DROP COLUMN kept_payloads; ALTER TABLE issue DROP COLUMN kept_bytes; DROP TABLE issue_day_facet; DROP TABLE grouping_rule_member; DROP TABLE grouping_rule;
                DROP TABLE word_template; DROP TABLE project_tag_key; DELETE FROM meta WHERE key = 'prior_grouping_last_issue';
                CREATE TABLE event_v6 AS SELECT * FROM event; ALTER TABLE event_v6 DROP COLUMN project; ALTER TABLE event_v6 DROP COLUMN level; ALTER TABLE event_v6 DROP COLUMN facets;
                DROP VIEW event; DROP TABLE event_row; DROP TABLE term;
                CREATE SEQUENCE event_id_seq AS BIGINT START 3;
                CREATE TABLE event (
                    id BIGINT NOT NULL DEFAULT nextval('event_id_seq'), event_id TEXT COLLATE "C" NOT NULL,
                    issue_id BIGINT NOT NULL, ts BIGINT NOT NULL,
                    app_version TEXT COLLATE "C", app_build TEXT COLLATE "C", platform TEXT COLLATE "C",
                    os_name TEXT COLLATE "C", os_version TEXT COLLATE "C", device_model TEXT COLLATE "C",
                    network TEXT COLLATE "C", orientation TEXT COLLATE "C", app_state TEXT COLLATE "C",
                    free_ram BIGINT, free_disk BIGINT, jailbroken BIGINT, user_id TEXT COLLATE "C",
                    session_id TEXT COLLATE "C", environment TEXT COLLATE "C", message TEXT COLLATE "C",
                    custom_keys TEXT COLLATE "C", source TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C"
                ) PARTITION BY RANGE (ts);
                ALTER SEQUENCE event_id_seq OWNED BY event.id;
                CREATE UNIQUE INDEX event_by_issue_time ON event(issue_id, ts, event_id);
                CREATE INDEX event_by_version ON event(app_version, ts, issue_id, user_id);
                """)
            for event in events {
                let part = PGSchema.partition(holding: event.timestamp.millis)
                try db.execute(sql: "CREATE TABLE \(part.name) PARTITION OF event FOR VALUES FROM (\(part.from)) TO (\(part.to))")
            }
            try db.execute(sql: "INSERT INTO event SELECT * FROM event_v6; DROP TABLE event_v6")
            try TriageStore.setStoredSchemaVersion(db, 6)
        }
        let reopened = try TriageStore(path: uri, readOnly: true)
        #expect(try reopened.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        #expect(try reopened.versions() == ["1.9"])
        #expect(try reopened.verify().isSound)
        // The steps from 6 reach the schema a new store is made with (`TriageStore.currentSchema`).
        let made = try TriageStore(path: try PostgresCluster.database()).read(SchemaTruthTests.postgresSchema)
        let upgraded = try reopened.read(SchemaTruthTests.postgresSchema)
        #expect(made == upgraded, "\(SchemaTruthTests.difference(made, upgraded))")
        let after = try reopened.read { db in try SQLRow.fetchAll(db, sql: "SELECT * FROM event ORDER BY id").map(\.values) }
        #expect(after == before)
        let cited = try reopened.read { db in try Int64.fetchOne(db, sql: "SELECT ts FROM complaint_code WHERE complaint_id = 1") }
        #expect(cited == Timestamp.parse("2026-11-01T10:00:00Z")!.millis)
        // Ingest goes on after the upgrade: a new event, its ids from where the old ones ended.
        let writer = try TriageStore(path: uri)
        guard case .event(let third) = try NativeDecoder().decode(line: Array(TemporaryStore.event("e3", "2026-11-02T09:00:00Z").utf8))
        else { return }
        #expect(try IngestWriter(store: writer).write(events: [third], complaints: []).eventsAdded == 1)
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT MAX(id) FROM event") } == 3)
        #expect(try writer.verify().isSound)
    }

    /// The repeated texts live once in `term`, long ones too: PostgreSQL caps a B-tree entry at
    /// about 2.7 kB, and a message of 10 kB that does not compress goes in (its hash index has no cap).
    @Test func aTextIsStoredOnceHoweverLongAndReadsBackWhole() throws {
        let f = try TemporaryStore()
        let long = (0..<300).map { _ in UUID().uuidString }.joined(separator: " ")
        let lines = (1...3).map { n in
            #"{"event_id":"e\#(n)","timestamp":"2026-11-01T0\#(n):00:00Z","codes":"US14-LO43","device":{"model":"Pixel 8"},"message":"\#(long)"}"#
        }
        #expect(try f.ingest(lines: lines).eventsAdded == 3)
        let stored = try f.store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM term WHERE value = ?", arguments: [long]),
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM term WHERE value = 'Pixel 8'"),
             try String.fetchAll(db, sql: "SELECT message FROM event ORDER BY id"))
        }
        #expect(stored.0 == 1 && stored.1 == 1)
        #expect(stored.2 == [long, long, long])
        #expect(try f.store.verify().isSound)
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
