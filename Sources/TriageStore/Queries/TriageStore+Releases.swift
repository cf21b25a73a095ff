import TriageModel

extension TriageStore {
    /// Every app version with its figures over all the data, in release order.
    public func releases() throws(StoreError) -> [ReleaseSummary] {
        let day = TriageStore.floorBucket("ts", Timestamp.millisPerDay)
        return try read { db in
            var newIssues: [String: Int] = [:], regressions: [String: Int] = [:]
            for row in try SQLRow.fetchAll(db, sql: "SELECT first_version, COUNT(*) FROM issue WHERE first_version IS NOT NULL GROUP BY first_version") {
                newIssues[try row.decode(0)] = try row.decode(1)
            }
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT version, COUNT(DISTINCT issue_id) FROM status_change
                WHERE to_status = 'regressed' AND version IS NOT NULL GROUP BY version
                """) {
                regressions[try row.decode(0)] = try row.decode(1)
            }
            // Events before the raw horizon were pruned: their figures come from `pruned_version_day`
            // and `pruned_version_users`, counted from them before they went (exact, as before).
            let since = try TriageStore.meta(db, RetentionKey.since) ?? .min
            let active = try TriageStore.activeUsers(db, days: nil)
            var withError: [String: [Int64: Int]] = [:]
            if !active.isEmpty {
                for row in try SQLRow.fetchAll(db, sql: """
                    SELECT app_version, d, COUNT(*) FROM (
                        SELECT DISTINCT app_version, \(day) AS d, user_id FROM event
                        WHERE app_version IS NOT NULL AND user_id IS NOT NULL AND ts >= ?) AS u
                    GROUP BY app_version, d
                    UNION ALL
                    SELECT app_version, day, users FROM pruned_version_day WHERE issue_id = 0
                    """, arguments: [since]) {
                    withError[try row.decode(0), default: [:]][try row.decode(1)] = try row.decode(2)
                }
            }
            var figures: [String: (first: Int64, last: Int64, events: Int, users: Int, issues: Int)] = [:]
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT app_version, MIN(ts), MAX(ts), COUNT(*), COUNT(DISTINCT user_id), COUNT(DISTINCT issue_id)
                FROM event WHERE app_version IS NOT NULL AND ts >= ? GROUP BY app_version
                """, arguments: [since]) {
                figures[try row.decode(0)] = (try row.decode(1), try row.decode(2), try row.decode(3), try row.decode(4), try row.decode(5))
            }
            if since != .min {
                try TriageStore.addPrunedReleaseFigures(db, since: since, to: &figures)
            }
            var result: [ReleaseSummary] = []
            for (version, f) in figures {
                var summary = ReleaseSummary(version: version, firstSeen: Timestamp(millis: f.first), lastSeen: Timestamp(millis: f.last),
                                             users: f.users, events: f.events, issues: f.issues,
                                             newIssues: newIssues[version] ?? 0, regressions: regressions[version] ?? 0)
                if let days = active[version] {
                    let errors = withError[version] ?? [:]
                    summary.adoption = UserDays(active: days.values.reduce(0, +),
                                                withError: days.keys.reduce(0) { $0 + (errors[$1] ?? 0) })
                }
                result.append(summary)
            }
            let order = ReleaseRule.ordered(result.map(\.version))
            return result.sorted { order.firstIndex(of: $0.version)! < order.firstIndex(of: $1.version)! }
        }
    }

    /// The versions events name, in release order.
    public func versions() throws(StoreError) -> [String] {
        try read { db in
            ReleaseRule.ordered(try String.fetchAll(db, sql: "SELECT version FROM app_version"))
        }
    }

    /// Active users per version and day: a CSV's figure where one was given, else the distinct
    /// installations of the sessions export; `days` narrows to a range of day buckets.
    static func activeUsers(_ db: SQLDatabase, days: ClosedRange<Int64>?) throws -> [String: [Int64: Int]] {
        var result: [String: [Int64: Int]] = [:]
        let range = days.map { [$0.lowerBound, $0.upperBound] } ?? [Int64.min, Int64.max]
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT version, day, COUNT(DISTINCT installation) FROM adoption_session
            WHERE day BETWEEN ? AND ? GROUP BY version, day
            """, arguments: SQLArguments(range)) {
            result[try row.decode(0), default: [:]][try row.decode(1)] = try row.decode(2)
        }
        for row in try SQLRow.fetchAll(db, sql: "SELECT version, day, users FROM adoption_day WHERE day BETWEEN ? AND ?",
                                    arguments: SQLArguments(range)) {
            result[try row.decode(0), default: [:]][try row.decode(1)] = try row.decode(2)
        }
        return result
    }

    /// Writes adoption rows: a day's figure replaces the one stored for that day and version; a
    /// session already stored (by its id) is skipped. Counts the rows new or changed, and the sessions among them.
    static func writeAdoption(_ db: SQLDatabase, _ records: [AdoptionRecord], counts: inout IngestCounts) throws {
        for record in records {
            switch record {
            case let .daily(day, version, users, sessions):
                try db.execute(sql: """
                    INSERT INTO adoption_day (day, version, users, sessions) VALUES (?, ?, ?, ?)
                    ON CONFLICT (day, version) DO UPDATE SET users = excluded.users, sessions = excluded.sessions
                    """, arguments: [day, version, users, sessions])
            case let .session(id, at, version, installation):
                try db.execute(sql: """
                    INSERT INTO adoption_session (session_id, day, version, installation) VALUES (?, ?, ?, ?)
                    ON CONFLICT (session_id) DO NOTHING
                    """, arguments: [id, at.day, version, installation])
                counts.sessionsAdded += db.changesCount
            }
            counts.adoptionRows += db.changesCount
        }
    }

    /// Adds the pruned events' figures to each version's (`releases`): times and events from the
    /// days counted, users and issues again over the kept events and the pruned ones together.
    static func addPrunedReleaseFigures(_ db: SQLDatabase, since: Int64,
                                        to figures: inout [String: (first: Int64, last: Int64, events: Int, users: Int, issues: Int)]) throws {
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT app_version, MIN(first_ts), MAX(last_ts), SUM(events) FROM pruned_version_day WHERE issue_id = 0 GROUP BY app_version
            """) {
            let version: String = try row.decode(0), first: Int64 = try row.decode(1), last: Int64 = try row.decode(2), events: Int = try row.decode(3)
            if let f = figures[version] {
                figures[version] = (min(f.first, first), max(f.last, last), f.events + events, f.users, f.issues)
            } else {
                figures[version] = (first, last, events, 0, 0)
            }
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT v, COUNT(DISTINCT u) FROM (
                SELECT app_version AS v, user_id AS u FROM event WHERE app_version IS NOT NULL AND ts >= ?
                UNION ALL SELECT app_version, user_id FROM pruned_version_users) AS x
            GROUP BY v
            """, arguments: [since]) {
            figures[try row.decode(0)]?.users = try row.decode(1)
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT v, COUNT(DISTINCT i) FROM (
                SELECT app_version AS v, issue_id AS i FROM event WHERE app_version IS NOT NULL AND ts >= ?
                UNION ALL SELECT app_version, issue_id FROM pruned_version_day WHERE issue_id <> 0) AS x
            GROUP BY v
            """, arguments: [since]) {
            figures[try row.decode(0)]?.issues = try row.decode(1)
        }
    }
}
