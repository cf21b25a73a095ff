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
    /// The tables of `currentSchema` but `meta`, in the order they are described.
    static let copyTables = currentSchema.copiedTables

    /// Copies everything this store holds into `target`, which must be empty: events, complaints,
    /// issues and chains, the dictionary, statuses and their history, notes, links, mutes,
    /// meetings, views, owners, alerts, adoption, merges, projects and their keys, with their ids. The source is read
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
                for row in try SQLRow.fetchAll(source, sql: "SELECT id, group_id FROM issue WHERE group_id IS NOT NULL") {
                    try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [(try row.decode(1)) as Int64, (try row.decode(0)) as Int64])
                }
                for row in try SQLRow.fetchAll(source, sql: "SELECT key, value FROM meta WHERE key NOT IN ('revision', 'schema')") {
                    try db.execute(sql: """
                        INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                        """, arguments: [(try row.decode(0)) as String, (try row.decode(1)) as Int64])
                }
                try db.writes.finishCopy(db)
                return counts
            }
        }
    }

    private static func copyTable(_ table: String, from source: SQLDatabase, to db: SQLDatabase) throws -> Int {
        let cursor = try SQLRow.fetchCursor(source, sql: "SELECT * FROM \(table)")
        var batch: [SQLRow] = []
        var copied = 0
        var columns: [String] = []
        var partitions = Set<Int64>()
        func flush() throws {
            guard !batch.isEmpty else { return }
            if table == "event_row", let ts = columns.firstIndex(of: "ts") {
                try db.writes.preparePartitions(times: batch.compactMap { Int64.from($0.values[ts]) }, made: &partitions, db)
            }
            // An issue's group refers to an issue written later: set after every issue is in.
            let group = columns.firstIndex(of: "group_id")
            do {
                try db.writes.insertCopied(table: table, columns: columns, rows: batch.map { row in
                    guard let group else { return row.values }
                    var values = row.values
                    values[group] = .null
                    return values
                }, db)
            } catch {
                // The table named, so that a refused row can be found.
                throw StoreError("copying \(table): \(error)")
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
