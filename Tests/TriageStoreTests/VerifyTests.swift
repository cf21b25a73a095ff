import TestSupport
import Foundation
import Testing
import TriageImport
import TriageModel
@testable import TriageStore

/// `verify` (errtriage check): sound stores pass, and each kind of damage is named.
@Suite struct VerifyTests {
    func ingested() throws -> TemporaryStore {
        let fixture = try TemporaryStore()
        let lines = TemporaryStore.sampleLines(events: 3000, issues: 25)
        try fixture.ingest(lines: lines, batch: 400)
        return fixture
    }

    @Test func anIngestedStoreIsSound() throws {
        let fixture = try ingested()
        let check = try fixture.store.verify()
        #expect(check.problems == [])
        #expect(check.events == 3000)
        #expect(check.issues > 0)
        #expect(check.complaints > 0)
    }

    @Test(arguments: [
        ("UPDATE issue_day SET events = events + 1 WHERE (issue_id, day) IN (SELECT issue_id, day FROM issue_day LIMIT 1)", "daily events"),
        ("UPDATE issue_hour SET events = events + 1 WHERE (issue_id, hour) IN (SELECT issue_id, hour FROM issue_hour LIMIT 1)", "hourly events"),
        ("UPDATE issue_user SET last_hour = last_hour - 1 WHERE (issue_id, user_id) IN (SELECT issue_id, user_id FROM issue_user LIMIT 1)", "issue users"),
        ("UPDATE issue_hour SET users = users + 1 WHERE (issue_id, hour) IN (SELECT issue_id, hour FROM issue_hour LIMIT 1)", "hourly users"),
        ("UPDATE issue_day SET users = users - 1 WHERE (issue_id, day) IN (SELECT issue_id, day FROM issue_day WHERE users > 0 LIMIT 1)", "daily users"),
        ("DELETE FROM user_seen WHERE user_id IN (SELECT user_id FROM user_seen LIMIT 1)", "all-issue users"),
        ("UPDATE total_day SET users = users + 1 WHERE day IN (SELECT day FROM total_day LIMIT 1)", "all-issue daily users"),
        ("UPDATE issue_day_dim SET events = events + 2 WHERE (issue_id, dim, value, day) IN (SELECT issue_id, dim, value, day FROM issue_day_dim LIMIT 1)", "breakdown"),
        ("UPDATE complaint SET linked = 1 - linked WHERE id = (SELECT MIN(id) FROM complaint)", "linked"),
        ("UPDATE issue SET events = events - 1 WHERE id = 1", "counts"),
        ("UPDATE issue SET status = 'resolved' WHERE id = 1", "history"),
        ("UPDATE issue_day SET complaints = complaints + 1 WHERE (issue_id, day) IN (SELECT issue_id, day FROM issue_day WHERE complaints > 0 LIMIT 1)", "daily complaints"),
        ("UPDATE complaint_code SET ts = ts + 1 WHERE (key, complaint_id) IN (SELECT key, complaint_id FROM complaint_code LIMIT 1)", "citations of complaints"),
        ("UPDATE event_row SET message_term = 987654 WHERE id = (SELECT MIN(id) FROM event_row)", "term dictionary does not hold"),
        ("UPDATE total_day SET events = events + 1 WHERE day IN (SELECT day FROM total_day LIMIT 1)", "all-issue daily events"),
        ("UPDATE issue_month SET events = events + 1 WHERE (issue_id, month) IN (SELECT issue_id, month FROM issue_month LIMIT 1)", "monthly events"),
        ("UPDATE issue_month SET complaints = complaints + 1 WHERE (issue_id, month) IN (SELECT issue_id, month FROM issue_month LIMIT 1)",
         "monthly complaints"),
        ("UPDATE issue_month SET users = users + 1 WHERE (issue_id, month) IN (SELECT issue_id, month FROM issue_month LIMIT 1)", "monthly users"),
        ("DELETE FROM issue_month_user WHERE (issue_id, month, user_id) IN (SELECT issue_id, month, user_id FROM issue_month_user LIMIT 1)",
         "users seen per month"),
        ("UPDATE issue_month SET distinct_users = distinct_users + 1 WHERE (issue_id, month) IN (SELECT issue_id, month FROM issue_month LIMIT 1)",
         "distinct users per month"),
    ])
    func eachKindOfDamageIsNamed(_ damage: String, _ named: String) throws {
        let fixture = try ingested()
        try fixture.store.write { db in
            try db.execute(sql: damage)
            #expect(db.changesCount == 1)
        }
        let check = try fixture.store.verify()
        #expect(check.problems.count == 1)
        #expect(check.problems.first?.contains(named) == true, "\(check.problems)")
    }

    /// A text is stored once: SQLite's unique index refuses a second copy; PostgreSQL's hash index
    /// does not (writers take turns instead), so `check` looks for one.
    @Test func aTextStoredTwiceInTheTermDictionaryIsNamed() throws {
        let fixture = try ingested()
        let twice = "INSERT INTO term (value) SELECT value FROM term WHERE id = (SELECT MIN(id) FROM term)"
        if fixture.store.isTeamStore {
            try fixture.store.write { db in try db.execute(sql: twice) }
            let check = try fixture.store.verify()
            #expect(check.problems.count == 1)
            #expect(check.problems.first?.contains("stored more than once") == true, "\(check.problems)")
        } else {
            #expect(throws: (any Error).self) { try fixture.store.write { db in try db.execute(sql: twice) } }
        }
    }

    /// SQLite's page cap makes a full disk; on PostgreSQL the server's own tests cover it.
    @Test func aFullDiskFailsTheBatchInProgressAndKeepsTheStoreSound() throws {
        let fixture = try TemporaryStore(sqlite: ())
        let pages = try fixture.store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
        let capped = try TriageStore(path: fixture.path, maxPages: pages + 40)
        let writer = try IngestWriter(store: capped)
        let lines = TemporaryStore.sampleLines(events: 4000, issues: 25)
        var written = 0
        var failure: StoreError?
        func decoded(_ lines: some Sequence<String>) throws -> [ErrorEvent] {
            try lines.map { line -> ErrorEvent in
                guard case .event(let e) = try NativeDecoder().decode(line: Array(line.utf8)) else { throw StoreError("not an event") }
                return e
            }
        }
        // Each batch brings a device model no batch before it had: a text new to the term dictionary.
        func novel(_ id: String, _ start: Int) -> String {
            #"{"event_id":"\#(id)","timestamp":"2026-11-01T09:00:00Z","codes":"US14-LO43","device":{"model":"Novel \#(start)"}}"#
        }
        var failedAt: Int?
        for start in stride(from: 0, to: lines.count, by: 250) {
            let events = try decoded([novel("novel-\(start)", start)] + lines[start..<min(lines.count, start + 250)])
            do {
                written += try writer.write(events: events, complaints: []).eventsAdded
            } catch {
                failure = error
                failedAt = start
                break
            }
        }
        #expect(failure?.message.contains("full") == true, "\(String(describing: failure))")
        #expect(written > 0 && written < 4000)
        let check = try fixture.store.verify()
        #expect(check.problems == [])
        #expect(check.events == written)

        // With room again, the same writer writes the failed batch's new text afresh: the id it
        // was given in the rolled-back transaction is not reused.
        let start = try #require(failedAt)
        try capped.write { db in try db.execute(sql: "PRAGMA max_page_count = 1000000") }
        #expect(try writer.write(events: decoded([novel("retry", start)]), complaints: []).eventsAdded == 1)
        let after = try fixture.store.verify()
        #expect(after.problems == [])
        let model = try fixture.store.read { db in try String.fetchOne(db, sql: "SELECT device_model FROM event WHERE event_id = 'retry'") }
        #expect(model == "Novel \(start)")
    }
}
