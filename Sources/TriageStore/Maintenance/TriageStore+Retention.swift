import TriageModel

/// The store's retention: how long raw events and complaints are kept, and where they now begin.
public struct Retention: Sendable, Equatable {
    /// The setting (`errtriage retention set 90d`): days of raw events to keep; nil keeps everything.
    public var keepDays: Int?
    /// The raw horizon: events and complaints before it were pruned (their figures live on in the
    /// rollups); nil when nothing was ever pruned.
    public var eventsSince: Timestamp?
    /// When retention last ran.
    public var prunedAt: Timestamp?
    /// How many days that last prune kept.
    public var prunedKeepDays: Int?

    public init(keepDays: Int? = nil, eventsSince: Timestamp? = nil, prunedAt: Timestamp? = nil, prunedKeepDays: Int? = nil) {
        self.keepDays = keepDays
        self.eventsSince = eventsSince
        self.prunedAt = prunedAt
        self.prunedKeepDays = prunedKeepDays
    }

    /// Whether the setting asks for a prune at `now`: it is set, and the last prune is a day old
    /// (or in the future), or kept more days than the setting says now.
    public func isDue(now: Timestamp) -> Bool {
        guard let keepDays else { return false }
        guard let last = prunedAt, now >= last, now.millis - last.millis < Timestamp.millisPerDay else { return true }
        return (prunedKeepDays ?? keepDays) > keepDays
    }
}

extension TriageStore {
    /// The keys of `meta` that hold retention (values are integers: days, milliseconds).
    enum RetentionKey {
        static let keepDays = "retention_days"
        /// Ingest writes no event before it: set first by a prune, before it counts what it removes.
        static let closedBefore = "events_closed_before"
        /// Events before it are counted in `pruned_*` and may be deleted (the raw horizon).
        static let since = "events_since"
        static let prunedAt = "pruned_at"
        /// The days the last prune kept: a setting made shorter since is due at once.
        static let prunedKeepDays = "pruned_keep_days"
    }

    /// Events in a bounded write transaction of a prune: short enough that an ingest or a mark,
    /// let in between two of them (`WriterTurns`), waits a moment at most, a loaded machine's too
    /// (20,000 took a second and more beside two CPU-bound processes).
    public static let pruneChunk = 5_000

    static func meta(_ db: SQLDatabase, _ key: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setMeta(_ db: SQLDatabase, _ key: String, _ value: Int64?) throws {
        guard let value else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            return
        }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }

    static func retention(_ db: SQLDatabase) throws -> Retention {
        Retention(keepDays: try meta(db, RetentionKey.keepDays).map { Int($0) },
                  eventsSince: try meta(db, RetentionKey.since).map(Timestamp.init(millis:)),
                  prunedAt: try meta(db, RetentionKey.prunedAt).map(Timestamp.init(millis:)),
                  prunedKeepDays: try meta(db, RetentionKey.prunedKeepDays).map { Int($0) })
    }

    /// The store's retention setting and raw horizon.
    public func retention() throws(StoreError) -> Retention {
        try read { db in try TriageStore.retention(db) }
    }

    /// Sets (or with nil, clears) how many days of raw events the store keeps; `ingest` and
    /// `serve` then prune on their own once a day (`applyRetentionIfDue`).
    public func setRetention(keepDays: Int?) throws(StoreError) {
        if let keepDays, keepDays < 1 { throw StoreError.usage("retention must keep at least 1 day, not \(keepDays)") }
        try write { db in try TriageStore.setMeta(db, RetentionKey.keepDays, keepDays.map(Int64.init)) }
    }

    /// The first instant a prune keeping `keepDays` at `now` keeps: the start of the month that
    /// holds the day `keepDays` before `now`. Whole months go, on both engines: PostgreSQL drops
    /// a month's partition, and a month's distinct users are counted once, from all its events.
    public static func retentionCut(keepDays: Int, now: Timestamp) -> Timestamp {
        let (year, month, _) = Timestamp.civil(fromDays: now.day - Int64(keepDays))
        return .startOf(day: Timestamp.daysFromCivil(year: year, month: month, day: 1))
    }

    /// Deletes raw events and complaints older than `keepDays` before `now` (whole months, see
    /// `retentionCut`) and keeps everything else: issues, chains, statuses and their history,
    /// notes, links, assignees, mutes, meetings, merges and every rollup. Counts what only the
    /// events knew (`pruned_*`) first, then deletes in short transactions (an ingest and a
    /// dashboard go on meanwhile) the events, the complaints and who was seen in the closed months
    /// (`issue_month_user`), then gives the space back where the engine can. A prune cut off part
    /// way is finished by the next one.
    public func prune(keepDays: Int, now: Timestamp, chunk: Int = TriageStore.pruneChunk) throws(StoreError) -> PruneResult {
        guard keepDays >= 1 else { throw StoreError.usage("a prune must keep at least 1 day, not \(keepDays)") }
        guard !readOnly else { throw engine.readOnlyError }
        let cut = TriageStore.retentionCut(keepDays: keepDays, now: now).millis
        var result = PruneResult()
        result.bytesBefore = try databaseBytes()
        // From here on no ingest writes an event before the cut, so the counts below are final.
        let since = try write { db in
            let closed = try TriageStore.meta(db, RetentionKey.closedBefore) ?? .min
            if cut > closed { try TriageStore.setMeta(db, RetentionKey.closedBefore, cut) }
            return try TriageStore.meta(db, RetentionKey.since)
        }
        if cut > since ?? .min {
            let figures = try read { db in try PrunedFigures(db, from: since, to: cut) }
            try write { db in
                // Another prune counted these months meanwhile: its figures stand.
                guard try TriageStore.meta(db, RetentionKey.since) == since else { return }
                try figures.insert(db)
                try TriageStore.setMeta(db, RetentionKey.since, cut)
            }
        }
        let horizon = try read { db in try TriageStore.meta(db, RetentionKey.since) }
        if let horizon {
            do {
                result.eventsDeleted = try engine.deleteEvents(before: horizon, chunk: chunk)
            } catch let error as StoreError { throw error } catch { throw StoreError.describing(error, path: target) }
            result.payloadsDeleted = try deletePayloads(before: horizon, chunk: chunk)
            result.complaintsDeleted = try deleteComplaints(before: horizon, chunk: chunk)
            try deleteMonthUsers(before: horizon, chunk: chunk)
            do { result.spaceNote = try engine.reclaimSpace() } catch { throw StoreError.describing(error, path: target) }
        }
        try write { db in
            try TriageStore.setMeta(db, RetentionKey.prunedAt, now.millis)
            try TriageStore.setMeta(db, RetentionKey.prunedKeepDays, Int64(keepDays))
        }
        result.eventsSince = horizon.map(Timestamp.init(millis:))
        result.bytesAfter = try databaseBytes()
        return result
    }

    /// Applies the store's retention setting when it is due (`Retention.isDue`). Nil when not due.
    public func applyRetentionIfDue(now: Timestamp) throws(StoreError) -> PruneResult? {
        guard !readOnly else { return nil }
        let setting = try retention()
        guard setting.isDue(now: now), let keep = setting.keepDays else { return nil }
        return try prune(keepDays: keep, now: now)
    }

    /// The store's upkeep, what `ingest` runs after its files and `serve` at its start and hourly:
    /// mutes whose condition came due are lifted, then the retention is applied when due.
    public func upkeep(now: Timestamp) throws(StoreError) -> Upkeep {
        var done = Upkeep(revived: try applyDueMutes(now: now))
        if let pruned = try applyRetentionIfDue(now: now) {
            done.pruned = pruned
            done.keepDays = try retention().keepDays
        }
        return done
    }

    /// Deletes who was seen in the months before `cut` (a month's start; the rows come first in the
    /// table's key), `chunk` rows per transaction: those months are closed to ingest, so their
    /// `issue_month.distinct_users` are final.
    /// Deletes the kept payloads of events before `cut` (their events are deleted by the engine),
    /// `chunk` at a time through `kept_payload_by_time`, taking them off their issues' counts, and
    /// the roles that pointed at them.
    func deletePayloads(before cut: Int64, chunk: Int) throws(StoreError) -> Int {
        var total = 0
        while true {
            let n = try write { db in
                let gone = try SQLRow.fetchAll(db, sql: """
                    DELETE FROM kept_payload WHERE id IN (SELECT id FROM kept_payload WHERE ts < ? LIMIT ?) RETURNING issue_id, bytes
                    """, arguments: [cut, chunk])
                var perIssue: [Int64: (n: Int, bytes: Int64)] = [:]
                for row in gone {
                    let issue: Int64 = try row.decode(0), bytes: Int64 = try row.decode(1)
                    perIssue[issue, default: (0, 0)].n += 1
                    perIssue[issue, default: (0, 0)].bytes += bytes
                }
                for (issue, freed) in perIssue {
                    try db.execute(sql: "UPDATE issue SET kept_payloads = kept_payloads - ?, kept_bytes = kept_bytes - ? WHERE id = ?",
                                   arguments: [freed.n, freed.bytes, issue])
                }
                if !perIssue.isEmpty {
                    try db.execute(sql: "DELETE FROM kept_role WHERE payload_id NOT IN (SELECT id FROM kept_payload)")
                }
                return gone.count
            }
            total += n
            if n < chunk { return total }
        }
    }

    func deleteMonthUsers(before cut: Int64, chunk: Int) throws(StoreError) {
        let month = Timestamp(millis: cut).day
        while try write({ db in
            try db.execute(sql: """
                DELETE FROM issue_month_user WHERE (month, issue_id, user_id) IN
                    (SELECT month, issue_id, user_id FROM issue_month_user WHERE month < ? LIMIT ?)
                """, arguments: [month, chunk])
            return db.changesCount
        }) >= chunk {}
    }

    /// Deletes the complaints before `cut` and their citations, `chunk` at a time. A complaint
    /// that cites a key no issue has yet stays: when that issue's first event comes, ingest counts
    /// the complaint for it (`issueState`), as it would have without the prune. Such complaints
    /// are few (a key users read out before any event carried it, or a mistyped one). Citations go
    /// by their complaint (`complaint_code_by_complaint`), which is also how the engine checks that
    /// no citation names a complaint deleted: a chunk's work follows its rows, not the table's.
    func deleteComplaints(before cut: Int64, chunk: Int) throws(StoreError) -> Int {
        // The citations carry their complaint's time: one pass finds those of unknown keys.
        let waiting = Set(try read { db in
            try Int64.fetchAll(db, sql: """
                SELECT DISTINCT k.complaint_id FROM complaint_code k
                WHERE k.ts < ? AND NOT EXISTS (SELECT 1 FROM issue i WHERE i.key = k.key)
                """, arguments: [cut])
        })
        var total = 0, after = Int64.min
        while true {
            let (n, last) = try write { db in
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM complaint WHERE ts < ? AND id > ? ORDER BY id LIMIT ?",
                                             arguments: [cut, after, chunk])
                guard let last = ids.last else { return (0, after) }
                let gone = ids.filter { !waiting.contains($0) }
                for slice in gone.slices(of: 500) {
                    let list = databaseQuestionMarks(count: slice.count)
                    try db.execute(sql: "DELETE FROM complaint_code WHERE complaint_id IN (\(list))", arguments: SQLArguments(slice))
                    try db.execute(sql: "DELETE FROM complaint WHERE id IN (\(list))", arguments: SQLArguments(slice))
                }
                return (gone.count, last)
            }
            total += n
            if last == after { return total }
            after = last
        }
    }
}

/// What only the pruned events knew, counted from them before they go: their figures per app
/// version and day (per issue and of all, issue 0), and the users of each version. (Their
/// distinct users per issue and month are kept at ingest, in `issue_month`.)
struct PrunedFigures {
    var versionDays: [[SQLValue]] = []
    var versionUsers: [(version: String, user: String)] = []

    init(_ db: SQLDatabase, from since: Int64?, to cut: Int64) throws {
        let first = try Int64.fetchOne(db, sql: "SELECT MIN(first_seen) FROM issue")
        guard (since ?? first ?? cut) < cut else { return }
        let day0 = TriageStore.floorBucket("ts", Timestamp.millisPerDay)
        let range = "ts >= ? AND ts < ? AND app_version IS NOT NULL"
        let lo = since ?? .min
        versionDays = try SQLRow.fetchAll(db, sql: """
            SELECT app_version, \(day0), issue_id, COUNT(*), COUNT(DISTINCT user_id), MIN(ts), MAX(ts) FROM event_row
            WHERE \(range) GROUP BY 1, 2, 3
            UNION ALL
            SELECT app_version, \(day0), 0, COUNT(*), COUNT(DISTINCT user_id), MIN(ts), MAX(ts) FROM event_row
            WHERE \(range) GROUP BY 1, 2
            """, arguments: [lo, cut, lo, cut]).map(\.values)
        versionUsers = try SQLRow.fetchAll(db, sql: """
            SELECT DISTINCT app_version, user_id FROM event_row WHERE \(range) AND user_id IS NOT NULL
            """, arguments: [lo, cut]).map { ((try $0.decode(0)), (try $0.decode(1))) }
    }

    func insert(_ db: SQLDatabase) throws {
        var day = try BoundStatement(db, sql: """
            INSERT INTO pruned_version_day (app_version, day, issue_id, events, users, first_ts, last_ts) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for values in versionDays {
            for value in values {
                switch value {
                case .integer(let n): day.bind(n)
                case .text(let s): day.bind(s)
                default: day.bind(nil as Int64?)
                }
            }
            try day.execute()
        }
        var user = try BoundStatement(db, sql: """
            INSERT INTO pruned_version_users (app_version, user_id) VALUES (?, ?) ON CONFLICT (app_version, user_id) DO NOTHING
            """)
        for row in versionUsers {
            user.bind(row.version)
            user.bind(row.user)
            try user.execute()
        }
    }
}
