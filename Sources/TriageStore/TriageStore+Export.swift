import GRDB
import TriageModel

extension TriageStore {
    /// Streams the raw events of a window (oldest first), optionally of one issue, to `each`.
    public func exportEvents(window: TimeWindow, now: Timestamp, key: String?, _ each: (ErrorEvent) throws -> Void) throws(StoreError) {
        try read { db in
            let buckets = try Buckets(db, window: window, now: now)
            var chains: [Int64: ErrorChain] = [:]
            var sql = "SELECT \(TriageStore.eventColumns), issue_id FROM event WHERE ts BETWEEN ? AND ?"
            var arguments: StatementArguments = [buckets.millis.lowerBound, buckets.millis.upperBound]
            if let key {
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) else {
                    throw StoreError.unknownKey(key)
                }
                sql += " AND issue_id = ?"
                arguments += [id]
            }
            let rows = try Row.fetchCursor(db, sql: sql + " ORDER BY ts, id", arguments: arguments)
            while let row = try rows.next() {
                let issueID: Int64 = row[21]
                if chains[issueID] == nil { chains[issueID] = try TriageStore.chain(db, issueID: issueID) }
                try each(TriageStore.event(from: row, chain: chains[issueID]!))
            }
        }
    }
}
