import Foundation
import TriageModel

/// What `verify` found: SQLite's own check, then every rollup recounted from the rows it sums.
public struct StoreCheck: Sendable {
    public var events = 0
    public var issues = 0
    public var complaints = 0
    /// One sentence per problem; empty when the store is sound.
    public var problems: [String] = []
    public var isSound: Bool { problems.isEmpty }
}

extension TriageStore {
    /// Checks the whole store: `PRAGMA integrity_check` and foreign keys, then each rollup against
    /// a naive count over the events and complaints, each issue's counts and first/last seen, and
    /// each issue's status against its history. Reads one snapshot; the recounts that read every
    /// event are made in one pass where the engine reads rows in place (`EventRecount`), the rest
    /// (and all of them on PostgreSQL, on the server) are SQL over the events (`GROUP BY`, then the
    /// rows only one side holds), so it takes seconds on millions (the dashboard never calls it).
    /// SQLite's integrity check runs beside the recounts, on another connection and thread.
    public func verify(limit: Int = 20) throws(StoreError) -> StoreCheck {
        // SQLite may list damage and then stop on it: keep the lines it gave and say it stopped.
        // Outside a transaction, whose commit would fail on the same damage.
        // (PostgreSQL checks its own pages and constraints as it writes.)
        let integrity = IntegrityCheck(engine)
        let recounted: Result<StoreCheck, StoreError>
        do { recounted = .success(try recount(limit: limit)) } catch { recounted = .failure(error) }
        let lines = integrity.lines()
        if lines != ["ok"] {
            // Counts over a damaged file would only add noise (or fail on the damage).
            return StoreCheck(problems: lines.prefix(min(5, limit)).map { "SQLite integrity check: \($0)" })
        }
        return try recounted.get()
    }

    /// `PRAGMA integrity_check` on a thread of its own, beside the recounts: on a store of
    /// millions of events it takes as long as a few of them.
    private final class IntegrityCheck: @unchecked Sendable {  // `result` is written on its thread before `done` is signalled, read after
        private var result: [String] = []
        private let done = DispatchSemaphore(value: 0)

        init(_ engine: any StoreEngine) {
            let thread = Thread { [self] in
                result = engine.integrityCheck()
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        func lines() -> [String] {
            done.wait()
            return result
        }
    }

    /// Every rollup against its recount, on one snapshot.
    private func recount(limit: Int) throws(StoreError) -> StoreCheck {
        try read { db in
            var check = StoreCheck()
            func problem(_ text: String) { if check.problems.count < limit { check.problems.append(text) } }
            try db.beginCheck()
            defer { db.endCheck() }

            if try db.hasDanglingReferences() {
                problem("a row refers to a missing issue or complaint")
            }

            // After a prune the raw rows begin at the horizon (a month's start): every recount keeps to
            // the buckets from there, and what lies before stays as the prune left it.
            let horizon = try TriageStore.meta(db, RetentionKey.since)
            let span = try SQLRow.fetchOne(db, sql: "SELECT MIN(day), MAX(day) FROM issue_day")
            let lo: Int64? = try span?.decode(0), hi: Int64? = try span?.decode(1)
            // Where rows are read in place, the recounts over every event in one pass.
            let pass = try db.scansInPlace
                ? EventRecount.read(db, since: horizon, monthSpan: lo.flatMap { lo in hi.map { Timestamp.monthStart(ofDay: lo)...$0 } })
                : nil

            try TriageStore.verifyTerms(db, missing: pass?.missingTerms, problem: problem)
            try TriageStore.verifyKeptPayloads(db, problem: problem)

            let h = horizon ?? 0, hHour = h / Timestamp.millisPerHour, hDay = h / Timestamp.millisPerDay
            func kept(_ column: String, _ bound: Int64) -> String { horizon == nil ? "" : " AND \(column) >= \(bound)" }
            let keptEvents = horizon == nil ? "" : " WHERE ts >= \(h)"
            check.events = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event\(keptEvents)") ?? 0
            check.issues = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue") ?? 0
            check.complaints = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM complaint") ?? 0

            for row in try SQLRow.fetchAll(db, sql: """
                SELECT i.key, i.events, COALESCE(e.n, 0) + COALESCE(p.n, 0), i.first_seen, e.lo, i.last_seen, e.hi
                FROM issue i LEFT JOIN (SELECT issue_id, COUNT(*) AS n, MIN(ts) AS lo, MAX(ts) AS hi FROM event\(keptEvents) GROUP BY issue_id) e
                  ON e.issue_id = i.id
                LEFT JOIN (SELECT issue_id, SUM(events) AS n FROM issue_day WHERE day < \(hDay) AND \(horizon == nil ? "1 = 0" : "1 = 1") GROUP BY issue_id) p
                  ON p.issue_id = i.id
                WHERE i.events != COALESCE(e.n, 0) + COALESCE(p.n, 0) OR (i.first_seen != e.lo\(kept("i.first_seen", h)))
                   OR (i.last_seen != e.hi\(kept("i.last_seen", h)))
                """) {
                let key: String = try row.decode(0), counted: Int = try row.decode(1), held: Int = try row.decode(2)
                problem("issue \(key) counts \(counted) events, the events table holds \(held) (or its first/last seen differ)")
            }

            let bucket = TriageStore.floorBucket
            let day = bucket("ts", Timestamp.millisPerDay), hour = bucket("ts", Timestamp.millisPerHour)
            let cday = bucket("c.ts", Timestamp.millisPerDay), chour = bucket("c.ts", Timestamp.millisPerHour)
            // Each user's last hour per issue and overall; users per bucket of their last hour.
            let lastHours = "SELECT issue_id, user_id, MAX(\(hour)) AS h FROM event WHERE user_id IS NOT NULL\(kept("ts", h)) GROUP BY 1, 2"
            let userLastHours = "SELECT user_id, MAX(\(hour)) AS h FROM event WHERE user_id IS NOT NULL\(kept("ts", h)) GROUP BY 1"
            let events = "event WHERE 1 = 1\(kept("ts", h))", complaints = "1 = 1\(kept("c.ts", h))"
            let hours = kept("hour", hHour), lastHour = kept("last_hour", hHour)
            let dayOfHour = bucket("h", 24)
            // Months: of the kept days, recounted like the days (from the events, or from `issue_day`
            // once its days are found equal to them); the months before the horizon from `issue_day`,
            // whose days there are what the events left.
            let months = TriageStore.monthTable(days: lo.flatMap { lo in hi.map { lo...$0 } })
            func inMonth(_ column: String, _ unit: String) -> String {
                "JOIN \(months) m ON \(column) >= m.first_\(unit) AND \(column) < m.end_\(unit)"
            }
            func prunedMonths(_ column: String) -> String {
                """
                 UNION ALL SELECT d.issue_id, m.month, SUM(d.\(column)) FROM issue_day d \(inMonth("d.day", "day"))
                WHERE d.day < \(hDay) AND \(horizon == nil ? "1 = 0" : "1 = 1") GROUP BY 1, 2 HAVING SUM(d.\(column)) != 0
                """
            }
            func monthsOfDays(_ column: String) -> String {
                "SELECT d.issue_id, m.month, SUM(d.\(column)) FROM issue_day d \(inMonth("d.day", "day")) WHERE d.\(column) != 0 GROUP BY 1, 2"
            }
            // Who was seen each month but their last (per issue), and each month's distinct users:
            // those rows and the months of `issue_user`'s last hours.
            let seenBeforeLast = """
                SELECT month, issue_id, user_id FROM (
                    SELECT month, issue_id, user_id, MAX(month) OVER (PARTITION BY issue_id, user_id) AS last FROM (
                        SELECT DISTINCT m.month, e.issue_id, e.user_id FROM event e \(inMonth("e.ts", "ms"))
                        WHERE e.user_id IS NOT NULL\(kept("e.ts", h))) AS s) AS w
                WHERE month < last
                """
            let seenInMonths = """
                SELECT issue_id, month FROM issue_month_user WHERE 1 = 1\(kept("month", hDay))
                UNION ALL SELECT u.issue_id, m.month FROM issue_user u \(inMonth("u.last_hour", "hour")) WHERE 1 = 1\(lastHour)
                """
            // A rollup that sums another (days of hours, users of their last hours) is recounted
            // from that other table once it has been found equal to its own recount over the
            // events: the same figures, without another pass over every event. When that table
            // differs, the recount reads the events, so each damage is named once, where it is.
            // A declared rollup's counter as stored (`RollupDeclaration.stored`), from the horizon on
            // unless `whole` (where the recount adds what lies before it).
            func stored(_ table: String, _ counter: String, whole: Bool = false) -> String {
                let rollup = TriageStore.currentSchema.rollup(table)
                return rollup.stored(counter, since: horizon == nil || whole ? nil : rollup.grain == .hour ? hHour : hDay)
            }
            let rollups: [(name: String, naive: String, from: (checked: String, sql: String)?, rollup: String)] = [
                ("hourly events", "SELECT issue_id, \(hour), COUNT(*) FROM \(events) GROUP BY 1, 2", nil,
                 stored("issue_hour", "events")),
                ("daily events", "SELECT issue_id, \(day), COUNT(*) FROM \(events) GROUP BY 1, 2",
                 ("hourly events", "SELECT issue_id, \(bucket("hour", 24)), SUM(events) FROM issue_hour WHERE events != 0\(hours) GROUP BY 1, 2"),
                 stored("issue_day", "events")),
                ("daily complaints", """
                    SELECT i.id, \(cday), COUNT(*) FROM complaint_code k
                    JOIN complaint c ON c.id = k.complaint_id JOIN issue i ON i.key = k.key WHERE \(complaints) GROUP BY 1, 2
                    """, nil, stored("issue_day", "complaints")),
                ("hourly complaints", """
                    SELECT i.id, \(chour), COUNT(*) FROM complaint_code k
                    JOIN complaint c ON c.id = k.complaint_id JOIN issue i ON i.key = k.key WHERE \(complaints) GROUP BY 1, 2
                    """, nil, stored("issue_hour", "complaints")),
                ("issue users", lastHours, nil, "SELECT issue_id, user_id, last_hour FROM issue_user WHERE 1 = 1\(lastHour)"),
                ("hourly users", "SELECT issue_id, h, COUNT(*) FROM (\(lastHours)) AS u GROUP BY 1, 2",
                 ("issue users", "SELECT issue_id, last_hour, COUNT(*) FROM issue_user WHERE 1 = 1\(lastHour) GROUP BY 1, 2"),
                 stored("issue_hour", "users")),
                ("daily users", "SELECT issue_id, \(dayOfHour), COUNT(*) FROM (\(lastHours)) AS u GROUP BY 1, 2",
                 ("issue users", "SELECT issue_id, \(bucket("last_hour", 24)), COUNT(*) FROM issue_user WHERE 1 = 1\(lastHour) GROUP BY 1, 2"),
                 stored("issue_day", "users")),
                ("all-issue users", userLastHours,
                 ("issue users", "SELECT user_id, MAX(last_hour) FROM issue_user WHERE 1 = 1\(lastHour) GROUP BY 1"),
                 "SELECT user_id, last_hour FROM user_seen WHERE 1 = 1\(lastHour)"),
                ("all-issue hourly users", "SELECT h, COUNT(*) FROM (\(userLastHours)) AS u GROUP BY 1",
                 ("all-issue users", "SELECT last_hour, COUNT(*) FROM user_seen WHERE 1 = 1\(lastHour) GROUP BY 1"),
                 stored("total_hour", "users")),
                ("all-issue daily users", "SELECT \(dayOfHour), COUNT(*) FROM (\(userLastHours)) AS u GROUP BY 1",
                 ("all-issue users", "SELECT \(bucket("last_hour", 24)), COUNT(*) FROM user_seen WHERE 1 = 1\(lastHour) GROUP BY 1"),
                 stored("total_day", "users")),
                ("all-issue daily events", """
                    SELECT \(day), COUNT(*) FROM \(events) GROUP BY 1
                    UNION ALL SELECT day, SUM(events) FROM issue_day WHERE day < \(hDay) AND \(horizon == nil ? "1 = 0" : "1 = 1")
                    GROUP BY day HAVING SUM(events) != 0
                    """, ("daily events", "SELECT day, SUM(events) FROM issue_day WHERE events != 0 GROUP BY day"),
                 stored("total_day", "events", whole: true)),
                ("monthly events", "SELECT e.issue_id, m.month, COUNT(*) FROM event e \(inMonth("e.ts", "ms")) WHERE 1 = 1\(kept("e.ts", h)) GROUP BY 1, 2"
                    + prunedMonths("events"), ("daily events", monthsOfDays("events")),
                 stored("issue_month", "events", whole: true)),
                ("monthly complaints", """
                    SELECT i.id, m.month, COUNT(*) FROM complaint_code k
                    JOIN complaint c ON c.id = k.complaint_id JOIN issue i ON i.key = k.key \(inMonth("c.ts", "ms")) WHERE \(complaints) GROUP BY 1, 2
                    """ + prunedMonths("complaints"), ("daily complaints", monthsOfDays("complaints")),
                 stored("issue_month", "complaints", whole: true)),
                ("monthly users", "SELECT u.issue_id, m.month, COUNT(*) FROM (\(lastHours)) AS u \(inMonth("u.h", "hour")) GROUP BY 1, 2"
                    + prunedMonths("users"), ("daily users", monthsOfDays("users")),
                 stored("issue_month", "users", whole: true)),
                ("users seen per month", seenBeforeLast, nil,
                 "SELECT month, issue_id, user_id FROM issue_month_user WHERE 1 = 1\(kept("month", hDay))"),
                ("distinct users per month", """
                    SELECT e.issue_id, m.month, COUNT(DISTINCT e.user_id) FROM event e \(inMonth("e.ts", "ms"))
                    WHERE e.user_id IS NOT NULL\(kept("e.ts", h)) GROUP BY 1, 2
                    """, ("users seen per month and issue users", "SELECT issue_id, month, COUNT(*) FROM (\(seenInMonths)) AS s GROUP BY 1, 2"),
                 stored("issue_month", "distinct_users")),
                ("breakdown", TriageStore.breakdownRecount(day: day, where: "1 = 1\(kept("ts", h))"), nil,
                 stored("issue_day_dim", "events")),
                ("versions", """
                    SELECT app_version FROM event WHERE app_version IS NOT NULL\(kept("ts", h))
                    UNION SELECT app_version FROM pruned_version_day
                    """, nil, "SELECT version FROM app_version"),
            ]
            // The recounts the pass made, compared in Swift.
            let inPass: [String: () throws -> Int] = pass.map { pass in
                ["hourly events": { try pass.hourlyEventsDiffer(db, since: horizon.map { _ in hHour }) },
                 "issue users": { try pass.issueUsersDiffer(db, since: horizon.map { _ in hHour }) },
                 "users seen per month": { try pass.monthUsersDiffer(db, since: horizon.map { _ in hDay }) },
                 "breakdown": { try pass.breakdownDiffers(db, since: horizon.map { _ in hDay }) }]
            } ?? [:]
            var equal = Set<String>()
            for rollup in rollups {
                if let compare = inPass[rollup.name] {
                    let differ = try compare()
                    if differ > 0 {
                        problem("the \(rollup.name) rollup differs from a recount of the rows in \(differ) places")
                    } else {
                        equal.insert(rollup.name)
                    }
                    continue
                }
                // (A recount from two tables names both: "a and b".)
                let recount = rollup.from.flatMap { from in
                    from.checked.split(separator: " and ").allSatisfy { equal.contains(String($0)) } ? from.sql : nil
                } ?? rollup.naive
                // The rows only one side holds (as EXCEPT both ways counts them), with the recount run once.
                let columns = (1...(try db.columnCount(sql: rollup.rollup))).map { "c\($0)" }.joined(separator: ", ")
                let differ = try Int.fetchOne(db, sql: """
                    WITH naive(\(columns)) AS (\(recount)), rolled(\(columns)) AS (\(rollup.rollup))
                    SELECT COUNT(*) FROM (
                      SELECT \(columns) FROM (SELECT \(columns), 1 AS side FROM naive UNION ALL SELECT \(columns), 2 FROM rolled) AS s
                      GROUP BY \(columns) HAVING MIN(side) = MAX(side)) AS d
                    """) ?? 0
                if differ > 0 {
                    problem("the \(rollup.name) rollup differs from a recount of the rows in \(differ) places")
                } else {
                    equal.insert(rollup.name)
                }
            }
            let misfiled = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM complaint c
                WHERE c.linked != CASE WHEN c.id IN (SELECT k.complaint_id FROM complaint_code k JOIN issue i ON i.key = k.key) THEN 1 ELSE 0 END
                """) ?? 0
            let untimed = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id WHERE k.ts != c.ts
                """) ?? 0
            if untimed > 0 { problem("\(untimed) citations of complaints give another time than their complaint's") }
            if misfiled > 0 { problem("\(misfiled) complaints are marked linked to an issue (or not) against the issues they cite") }
            try verifyKinds(db, since: horizon, kinds: pass?.kindTexts, problem: problem)
            try TriageStore.verifyFacets(db, since: horizon, combinations: pass?.facets, problem: problem)
            try TriageStore.verifyGroups(db, since: horizon, problem: problem)

            for row in try SQLRow.fetchAll(db, sql: """
                SELECT key, status, last FROM (
                    SELECT i.key, i.status, (SELECT to_status FROM status_change s WHERE s.issue_id = i.id ORDER BY s.id DESC LIMIT 1) AS last
                    FROM issue i) AS h
                WHERE status != COALESCE(last, 'open')
                """) {
                let key: String = try row.decode(0), status: String = try row.decode(1), last: String? = try row.decode(2)
                problem("issue \(key) is \(status) but its history ends at \(last ?? "no change (open)")")
            }
            return check
        }
    }

    /// The calendar months that hold `days` as a derived table: `month` (its first day) and where
    /// it starts and ends (`first_` inclusive, `end_` exclusive) in days, hours and milliseconds;
    /// the same SQL on both engines, no rows when `days` is nil.
    static func monthTable(days: ClosedRange<Int64>?) -> String {
        var rows: [String] = []
        var day = days.map { Timestamp.monthStart(ofDay: $0.lowerBound) } ?? 0
        while let days, day <= days.upperBound {
            let next = Timestamp.nextMonthStart(ofDay: day)
            let bounds = [day, next, day * 24, next * 24, day * Timestamp.millisPerDay, next * Timestamp.millisPerDay]
            // Cast, so that PostgreSQL takes every column as bigint.
            rows.append("(" + ([day] + bounds).map { "CAST(\($0) AS BIGINT)" }.joined(separator: ", ") + ")")
            day = next
        }
        let names = ["month", "first_day", "end_day", "first_hour", "end_hour", "first_ms", "end_ms"]
        let columns = names.enumerated().map { "column\($0.offset + 1) AS \($0.element)" }.joined(separator: ", ")
        let values = rows.isEmpty ? "(" + Array(repeating: "CAST(0 AS BIGINT)", count: names.count).joined(separator: ", ") + ")" : rows.joined(separator: ", ")
        return "(SELECT \(columns) FROM (VALUES \(values)) AS v)"
    }

    /// How much of a store `check` maps into memory at most (SQLite caps it at its own limit).
    static let checkMapBytes: Int64 = 1 << 40

    /// Each issue's events per breakdown value and day, counted in SQL: a value is what
    /// `Dimension.value(of:)` gives (the OS as name and version), `unknown` where the event has none.
    /// The events are read once, into their combinations of values per issue and day, and each
    /// dimension is summed from those (one GROUP BY over every event per dimension took a third
    /// longer, most of `check`).
    static func breakdownRecount(day: String, where condition: String = "1 = 1") -> String {
        // The same values per dimension as the detail's counts over events.
        let combinations = dimensionCombinations(keys: [("issue_id", "i"), (day, "d")], where: condition)
        let columns = Dimension.allCases.indices.map { "v\($0)" }
        let sums = zip(Dimension.allCases, columns).map { dim, column in
            "SELECT i, '\(dim.rawValue)', \(column), d, SUM(n) FROM c GROUP BY i, \(column), d"
        }
        return "WITH c AS MATERIALIZED (\(combinations)) " + sums.joined(separator: " UNION ALL ")
    }

    /// Every text in `term` once, and every id an event names there.
    /// `missing`: the events that name a missing id, where a pass over the events counted them.
    static func verifyTerms(_ db: SQLDatabase, missing counted: Int? = nil, problem: (String) -> Void) throws {
        let twice = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT value FROM term GROUP BY value HAVING COUNT(*) > 1) AS d") ?? 0
        if twice > 0 { problem("\(twice) texts are stored more than once in the term dictionary") }
        let named = termColumns.map { "(\($0)_term IS NOT NULL AND \($0)_term NOT IN (SELECT id FROM term))" }
        let missing = try counted ?? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_row WHERE \(named.joined(separator: " OR "))") ?? 0
        if missing > 0 { problem("\(missing) events name a text the term dictionary does not hold") }
    }

    /// Each issue's kind against the most severe of its events' (`kinds`: each issue's kinds as
    /// their texts, where a pass over the events read them).
    private func verifyKinds(_ db: SQLDatabase, since horizon: Int64?, kinds: [(issue: Int64, kind: String)]? = nil,
                             problem: (String) -> Void) throws {
        var worst: [Int64: EventKind] = [:]
        let named = try kinds ?? SQLRow.fetchAll(db, sql: """
            SELECT d.issue_id, t.value FROM (SELECT DISTINCT issue_id, kind_term FROM event_row
                                             WHERE kind_term IS NOT NULL AND ts >= ?) AS d
            JOIN term t ON t.id = d.kind_term
            """, arguments: [horizon ?? .min]).map { row throws(StoreError) in (try row.decode(0), try row.decode(1)) }
        for (issueID, value) in named {
            guard let kind = EventKind(rawValue: value) else { problem("an event has the unknown kind '\(value)'"); continue }
            worst[issueID] = EventKind.worst(worst[issueID], kind)
        }
        for row in try SQLRow.fetchAll(db, sql: "SELECT id, key, kind, first_seen FROM issue") {
            let id: Int64 = try row.decode(0), key: String = try row.decode(1), firstSeen: Int64 = try row.decode(3)
            let stored = try row.decode(2, as: String?.self).flatMap(EventKind.init(rawValue:))
            // An issue with pruned events may have had a worse kind among them than the kept ones show.
            let pruned = horizon.map { firstSeen < $0 } ?? false
            if pruned ? EventKind.worst(stored, worst[id]) != stored : stored != worst[id] {
                problem("issue \(key) is of kind \(stored?.rawValue ?? "none"), its events say \(worst[id]?.rawValue ?? "none")")
            }
        }
    }
}

extension TriageStore {
    /// Every kept payload belongs to a stored event, and every role points at a kept payload.
    static func verifyKeptPayloads(_ db: SQLDatabase, problem: (String) -> Void) throws {
        let orphans = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM kept_payload p
            WHERE NOT EXISTS (SELECT 1 FROM event_row e WHERE e.issue_id = p.issue_id AND e.ts = p.ts AND e.id = p.id)
            """) ?? 0
        if orphans > 0 { problem("\(orphans) kept payloads belong to no stored event") }
        let dangling = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM kept_role r WHERE NOT EXISTS (SELECT 1 FROM kept_payload p WHERE p.id = r.payload_id)
            """) ?? 0
        if dangling > 0 { problem("\(dangling) roles of kept events point at no kept payload") }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT i.key, i.kept_payloads, COALESCE(k.n, 0), i.kept_bytes, COALESCE(k.b, 0)
            FROM issue i LEFT JOIN (SELECT issue_id, COUNT(*) AS n, SUM(bytes) AS b FROM kept_payload GROUP BY issue_id) k ON k.issue_id = i.id
            WHERE i.kept_payloads != COALESCE(k.n, 0) OR i.kept_bytes != COALESCE(k.b, 0)
            """) {
            let key: String = try row.decode(0), counted: Int = try row.decode(1), held: Int = try row.decode(2)
            problem("issue \(key) counts \(counted) kept events, the store keeps \(held) (or their bytes differ)")
        }
    }
}
