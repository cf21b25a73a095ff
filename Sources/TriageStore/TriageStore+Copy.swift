/// What `copy` moved: rows per table, in the order they were written.
public struct CopyCounts: Sendable, Equatable {
    public var tables: [(name: String, rows: Int)] = []
    public var total: Int { tables.reduce(0) { $0 + $1.rows } }

    public subscript(_ table: String) -> Int { tables.first { $0.name == table }?.rows ?? 0 }

    public static func == (a: CopyCounts, b: CopyCounts) -> Bool {
        a.tables.map(\.name) == b.tables.map(\.name) && a.tables.map(\.rows) == b.tables.map(\.rows)
    }
}

extension TriageStore {
    /// Every table of the store, in an order that writes each row after those it refers to.
    /// The issue's `group_id` (an issue referring to another) is written after all issues.
    static let copyTables = [
        "issue", "chain_link", "code_dictionary", "domain_short", "term", "event_row", "complaint", "complaint_code",
        "status_change", "note", "meeting", "issue_day", "issue_hour", "issue_day_dim", "issue_user", "user_seen",
        "total_hour", "total_day", "saved_view", "owner_rule", "alert_rule", "alert_fired", "adoption_day",
        "adoption_session", "merge_change", "app_version",
    ]

    /// Copies everything this store holds into `target`, which must be empty: events, complaints,
    /// issues and chains, the dictionary, statuses and their history, notes, links, mutes,
    /// meetings, views, owners, alerts, adoption and merges, with their ids. The source is read
    /// in one snapshot while others go on writing it; the target is written in one transaction,
    /// so a failed copy leaves it empty. Onto PostgreSQL the rows go by COPY.
    public func copy(to target: TriageStore) throws(StoreError) -> CopyCounts {
        try read { source in
            try target.write { db in
                guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue") == 0,
                      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM complaint") == 0 else {
                    throw StoreError.usage("\(target.target) holds data already; copy writes into an empty store only")
                }
                var counts = CopyCounts()
                for table in TriageStore.copyTables {
                    counts.tables.append((table, try TriageStore.copyTable(table, from: source, to: db)))
                }
                // Each issue's group, now that every issue is there.
                for row in try Row.fetchAll(source, sql: "SELECT id, group_id FROM issue WHERE group_id IS NOT NULL") {
                    try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [row[1] as Int64, row[0] as Int64])
                }
                for row in try Row.fetchAll(source, sql: "SELECT key, value FROM meta WHERE key NOT IN ('revision', 'schema')") {
                    try db.execute(sql: """
                        INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                        """, arguments: [row[0] as String, row[1] as Int64])
                }
                if db.isPostgres {
                    // Identity columns go on from the highest id copied.
                    for table in PGSchema.identityTables {
                        try db.execute(sql: """
                            SELECT setval(pg_get_serial_sequence('\(table)', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM \(table)
                            """)
                    }
                    try db.execute(sql: "SELECT setval('event_id_seq', COALESCE(MAX(id), 0) + 1, false) FROM event_row")
                }
                return counts
            }
        }
    }

    private static func copyTable(_ table: String, from source: Database, to db: Database) throws -> Int {
        let cursor = try Row.fetchCursor(source, sql: "SELECT * FROM \(table)")
        var batch: [Row] = []
        var copied = 0
        var columns: [String] = []
        var partitions = Set<Int64>()
        func flush() throws {
            guard !batch.isEmpty else { return }
            if table == "event_row", let ts = columns.firstIndex(of: "ts") {
                try preparePartitions(db, times: batch.compactMap { Int64.from($0.values[ts]) }, made: &partitions)
            }
            let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let group = columns.firstIndex(of: "group_id")
            func values(_ row: Row) -> [SQLValue] {
                // An issue's group refers to an issue written later: set after every issue is in.
                guard let group else { return row.values }
                var values = row.values
                values[group] = .null
                return values
            }
            if case .postgres(let session) = db.backend {
                try session.connection.copyIn("COPY \(table) (\(quoted)) FROM STDIN") { writer in
                    for row in batch { try writer.row(values(row).map(\.postgresText)) }
                }
            } else {
                let marks = "(" + databaseQuestionMarks(count: columns.count) + ")"
                let perStatement = max(1, 900 / max(1, columns.count))
                var start = 0
                while start < batch.count {
                    let slice = batch[start..<min(batch.count, start + perStatement)]
                    var arguments = StatementArguments()
                    for row in slice { arguments.values += values(row) }
                    try db.execute(sql: "INSERT INTO \(table) (\(quoted)) VALUES " + Array(repeating: marks, count: slice.count).joined(separator: ", "),
                                   arguments: arguments)
                    start += perStatement
                }
            }
            copied += batch.count
            batch.removeAll(keepingCapacity: true)
        }
        while let row = try cursor.next() {
            if columns.isEmpty { columns = row.columns.names }
            batch.append(row)
            if batch.count >= 5_000 { try flush() }
        }
        try flush()
        return copied
    }
}
