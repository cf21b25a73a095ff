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
        var hour = try BoundStatement(db, sql: Rollups.totalHour.rowUpsert)
        for (bucket, n) in totals.hours where n != 0 {
            hour.bind(bucket)
            hour.bind(n)
            try hour.execute()
        }
        var day = try BoundStatement(db, sql: Rollups.totalDay.rowUpsert)
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

    /// The rollups the writers derive (`RollupDeclaration.Source.derived`), and those filled
    /// straight from the transaction's events, which `rows(of:into:)` gives.
    static let totalHour = TriageStore.currentSchema.rollup("total_hour")
    static let totalDay = TriageStore.currentSchema.rollup("total_day")
    static let issueMonth = TriageStore.currentSchema.rollup("issue_month")
    static let fromEvents = TriageStore.currentSchema.rollups.filter { $0.source != .derived }

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

    /// Adds the rollups filled from the events, one prepared upsert per table and row.
    private func write(_ db: SQLDatabase) throws {
        for rollup in Rollups.fromEvents where rowCount(of: rollup) > 0 {
            var upsert = try BoundStatement(db, sql: rollup.rowUpsert)
            try rows(of: rollup, into: &upsert)
        }
    }

    /// How many rows the transaction adds to a rollup filled from its events.
    func rowCount(of rollup: RollupDeclaration) -> Int {
        switch rollup.source {
        case .issueCounts: rollup.grain == .hour ? hours.count : days.count
        case .dimensions: dims.count
        case .facets: facets.count
        case .derived: 0
        }
    }

    /// The transaction's rows of a rollup filled from its events, each its keys then its counters
    /// in the declaration's order, into either writer's sink.
    func rows<Sink: RollupSink>(of rollup: RollupDeclaration, into sink: inout Sink) throws {
        switch rollup.source {
        case .issueCounts:
            for (k, v) in rollup.grain == .hour ? hours : days {
                sink.beginRow(fields: 5)
                sink.add(k.issue)
                sink.add(k.bucket)
                sink.add(Int64(v.events))
                sink.add(Int64(v.complaints))
                sink.add(Int64(v.users))
                try sink.endRow()
            }
        case .dimensions:
            for (k, v) in dims {
                sink.beginRow(fields: 5)
                sink.add(k.issue)
                sink.add(k.dim.rawValue)
                sink.add(k.value)
                sink.add(k.day)
                sink.add(Int64(v))
                try sink.endRow()
            }
        case .facets:
            for (k, v) in facets {
                sink.beginRow(fields: 5)
                sink.add(k.issue)
                sink.add(k.facet)
                sink.add(k.value)
                sink.add(k.day)
                sink.add(Int64(v))
                try sink.endRow()
            }
        case .derived:
            preconditionFailure("\(rollup.table) is derived by its writer")
        }
    }
}

extension Rollups {
    /// Adds the facet counts to `issue_day_facet`, one upsert per row: schema 17's step, which
    /// counts the tags stored before it so (released: kept as it ran).
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

/// Where a rollup's rows go: a prepared upsert run per row (SQLite), or rows in COPY's binary
/// format for a staging table (PostgreSQL).
protocol RollupSink {
    /// Begins a row of `fields` values.
    mutating func beginRow(fields: Int)
    mutating func add(_ value: Int64)
    mutating func add(_ value: String)
    /// Ends the row: the row-by-row writer runs its upsert.
    mutating func endRow() throws
}

extension BoundStatement: RollupSink {
    mutating func beginRow(fields: Int) {}
    mutating func add(_ value: Int64) { bind(value) }
    mutating func add(_ value: String) { bind(value) }
    mutating func endRow() throws { try execute() }
}

extension PGBinaryRows: RollupSink {
    mutating func beginRow(fields: Int) { row(fields: fields) }
    mutating func add(_ value: Int64) { integer(value) }
    mutating func add(_ value: String) { text(value) }
    mutating func endRow() {}
}
