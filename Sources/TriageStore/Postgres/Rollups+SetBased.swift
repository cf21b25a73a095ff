import TriageModel

/// The rollups' flush on PostgreSQL: each table's rows COPYed into a staging table and merged
/// with one `INSERT … SELECT … ON CONFLICT DO UPDATE`, the same upserts the row-by-row flush
/// runs once per row (one round trip each, which a server over a network makes slow).
extension Rollups {
    mutating func flushSetBased(_ db: SQLDatabase, session: PGSession) throws {
        func stage(_ table: String, like source: String, _ rows: [[String?]]) throws {
            try session.stage(table, "(LIKE \(source))")
            guard !rows.isEmpty else { return }
            try session.connection.copyIn("COPY \(table) FROM STDIN") { writer in
                for row in rows { try writer.row(row) }
            }
        }

        // Users: each (issue, user) and each user moves to its latest hour; the buckets they
        // leave and enter are counted from the hours they held (read in one query).
        try stage("issue_user_stage", like: "issue_user", userHours.map { [String($0.key.issue), $0.key.user, String($0.value)] })
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

        try stage("user_seen_stage", like: "user_seen", totalUserHours.map { [$0.key, String($0.value)] })
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
        try stage("total_hour_stage", like: "total_hour", totals.hours.filter { $0.value != 0 }.map { [String($0.key), String($0.value)] })
        try db.execute(sql: """
            INSERT INTO total_hour (hour, users) SELECT hour, users FROM total_hour_stage
            ON CONFLICT (hour) DO UPDATE SET users = total_hour.users + excluded.users
            """)
        try stage("total_day_stage", like: "total_day", dayTotals(users: totals.days).map {
            [String($0.key), String($0.value.users), String($0.value.events)]
        })
        try db.execute(sql: Rollups.totalDayUpsert(values: "SELECT day, users, events FROM total_day_stage"))

        for (table, column, buckets) in [("issue_day", "day", days), ("issue_hour", "hour", hours)] {
            try stage("\(table)_stage", like: table, buckets.map {
                [String($0.key.issue), String($0.key.bucket), String($0.value.events), String($0.value.complaints), String($0.value.users)]
            })
            try db.execute(sql: """
                INSERT INTO \(table) (issue_id, \(column), events, complaints, users)
                SELECT issue_id, \(column), events, complaints, users FROM \(table)_stage
                ON CONFLICT (issue_id, \(column)) DO UPDATE SET events = \(table).events + excluded.events,
                    complaints = \(table).complaints + excluded.complaints, users = \(table).users + excluded.users
                """)
        }
        // The months' users (`Rollups+Months.swift`): the rows `issue_month_user` cannot hold yet,
        // then the late ones, of which each row it did not hold is a user new to its month.
        var months = monthUserChanges(held: held)
        for (keys, counted) in [(months.rows, false), (months.late, true)] where !keys.isEmpty {
            try stage("issue_month_user_stage", like: "issue_month_user", keys.map { [String($0.month), String($0.issue), $0.user] })
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
        try stage("issue_month_stage", like: "issue_month", monthSums().map {
            [String($0.key.issue), String($0.key.bucket), String($0.value.events), String($0.value.complaints), String($0.value.users),
             String(months.gained[$0.key] ?? 0)]
        })
        try db.execute(sql: Rollups.monthUpsert(values: """
            SELECT issue_id, month, events, complaints, users, distinct_users FROM issue_month_stage
            """))
        try stage("issue_day_dim_stage", like: "issue_day_dim", dims.map {
            [String($0.key.issue), $0.key.dim.rawValue, $0.key.value, String($0.key.day), String($0.value)]
        })
        try db.execute(sql: """
            INSERT INTO issue_day_dim (issue_id, dim, value, day, events) SELECT issue_id, dim, value, day, events FROM issue_day_dim_stage
            ON CONFLICT (issue_id, dim, value, day) DO UPDATE SET events = issue_day_dim.events + excluded.events
            """)
        guard !facets.isEmpty else { return }
        try stage("issue_day_facet_stage", like: "issue_day_facet", facets.map {
            [String($0.key.issue), $0.key.facet, $0.key.value, String($0.key.day), String($0.value)]
        })
        try db.execute(sql: """
            INSERT INTO issue_day_facet (issue_id, facet, value, day, events) SELECT issue_id, facet, value, day, events FROM issue_day_facet_stage
            ON CONFLICT (issue_id, facet, value, day) DO UPDATE SET events = issue_day_facet.events + excluded.events
            """)
    }
}
