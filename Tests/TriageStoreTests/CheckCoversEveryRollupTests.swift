import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// `check` recounts every rollup the schema declares: for each declared table and each of its
/// counters, one row changed by one is found, on the engine under test. A rollup declared without
/// a recount fails here.
@Suite(.serialized) struct CheckCoversEveryRollupTests {
    @Test func aChangedCountInAnyDeclaredRollupIsFound() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: FacetStoreTests.sent.prefix(400).enumerated().map { FacetStoreTests.line($1, $0) })
        let key = try #require(try f.store.issueList(IssueQuery(window: .all, filter: .all, top: 1), now: FacetStoreTests.now).issues.first?.key)
        let cited = Complaint(complaintID: "c1", timestamp: Timestamp(millis: FacetStoreTests.now.millis - 3_600_000), text: "it broke: \(key)",
                              codes: [key])
        try IngestWriter(store: f.store).write(events: [], complaints: [cited])
        #expect(try f.store.verify().isSound)

        let rollups = TriageStore.currentSchema.rollups
        #expect(Set(rollups.map(\.table)) == ["issue_day", "issue_hour", "issue_day_dim", "total_hour", "total_day", "issue_month", "issue_day_facet"])
        for rollup in rollups {
            for counter in rollup.counters {
                let keys = rollup.keys.joined(separator: ", ")
                // One row that counts something (the first by its keys): changed by one, then put back.
                let first = "(\(keys)) IN (SELECT \(keys) FROM \(rollup.table) WHERE \(counter) != 0 ORDER BY \(keys) LIMIT 1)"
                let counted = try f.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(rollup.table) WHERE \(counter) != 0") } ?? 0
                guard counted > 0 else {
                    Issue.record("\(rollup.table).\(counter): the test's store counts nothing there")
                    continue
                }
                try f.store.write { db in try db.execute(sql: "UPDATE \(rollup.table) SET \(counter) = \(counter) + 1 WHERE \(first)") }
                let check = try f.store.verify()
                #expect(!check.isSound, "\(rollup.table).\(counter) changed by one and check found nothing")
                try f.store.write { db in try db.execute(sql: "UPDATE \(rollup.table) SET \(counter) = \(counter) - 1 WHERE \(first)") }
            }
        }
        #expect(try f.store.verify().isSound)
    }
}
