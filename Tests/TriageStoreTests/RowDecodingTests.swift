import Foundation
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// A value of another type than its reader expects (a store not as errtriage wrote it) is an error
/// naming the column and what it held, never a crash. Only SQLite lets a column hold another type.
@Suite struct RowDecodingTests {
    static let now = Timestamp.parse("2026-11-21T00:00:00Z")!
    static let key = "US14-LO43-AP7-NE8"

    static func storeWithOneIssue() throws -> TemporaryStore {
        let f = try TemporaryStore(sqlite: ())
        let links = try ShortKey.parse(Self.key).map { ChainLink(short: $0.short, code: $0.code) }
        let event = ErrorEvent(eventID: "e1", timestamp: Timestamp.parse("2026-11-20T10:00:00Z")!, chain: ErrorChain(links: links), source: "test")
        _ = try IngestWriter(store: f.store).write(events: [event], complaints: [])
        return f
    }

    @Test func aTextWhereAnIssuesTimeBelongsIsAnErrorNamingTheColumn() throws {
        let f = try Self.storeWithOneIssue()
        try f.store.write { db in try db.execute(sql: "UPDATE issue SET first_seen = 'soon'") }
        let error = #expect(throws: StoreError.self) { _ = try f.store.issueDetail(key: Self.key, window: .all, now: Self.now) }
        #expect(error?.message.contains("column first_seen holds text where Int64 was expected") == true)
    }

    @Test func decodeNamesTheColumnAndTheKindOfValueItMet() throws {
        let row = SQLRow(columns: SQLRow.ColumnNames(["id", "key"]), values: [.text("x"), .null])
        #expect(throws: StoreError.unreadable(column: "id", met: .text("x"), as: Int64.self)) { _ = try row.decode(0, as: Int64.self) }
        #expect(throws: StoreError.unreadable(column: "key", met: .null, as: String.self)) { _ = try row.decode("key", as: String.self) }
        #expect(try row.decode(1, as: String?.self) == nil)
    }

    @Test func aScalarReadOfTheWrongTypeIsAnErrorToo() throws {
        let f = try Self.storeWithOneIssue()
        #expect(throws: StoreError.self) {
            try f.store.read { db in try Int64.fetchOne(db, sql: "SELECT key FROM issue") }
        }
    }
}
