import TriageModel

extension TriageStore {
    /// Every app version with its figures over all the data, in release order.
    public func releases() throws(StoreError) -> [ReleaseSummary] {
        let day = TriageStore.floorBucket("ts", Timestamp.millisPerDay)
        return try read { db in
            var newIssues: [String: Int] = [:], regressions: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT first_version, COUNT(*) FROM issue WHERE first_version IS NOT NULL GROUP BY first_version") {
                newIssues[row[0]] = row[1]
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT version, COUNT(DISTINCT issue_id) FROM status_change
                WHERE to_status = 'regressed' AND version IS NOT NULL GROUP BY version
                """) {
                regressions[row[0]] = row[1]
            }
            let active = try TriageStore.activeUsers(db, days: nil)
            var withError: [String: [Int64: Int]] = [:]
            if !active.isEmpty {
                for row in try Row.fetchAll(db, sql: """
                    SELECT app_version, d, COUNT(*) FROM (
                        SELECT DISTINCT app_version, \(day) AS d, user_id FROM event
                        WHERE app_version IS NOT NULL AND user_id IS NOT NULL) AS u
                    GROUP BY app_version, d
                    """) {
                    withError[row[0], default: [:]][row[1]] = row[2]
                }
            }
            var result: [ReleaseSummary] = []
            for row in try Row.fetchAll(db, sql: """
                SELECT app_version, MIN(ts), MAX(ts), COUNT(*), COUNT(DISTINCT user_id), COUNT(DISTINCT issue_id)
                FROM event WHERE app_version IS NOT NULL GROUP BY app_version
                """) {
                let version: String = row[0]
                var summary = ReleaseSummary(version: version, firstSeen: Timestamp(millis: row[1]), lastSeen: Timestamp(millis: row[2]),
                                             users: row[4], events: row[3], issues: row[5],
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
    static func activeUsers(_ db: Database, days: ClosedRange<Int64>?) throws -> [String: [Int64: Int]] {
        var result: [String: [Int64: Int]] = [:]
        let range = days.map { [$0.lowerBound, $0.upperBound] } ?? [Int64.min, Int64.max]
        for row in try Row.fetchAll(db, sql: """
            SELECT version, day, COUNT(DISTINCT installation) FROM adoption_session
            WHERE day BETWEEN ? AND ? GROUP BY version, day
            """, arguments: StatementArguments(range)) {
            result[row[0], default: [:]][row[1]] = row[2]
        }
        for row in try Row.fetchAll(db, sql: "SELECT version, day, users FROM adoption_day WHERE day BETWEEN ? AND ?",
                                    arguments: StatementArguments(range)) {
            result[row[0], default: [:]][row[1]] = row[2]
        }
        return result
    }

    /// Writes adoption rows: a day's figure replaces the one stored for that day and version; a
    /// session already stored (by its id) is skipped. Counts the rows new or changed, and the sessions among them.
    static func writeAdoption(_ db: Database, _ records: [AdoptionRecord], counts: inout IngestCounts) throws {
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
}
