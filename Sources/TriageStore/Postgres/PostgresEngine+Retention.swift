/// PostgreSQL's side of retention: whole month partitions dropped.
extension PostgresEngine {
    /// Drops each month partition of `event_row` that ends by `cut`, one transaction each (a
    /// partition's files go at once, with no dead rows left for vacuum); rows before `cut` in a
    /// partition that reaches past it (none while cuts fall on months' starts) are deleted in chunks.
    func deleteEvents(before cut: Int64, chunk: Int) throws -> Int {
        let partitions = try read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                WHERE i.inhparent = 'event_row'::regclass
                """).map { (name: (try $0.decode(0)) as String, bound: (try $0.decode(1)) as String) }
        }
        var total = 0
        for partition in partitions {
            guard let upper = PostgresEngine.upperBound(partition.bound), upper <= cut else { continue }
            total += try write { db in
                let n = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(partition.name)") ?? 0
                try db.execute(sql: "DROP TABLE \(partition.name)")
                return n
            }
        }
        while true {
            let n = try write { db in
                try db.execute(sql: "DELETE FROM event_row WHERE id IN (SELECT id FROM event_row WHERE ts < ? LIMIT ?)", arguments: [cut, chunk])
                return db.changesCount
            }
            total += n
            if n < chunk { return total }
        }
    }

    /// The upper bound of a range partition's bound expression (`FOR VALUES FROM ('a') TO ('b')`).
    static func upperBound(_ bound: String) -> Int64? {
        guard let to = bound.range(of: " TO (") else { return nil }
        let digits = bound[to.upperBound...].filter { $0.isNumber || $0 == "-" }
        return Int64(digits)
    }

    func reclaimSpace() throws -> String {
        "dropped partitions' files removed at once; deleted complaints' rows are reclaimed by autovacuum"
    }

    func compact() throws -> String {
        _ = try session.exclusive { try session.run("VACUUM complaint, complaint_code", []) }
        return "complaint tables vacuumed; the event partitions dropped need none"
    }

    func tableBytes() throws -> [(table: String, bytes: Int64)] {
        try read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT COALESCE(p.relname, c.relname) AS t, SUM(pg_total_relation_size(c.oid)) AS b
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
                WHERE n.nspname = current_schema() AND c.relkind = 'r' GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { ((try $0.decode(0)), (try $0.decode(1))) }
        }
    }

    /// The server's disk is not this process's to see.
    func freeBytes() -> Int64? { nil }
}
