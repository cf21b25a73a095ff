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
            let current = try TriageStore.versionFigures(db, version, from: from, to: to, size: size)
            let before = try previous.map { try TriageStore.versionFigures(db, $0, from: from, to: to, size: size) } ?? VersionFigures()
            let days = Timestamp(millis: from).day...Timestamp(millis: to - 1).day
            let active = try TriageStore.activeUsers(db, days: days)
            let adoptionKnown = active[version] != nil
            let users = TriageStore.userDays(current, active: active[version])
            let previousUsers = TriageStore.userDays(before, active: previous.flatMap { active[$0] })
            let ids = Array(Set(current.issues.keys).union(before.issues.keys))
            let chains = try TriageStore.chains(db, issueIDs: ids)
            var info: [Int64: (key: String, first: String?, kind: String?)] = [:]
            if !ids.isEmpty {
                for row in try Row.fetchAll(db, sql: "SELECT id, key, first_version, kind FROM issue WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                                            arguments: StatementArguments(ids)) {
                    info[row[0]] = (row[1], row[2], row[3])
                }
            }
            var comparison = ReleaseComparison(version: version, previous: previous, window: window, users: users,
                                               previousUsers: previousUsers, adoptionKnown: adoptionKnown,
                                               new: [], worse: [], better: [], gone: [])
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
                                       previousPerMille: ReleaseRule.perMille(then.userDays, of: previousUsers), series: series)
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
    }

    /// One version's figures in a period: per issue, and its users with any error per day.
    struct VersionFigures {
        var issues: [Int64: IssueFigures] = [:]
        var errorUsersByDay: [Int64: Int] = [:]
    }

    /// Reads a version's events in `[from, to)` through `event_by_version`.
    static func versionFigures(_ db: Database, _ version: String, from: Int64, to: Int64, size: Int64) throws -> VersionFigures {
        let day = floorBucket("ts", Timestamp.millisPerDay), bucket = floorBucket("ts", size)
        let arguments: StatementArguments = [version, from, to]
        let range = "app_version = ? AND ts >= ? AND ts < ?"
        var figures = VersionFigures()
        for row in try Row.fetchAll(db, sql: "SELECT issue_id, COUNT(*), COUNT(DISTINCT user_id) FROM event WHERE \(range) GROUP BY issue_id",
                                    arguments: arguments) {
            figures.issues[row[0]] = IssueFigures(events: row[1], users: row[2])
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT issue_id, COUNT(*) FROM (SELECT DISTINCT issue_id, \(day) AS d, user_id FROM event
                WHERE \(range) AND user_id IS NOT NULL) AS u GROUP BY issue_id
            """, arguments: arguments) {
            figures.issues[row[0]]?.userDays = row[1]
        }
        for row in try Row.fetchAll(db, sql: "SELECT issue_id, \(bucket), COUNT(*) FROM event WHERE \(range) GROUP BY 1, 2",
                                    arguments: arguments) {
            figures.issues[row[0]]?.series[row[1]] = row[2]
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT d, COUNT(*) FROM (SELECT DISTINCT \(day) AS d, user_id FROM event
                WHERE \(range) AND user_id IS NOT NULL) AS u GROUP BY d
            """, arguments: arguments) {
            figures.errorUsersByDay[row[0]] = row[1]
        }
        return figures
    }

    /// A version's users summed per day: active users on the days adoption covers, else (with no
    /// adoption for the version at all) the users who reported an error that day.
    static func userDays(_ figures: VersionFigures, active: [Int64: Int]?) -> Int {
        guard let active else { return figures.errorUsersByDay.values.reduce(0, +) }
        return active.values.reduce(0, +)
    }
}
