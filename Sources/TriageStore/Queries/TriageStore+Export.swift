import TriageModel

extension TriageStore {
    /// Streams the raw events of a window (oldest first), optionally of one issue or those a query lets through, to `each`.
    public func exportEvents(window: TimeWindow, now: Timestamp, key: String?, search: SearchQuery = SearchQuery(),
                             _ each: (ErrorEvent) throws -> Void) throws(StoreError) {
        let issues = search.isEmpty ? nil
            : try issueList(IssueQuery(window: window, filter: .all, text: search.description, top: .max), now: now).issues.map(\.key)
        try read { db in
            let buckets = try Buckets(db, window: window, now: now)
            var chains: [Int64: ErrorChain] = [:]
            let (condition, dimensionArguments, _) = try TriageStore.eventCondition(db, search.dimensionTerms)
            var sql = "SELECT \(TriageStore.eventColumns), issue_id FROM event WHERE ts BETWEEN ? AND ? AND \(condition)"
            var arguments: SQLArguments = [buckets.millis.lowerBound, buckets.millis.upperBound] + dimensionArguments
            if let issues {
                // The list names a merged group by its head: its members' events go too.
                sql += """
                     AND issue_id IN (SELECT i.id FROM issue i LEFT JOIN issue h ON h.id = i.group_id
                                      WHERE COALESCE(h.key, i.key) IN (\(databaseQuestionMarks(count: max(1, issues.count)))))
                    """
                arguments += SQLArguments(issues.isEmpty ? [""] : issues)
            }
            if let key {
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) else {
                    throw StoreError.unknownKey(key)
                }
                sql += " AND issue_id = ?"
                arguments += [id]
            }
            let rows = try SQLRow.fetchCursor(db, sql: sql + " ORDER BY ts, id", arguments: arguments)
            while let row = try rows.next() {
                let issueID: Int64 = try row.decode(TriageStore.eventColumnCount)
                if chains[issueID] == nil { chains[issueID] = try TriageStore.chain(db, issueID: issueID) }
                try each(TriageStore.event(from: row, chain: chains[issueID]!))
            }
        }
    }
}
