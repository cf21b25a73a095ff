import TriageModel

extension TriageStore {
    /// `version` against `previous` (default: the version before it) over `window`: new, worse,
    /// better and gone issues by `ReleaseRule`. Rates count per day: on each day of the window, the
    /// users affected against the version's users that day (active users where adoption covers
    /// the day, else the users who reported any error in it), summed over the days.
    public func compareRelease(_ version: String, against previous: String? = nil, window: TimeWindow,
                               now: Timestamp) throws(StoreError) -> ReleaseComparison? {
        let versions = try versions()
        guard versions.contains(version) else { return nil }
        let previous = previous ?? ReleaseRule.previous(of: version, among: versions)
        let firstDay = try read { db in try Int64.fetchOne(db, sql: "SELECT MIN(first_seen) FROM issue") }.map { Timestamp(millis: $0).day }
        let hourly = window.isHourly
        let buckets: ClosedRange<Int64> = hourly ? TimeWindow.hourRange(now: now) : window.dayRange(now: now, firstDay: firstDay ?? now.day)
        let size = hourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
        let from = buckets.lowerBound * size, to = (buckets.upperBound + 1) * size
        return try read { db in
            // Before the raw horizon the events are gone: their figures come from `pruned_version_day`.
            let since = try TriageStore.meta(db, RetentionKey.since)
            let current = try TriageStore.versionFigures(db, version, from: from, to: to, size: size, since: since)
            let before = try previous.map { try TriageStore.versionFigures(db, $0, from: from, to: to, size: size, since: since) } ?? VersionFigures()
            let days = Timestamp(millis: from).day...Timestamp(millis: to - 1).day
            let active = try TriageStore.activeUsers(db, days: days)
            let adoptionKnown = active[version] != nil
            let users = TriageStore.userDays(current, active: active[version])
            let previousUsers = TriageStore.userDays(before, active: previous.flatMap { active[$0] })
            let ids = Array(Set(current.issues.keys).union(before.issues.keys))
            let chains = try TriageStore.chains(db, issueIDs: ids)
            var info: [Int64: (key: String, first: String?, kind: String?)] = [:]
            if !ids.isEmpty {
                for row in try SQLRow.fetchAll(db, sql: "SELECT id, key, first_version, kind FROM issue WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                                            arguments: SQLArguments(ids)) {
                    info[try row.decode(0)] = (try row.decode(1), try row.decode(2), try row.decode(3))
                }
            }
            var comparison = ReleaseComparison(version: version, previous: previous, window: window, users: users,
                                               previousUsers: previousUsers, adoptionKnown: adoptionKnown,
                                               new: [], worse: [], better: [], gone: [])
            if let since, from < since {
                comparison.rawEventsSince = Timestamp(millis: since)
                comparison.countsApproximate = current.countsApproximate || before.countsApproximate
            }
            for id in ids {
                guard let issue = info[id] else { continue }
                let now = current.issues[id] ?? IssueFigures(), then = before.issues[id] ?? IssueFigures()
                let change = ReleaseRule.classify(firstSeenInVersion: issue.first == version, users: now.userDays, of: users,
                                                  previousUsers: then.userDays, of: previousUsers)
                guard change != .same else { continue }
                let series = (0..<(buckets.count)).map { now.series[buckets.lowerBound + Int64($0)] ?? 0 }
                let row = ReleaseIssue(key: issue.key, chain: chains[id] ?? ErrorChain(links: []), kind: issue.kind.flatMap(EventKind.init(rawValue:)),
                                       users: now.users, events: now.events, previousUsers: then.users, previousEvents: then.events,
                                       perMille: ReleaseRule.perMille(now.userDays, of: users),
                                       previousPerMille: ReleaseRule.perMille(then.userDays, of: previousUsers), series: series,
                                       usersApproximate: now.usersApproximate || then.usersApproximate)
                switch change {
                case .new: comparison.new.append(row)
                case .worse: comparison.worse.append(row)
                case .better: comparison.better.append(row)
                case .gone: comparison.gone.append(row)
                case .same: break
                }
            }
            func byUsers(_ a: ReleaseIssue, _ b: ReleaseIssue) -> Bool {
                (a.users, a.events, b.key) > (b.users, b.events, a.key)
            }
            comparison.new.sort(by: byUsers)
            comparison.worse.sort { ($0.perMille - $0.previousPerMille, $1.key) > ($1.perMille - $1.previousPerMille, $0.key) }
            comparison.better.sort { ($0.previousPerMille - $0.perMille, $1.key) > ($1.previousPerMille - $1.perMille, $0.key) }
            comparison.gone.sort { ($0.previousUsers, $1.key) > ($1.previousUsers, $0.key) }
            return comparison
        }
    }

    /// One issue's figures in one version and period.
    struct IssueFigures {
        var events = 0
        var users = 0
        /// Users counted once per day they were affected.
        var userDays = 0
        var series: [Int64: Int] = [:]
        /// How many figures `users` was taken from: the kept events, and each pruned day. From
        /// more than one, `users` is the largest of them, a lower bound of the distinct users.
        var userSources = 0
        var usersApproximate: Bool { userSources > 1 }
    }

    /// One version's figures in a period: per issue, and its users with any error per day.
    struct VersionFigures {
        var issues: [Int64: IssueFigures] = [:]
        var errorUsersByDay: [Int64: Int] = [:]
        /// Pruned days reach into the window only in part (an hourly window), or span more than
        /// one of its buckets: they are left out, and the counts are a lower bound.
        var countsApproximate = false
    }

    /// Reads a version's events in `[from, to)` through `event_by_version`; before the raw
    /// horizon `since`, the figures the prune counted (`prunedVersionFigures`).
    static func versionFigures(_ db: SQLDatabase, _ version: String, from: Int64, to: Int64, size: Int64,
                               since: Int64? = nil) throws -> VersionFigures {
        let day = floorBucket("ts", Timestamp.millisPerDay), bucket = floorBucket("ts", size)
        // Events before the horizon that a prune under way has counted but not yet deleted are
        // read from its figures only.
        let arguments: SQLArguments = [version, max(from, since ?? .min), to]
        let range = "app_version = ? AND ts >= ? AND ts < ?"
        var figures = VersionFigures()
        for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, COUNT(*), COUNT(DISTINCT user_id) FROM event WHERE \(range) GROUP BY issue_id",
                                    arguments: arguments) {
            figures.issues[try row.decode(0)] = IssueFigures(events: try row.decode(1), users: try row.decode(2))
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT issue_id, COUNT(*) FROM (SELECT DISTINCT issue_id, \(day) AS d, user_id FROM event
                WHERE \(range) AND user_id IS NOT NULL) AS u GROUP BY issue_id
            """, arguments: arguments) {
            figures.issues[try row.decode(0)]?.userDays = try row.decode(1)
        }
        for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, \(bucket), COUNT(*) FROM event WHERE \(range) GROUP BY 1, 2",
                                    arguments: arguments) {
            figures.issues[try row.decode(0)]?.series[try row.decode(1)] = try row.decode(2)
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT d, COUNT(*) FROM (SELECT DISTINCT \(day) AS d, user_id FROM event
                WHERE \(range) AND user_id IS NOT NULL) AS u GROUP BY d
            """, arguments: arguments) {
            figures.errorUsersByDay[try row.decode(0)] = try row.decode(1)
        }
        for id in figures.issues.keys where figures.issues[id]!.users > 0 { figures.issues[id]!.userSources = 1 }
        if let since, from < since {
            try prunedVersionFigures(db, version, from: from, to: min(to, since), size: size, into: &figures)
        }
        return figures
    }

    /// Adds what the prune counted of a version's pruned days in `[from, to)`: per issue and
    /// day its events and distinct users (exact for events, user-days and a daily series; the
    /// distinct users over several days are a lower bound, `IssueFigures.usersApproximate`), and
    /// all issues' users per day. A day lying only in part in the window (an hourly window),
    /// or over more than one bucket, is left out and makes the counts approximate.
    static func prunedVersionFigures(_ db: SQLDatabase, _ version: String, from: Int64, to: Int64, size: Int64,
                                     into figures: inout VersionFigures) throws {
        guard from < to else { return }
        let days = (from / Timestamp.millisPerDay)...((to - 1) / Timestamp.millisPerDay)
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT issue_id, day, events, users, first_ts, last_ts FROM pruned_version_day
            WHERE app_version = ? AND day >= ? AND day <= ? AND last_ts >= ? AND first_ts < ?
            """, arguments: [version, days.lowerBound, days.upperBound, from, to]) {
            let issue: Int64 = try row.decode(0), day: Int64 = try row.decode(1), events: Int = try row.decode(2), users: Int = try row.decode(3)
            let first: Int64 = try row.decode(4), last: Int64 = try row.decode(5)
            guard first >= from, last < to else {
                figures.countsApproximate = true
                continue
            }
            if issue == 0 {
                figures.errorUsersByDay[day, default: 0] += users
                continue
            }
            var f = figures.issues[issue] ?? IssueFigures()
            f.events += events
            f.userDays += users
            f.series[first / size, default: 0] += events
            if last / size != first / size { figures.countsApproximate = true }
            if users > 0 {
                f.users = max(f.users, users)
                f.userSources += 1
            }
            figures.issues[issue] = f
        }
    }

    /// A version's users summed per day: active users on the days adoption covers, else (with no
    /// adoption for the version at all) the users who reported an error that day.
    static func userDays(_ figures: VersionFigures, active: [Int64: Int]?) -> Int {
        guard let active else { return figures.errorUsersByDay.values.reduce(0, +) }
        return active.values.reduce(0, +)
    }
}
