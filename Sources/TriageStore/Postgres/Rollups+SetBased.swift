import TriageModel

/// The rollups' flush on PostgreSQL: each table's rows COPYed into a staging table and merged
/// with one `INSERT … SELECT … ON CONFLICT DO UPDATE`, the same upserts the row-by-row flush
/// runs once per row (one round trip each, which a server over a network makes slow).
extension Rollups {
    mutating func flushSetBased(_ db: SQLDatabase, session: PGSession) throws {
        // Each table's rows in COPY's binary format, in the columns' order of the table it is like.
        func stage(_ table: String, like source: String, _ fill: (inout PGBinaryRows) throws -> Void) throws {
            try session.stage(table, "(LIKE \(source))")
            var rows = PGBinaryRows()
            try fill(&rows)
            guard rows.count > 0 else { return }
            try session.connection.copyIn("COPY \(table) FROM STDIN WITH (FORMAT binary)", binary: rows)
        }

        // Users: each (issue, user) and each user moves to its latest hour; the buckets they
        // leave and enter are counted from the hours they held (read in one query).
        try stage("issue_user_stage", like: "issue_user") { rows in
            for (key, hour) in userHours {
                rows.row(fields: 3)
                rows.integer(key.issue)
                rows.text(key.user)
                rows.integer(hour)
            }
        }
        var held: [UserKey: Int64] = [:]
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT u.issue_id, u.user_id, u.last_hour FROM issue_user_stage s
            JOIN issue_user u ON u.issue_id = s.issue_id AND u.user_id = s.user_id
            """) {
            held[UserKey(issue: (try row.decode(0)), user: (try row.decode(1)))] = try row.decode(2)
        }
        for (key, hour) in userHours {
            let old = held[key]
            if let old, old >= hour { continue }
            moveUser(key, from: old, to: hour)
        }
        try db.execute(sql: """
            INSERT INTO issue_user (issue_id, user_id, last_hour) SELECT issue_id, user_id, last_hour FROM issue_user_stage
            ON CONFLICT (issue_id, user_id) DO UPDATE SET last_hour = excluded.last_hour WHERE issue_user.last_hour < excluded.last_hour
            """)

        try stage("user_seen_stage", like: "user_seen") { rows in
            for (user, hour) in totalUserHours {
                rows.row(fields: 2)
                rows.text(user)
                rows.integer(hour)
            }
        }
        var seen: [String: Int64] = [:]
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT u.user_id, u.last_hour FROM user_seen_stage s JOIN user_seen u ON u.user_id = s.user_id
            """) {
            seen[(try row.decode(0))] = try row.decode(1)
        }
        var totals = TotalMoves()
        for (user, hour) in totalUserHours {
            let old = seen[user]
            if let old, old >= hour { continue }
            totals.move(from: old, to: hour)
        }
        try db.execute(sql: """
            INSERT INTO user_seen (user_id, last_hour) SELECT user_id, last_hour FROM user_seen_stage
            ON CONFLICT (user_id) DO UPDATE SET last_hour = excluded.last_hour WHERE user_seen.last_hour < excluded.last_hour
            """)
        try stage(Rollups.totalHour.stagingTable, like: "total_hour") { rows in
            for (hour, n) in totals.hours where n != 0 {
                rows.row(fields: 2)
                rows.integer(hour)
                rows.integer(n)
            }
        }
        try db.execute(sql: Rollups.totalHour.stagedUpsert)
        let dayChanges = dayTotals(users: totals.days)
        try stage(Rollups.totalDay.stagingTable, like: "total_day") { rows in
            for (day, change) in dayChanges {
                rows.row(fields: 3)
                rows.integer(day)
                rows.integer(change.users)
                rows.integer(change.events)
            }
        }
        try db.execute(sql: Rollups.totalDay.stagedUpsert)

        // The rollups filled from the events: the same rows as the row-by-row flush's.
        for rollup in Rollups.fromEvents where rowCount(of: rollup) > 0 {
            try stage(rollup.stagingTable, like: rollup.table) { rows in try self.rows(of: rollup, into: &rows) }
            try db.execute(sql: rollup.stagedUpsert)
        }
        // The months' users (`Rollups+Months.swift`): the rows `issue_month_user` cannot hold yet,
        // then the late ones, of which each row it did not hold is a user new to its month.
        var months = monthUserChanges(held: held)
        for (keys, counted) in [(months.rows, false), (months.late, true)] where !keys.isEmpty {
            try stage("issue_month_user_stage", like: "issue_month_user") { rows in
                for key in keys {
                    rows.row(fields: 3)
                    rows.integer(key.month)
                    rows.integer(key.issue)
                    rows.text(key.user)
                }
            }
            let insert = """
                INSERT INTO issue_month_user (month, issue_id, user_id) SELECT month, issue_id, user_id FROM issue_month_user_stage
                ON CONFLICT DO NOTHING
                """
            guard counted else {
                try db.execute(sql: insert)
                continue
            }
            for row in try SQLRow.fetchAll(db, sql: """
                WITH added AS (\(insert) RETURNING issue_id, month) SELECT issue_id, month, COUNT(*) FROM added GROUP BY 1, 2
                """) {
                months.gained[DayKey(issue: (try row.decode(0)), bucket: (try row.decode(1))), default: 0] += (try row.decode(2)) as Int
            }
        }
        let sums = monthSums(), gained = months.gained
        try stage(Rollups.issueMonth.stagingTable, like: "issue_month") { rows in
            for (key, counts) in sums {
                rows.row(fields: 6)
                rows.integer(key.issue)
                rows.integer(key.bucket)
                rows.integer(counts.events)
                rows.integer(counts.complaints)
                rows.integer(counts.users)
                rows.integer(gained[key] ?? 0)
            }
        }
        try db.execute(sql: Rollups.issueMonth.stagedUpsert)
    }
}
