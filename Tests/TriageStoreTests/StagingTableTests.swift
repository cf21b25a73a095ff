import Foundation
import Testing
import TestSupport
import TriageImport
import TriageModel
@testable import TriageStore

/// PostgreSQL's ingest stages rows in temporary tables emptied by DELETE, which only VACUUM takes
/// back and no autovacuum visits: a server's thousands of small commits must not grow them.
@Suite struct StagingTableTests {
    @Test func theStagingTablesStaySmallUnderManySmallCommits() throws {
        let store = try TriageStore(path: try PostgresCluster.database())
        let writer = try IngestWriter(store: store)
        var day = 0
        func commits(_ count: Int, from first: Int) throws {
            for commit in first..<(first + count) {
                var events: [ErrorEvent] = []
                for n in 0..<25 {
                    day = (day + 1) % 28
                    let line = TemporaryStore.event("e\(commit)-\(n)", String(format: "2026-10-%02dT10:00:00Z", day + 1),
                                                    codes: "US\(n % 5 + 1)-LO43-AP7-NE8", version: "1.\(n % 7)", user: "u\(commit)-\(n)")
                    events.append(try #require(NativeLineDecoder().event(Array(line.utf8), forced: true)))
                }
                try writer.write(events: events, complaints: [])
            }
        }
        func pages() throws -> Int {
            try store.read { db in try Int.fetchOne(db, sql: "SELECT pg_relation_size('issue_day_dim_stage') / 8192") ?? -1 }
        }
        try commits(64, from: 0)
        let after64 = try pages()
        try commits(64, from: 64)
        let after128 = try pages()
        // The dead rows of a few commits' breakdowns, then no more: unvacuumed, 64 commits more doubled the table.
        #expect(after64 > 0 && after128 <= after64 + 4, "issue_day_dim_stage: \(after64) pages after 64 commits, \(after128) after 128")
    }
}
