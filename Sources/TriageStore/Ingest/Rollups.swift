import TriageModel

/// A batch's increments to the rollup tables, summed in memory and written with one upsert per row.
struct Rollups {
    struct DayKey: Hashable { var issue: Int64; var bucket: Int64 }
    struct DimKey: Hashable { var issue: Int64; var dim: Dimension; var value: String; var day: Int64 }
    struct FacetKey: Hashable { var issue: Int64; var facet: String; var value: String; var day: Int64 }
    struct UserKey: Hashable { var issue: Int64; var user: String }
    struct Counts { var events = 0; var complaints = 0; var users = 0 }

    var days: [DayKey: Counts] = [:]
    var hours: [DayKey: Counts] = [:]
    var dims: [DimKey: Int] = [:]
    /// Events per issue, day and facet value (`EventFacets`).
    var facets: [FacetKey: Int] = [:]
    /// The latest hour each user was seen in this batch, per issue and across all issues.
    var userHours: [UserKey: Int64] = [:]
    var totalUserHours: [String: Int64] = [:]
    /// Who was seen per issue and month; a month is named by its first day (`Rollups+Months.swift`).
    var monthUsers = Set<MonthUserKey>()
    /// The last day `add` named a month for, and that month (events come mostly in day order).
    private var monthOfDay: (day: Int64, month: Int64) = (.min, .min)
    /// The app versions the transaction's events name (the `app_version` table lists every one).
    var versions = Set<String>()

    /// The value a dimension's rollup files an event under; missing values count as `unknown`.
    static func value(_ dimension: Dimension, of event: ErrorEvent) -> String {
        dimension.value(of: event) ?? "unknown"
    }

    mutating func add(_ event: ErrorEvent, issueID: Int64) {
        if let version = event.appVersion { versions.insert(version) }
        let day = event.timestamp.day, hour = event.timestamp.hour
        days[DayKey(issue: issueID, bucket: day), default: Counts()].events += 1
        hours[DayKey(issue: issueID, bucket: hour), default: Counts()].events += 1
        for dim in Dimension.allCases {
            dims[DimKey(issue: issueID, dim: dim, value: Rollups.value(dim, of: event), day: day), default: 0] += 1
        }
        if !event.facets.isEmpty || !event.customKeys.isEmpty {
            for pair in EventFacets.pairs(of: event) {
                facets[FacetKey(issue: issueID, facet: pair.facet, value: pair.value, day: day), default: 0] += 1
            }
        }
        if let user = event.userID {
            let key = UserKey(issue: issueID, user: user)
            if userHours[key].map({ $0 < hour }) ?? true { userHours[key] = hour }
            if totalUserHours[user].map({ $0 < hour }) ?? true { totalUserHours[user] = hour }
            if monthOfDay.day != day { monthOfDay = (day, Timestamp.monthStart(ofDay: day)) }
            monthUsers.insert(MonthUserKey(issue: issueID, month: monthOfDay.month, user: user))
        }
    }

    mutating func addComplaint(at time: Timestamp, issueID: Int64) {
        days[DayKey(issue: issueID, bucket: time.day), default: Counts()].complaints += 1
        hours[DayKey(issue: issueID, bucket: time.hour), default: Counts()].complaints += 1
    }

    mutating func flush(_ db: SQLDatabase) throws {
        // In one statement per 500 versions (a round trip each on PostgreSQL).
        for slice in versions.sorted().slices(of: 500) {
            try db.execute(sql: "INSERT INTO app_version (version) VALUES \(Array(repeating: "(?)", count: slice.count).joined(separator: ", ")) ON CONFLICT DO NOTHING",
                           arguments: SQLArguments(slice))
        }
        try db.writes.flush(&self, db)
    }

    /// The row-by-row flush (SQLite's, where a statement costs microseconds).
    mutating func flushRowByRow(_ db: SQLDatabase) throws {
        let held = try moveUsers(db)
        try write(db)
        try writeMonths(db, held: held)
    }

    /// Moves each user seen in the batch to its new last hour: out of the bucket of the old one
    /// (if it is older) and into the new one, per issue and across all issues. Returns the last
    /// hours stored before, per issue and user.
    private mutating func moveUsers(_ db: SQLDatabase) throws -> [UserKey: Int64] {
        var held: [UserKey: Int64] = [:]
        try Rollups.advance(userHours, in: "issue_user", keyedBy: ["issue_id", "user_id"], db,
                            bind: { statement, key in statement.bind(key.issue); statement.bind(key.user) },
                            held: { key, old in held[key] = old },
                            moved: { key, old, hour in moveUser(key, from: old, to: hour) })
        var totals = TotalMoves()
        try Rollups.advance(totalUserHours, in: "user_seen", keyedBy: ["user_id"], db,
                            bind: { statement, user in statement.bind(user) },
                            held: { _, _ in },
                            moved: { _, old, hour in totals.move(from: old, to: hour) })
        var hour = try BoundStatement(db, sql: """
            INSERT INTO total_hour (hour, users) VALUES (?, ?) ON CONFLICT (hour) DO UPDATE SET users = total_hour.users + excluded.users
            """)
        for (bucket, n) in totals.hours where n != 0 {
            hour.bind(bucket)
            hour.bind(n)
            try hour.execute()
        }
        var day = try BoundStatement(db, sql: Rollups.totalDayUpsert(values: "VALUES (?, ?, ?)"))
        for (bucket, change) in dayTotals(users: totals.days) {
            day.bind(bucket)
            day.bind(change.users)
            day.bind(change.events)
            try day.execute()
        }
        return held
    }

    /// What each day's all-issue row changes by: the users moved into (or out of) it, and every
    /// issue's events of the transaction.
    func dayTotals(users: [Int64: Int]) -> [Int64: (users: Int, events: Int)] {
        var totals: [Int64: (users: Int, events: Int)] = [:]
        for (day, n) in users where n != 0 { totals[day, default: (0, 0)].users += n }
        for (key, counts) in days where counts.events != 0 { totals[key.bucket, default: (0, 0)].events += counts.events }
        return totals
    }

    /// Adds all-issue day rows (`values`: day, users, events) to `total_day`.
    static func totalDayUpsert(values: String) -> String {
        """
        INSERT INTO total_day (day, users, events) \(values)
        ON CONFLICT (day) DO UPDATE SET users = total_day.users + excluded.users, events = total_day.events + excluded.events
        """
    }

    /// A user of an issue whose last hour moves from `old` (nil: a new user) to `hour`: out of the
    /// old hour's and day's buckets, into the new ones.
    mutating func moveUser(_ key: UserKey, from old: Int64?, to hour: Int64) {
        if let old { countUser(issue: key.issue, hour: old, -1) }
        countUser(issue: key.issue, hour: hour, 1)
    }

    /// The same across all issues: what the all-issue hourly and daily user counts change by.
    struct TotalMoves {
        var hours: [Int64: Int] = [:]
        var days: [Int64: Int] = [:]

        mutating func move(from old: Int64?, to hour: Int64) {
            for (h, delta) in [(old, -1), (hour, 1)] {
                guard let h else { continue }
                hours[h, default: 0] += delta
                days[Timestamp.startOf(hour: h).day, default: 0] += delta
            }
        }
    }

    /// Adds `delta` users to an issue's hour and day buckets.
    private mutating func countUser(issue: Int64, hour: Int64, _ delta: Int) {
        hours[DayKey(issue: issue, bucket: hour), default: Counts()].users += delta
        days[DayKey(issue: issue, bucket: Timestamp.startOf(hour: hour).day), default: Counts()].users += delta
    }

    /// Stores each key's latest hour in `table` where it is later than the stored one; tells `held`
    /// each stored hour, and `moved` the key, the stored hour (nil for a new key) and the new one.
    private static func advance<Key>(_ latest: [Key: Int64], in table: String, keyedBy columns: [String], _ db: SQLDatabase,
                                     bind: (inout BoundStatement, Key) -> Void,
                                     held: (Key, Int64) -> Void,
                                     moved: (Key, Int64?, Int64) -> Void) throws {
        let keys = columns.joined(separator: ", ")
        var find = try BoundStatement(db, sql: """
            SELECT last_hour FROM \(table) WHERE \(columns.map { "\($0) = ?" }.joined(separator: " AND "))
            """)
        var put = try BoundStatement(db, sql: """
            INSERT INTO \(table) (\(keys), last_hour) VALUES (\(databaseQuestionMarks(count: columns.count + 1)))
            ON CONFLICT (\(keys)) DO UPDATE SET last_hour = excluded.last_hour
            """)
        for (key, hour) in latest {
            bind(&find, key)
            let old = try find.fetchInt64()
            if let old { held(key, old) }
            if let old, old >= hour { continue }
            bind(&put, key)
            put.bind(hour)
            try put.execute()
            moved(key, old, hour)
        }
    }

    private func write(_ db: SQLDatabase) throws {
        for (table, column, buckets) in [("issue_day", "day", days), ("issue_hour", "hour", hours)] {
            var upsert = try BoundStatement(db, sql: """
                INSERT INTO \(table) (issue_id, \(column), events, complaints, users) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (issue_id, \(column)) DO UPDATE SET events = \(table).events + excluded.events,
                    complaints = \(table).complaints + excluded.complaints, users = \(table).users + excluded.users
                """)
            for (k, v) in buckets {
                upsert.bind(k.issue)
                upsert.bind(k.bucket)
                upsert.bind(v.events)
                upsert.bind(v.complaints)
                upsert.bind(v.users)
                try upsert.execute()
            }
        }
        var dim = try BoundStatement(db, sql: """
            INSERT INTO issue_day_dim (issue_id, dim, value, day, events) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (issue_id, dim, value, day) DO UPDATE SET events = issue_day_dim.events + excluded.events
            """)
        for (k, v) in dims {
            dim.bind(k.issue)
            dim.bind(k.dim.rawValue)
            dim.bind(k.value)
            dim.bind(k.day)
            dim.bind(v)
            try dim.execute()
        }
        try writeFacets(db)
    }

    /// Adds the facet counts to `issue_day_facet`, one upsert per row.
    func writeFacets(_ db: SQLDatabase) throws {
        guard !facets.isEmpty else { return }
        var facet = try BoundStatement(db, sql: """
            INSERT INTO issue_day_facet (issue_id, facet, value, day, events) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (issue_id, facet, value, day) DO UPDATE SET events = issue_day_facet.events + excluded.events
            """)
        for (k, v) in facets {
            facet.bind(k.issue)
            facet.bind(k.facet)
            facet.bind(k.value)
            facet.bind(k.day)
            facet.bind(v)
            try facet.execute()
        }
    }
}
