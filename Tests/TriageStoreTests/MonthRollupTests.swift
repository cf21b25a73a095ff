import SampleData
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// The month rollups (schema 12): `issue_month` sums `issue_day` by calendar month, and counts
/// each month's distinct users from `issue_month_user`, which a prune empties for the months it
/// closes while the counts stay.
@Suite struct MonthRollupTests {
    static let now = TemporaryStore.sampleEnd

    /// Seven months of events and complaints, written in many transactions.
    static func store(order: EventOrder = .day) throws -> TemporaryStore {
        let f = try TemporaryStore()
        var lines: [String] = []
        SampleGenerator(.init(events: 4_000, issues: 12, days: 200, seed: 3, end: now, order: order)).write { lines.append($0) }
        try f.ingest(lines: lines, batch: 317)
        return f
    }

    /// Distinct users per issue and month (its first day), counted in Swift over the events.
    static func naiveMonthUsers(_ store: TriageStore) throws -> [[Int64]: Set<String>] {
        try store.read { db in
            var users: [[Int64]: Set<String>] = [:]
            for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, ts, user_id FROM event WHERE user_id IS NOT NULL") {
                let month = Timestamp.monthStart(ofDay: Timestamp(millis: (try row.decode(1))).day)
                users[[(try row.decode(0)), month], default: []].insert((try row.decode(2)))
            }
            return users
        }
    }

    static func rows(_ store: TriageStore, _ sql: String) throws -> [[Int64]] {
        try store.read { db in try SQLRow.fetchAll(db, sql: sql).map { row in try (0..<row.count).map { (try row.decode($0)) as Int64 } } }
    }

    static func monthRows(_ store: TriageStore) throws -> [[Int64]] {
        try rows(store, "SELECT issue_id, month, events, complaints, users, distinct_users FROM issue_month ORDER BY 1, 2")
    }

    static func monthUserRows(_ store: TriageStore) throws -> [String] {
        try store.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT issue_id, month, user_id FROM issue_month_user ORDER BY 1, 2, 3").map {
                "\((try $0.decode(0)) as Int64) \((try $0.decode(1)) as Int64) \((try $0.decode(2)) as String)"
            }
        }
    }

    /// `issue_month_user` holds the months each user was seen in but their last. In day order a
    /// user's events come in their months' order; shuffled, most come after a later one of theirs.
    @Test(arguments: [EventOrder.day, .shuffled])
    func eachMonthSumsItsDaysAndCountsItsDistinctUsers(order: EventOrder) throws {
        let f = try Self.store(order: order)
        var summed: [[Int64]: [Int64]] = [:]
        for row in try Self.rows(f.store, "SELECT issue_id, day, events, complaints, users FROM issue_day") {
            let key = [row[0], Timestamp.monthStart(ofDay: row[1])]
            summed[key] = zip(summed[key] ?? [0, 0, 0], row[2...]).map(+)
        }
        let users = try Self.naiveMonthUsers(f.store)
        let months = try Self.monthRows(f.store)
        #expect(months.count == summed.count)
        #expect(months.count >= 12 * 6, "seven months of twelve issues")
        for month in months {
            let key = Array(month[0...1])
            #expect(Array(month[2...4]) == summed[key], "issue \(key[0]) month \(key[1])")
            #expect(month[5] == Int64(users[key]?.count ?? 0), "issue \(key[0]) month \(key[1])")
        }
        var seen: [String: (months: Set<Int64>, last: Int64)] = [:]
        try f.store.read { db in
            for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, user_id, ts FROM event WHERE user_id IS NOT NULL") {
                let pair = "\((try row.decode(0)) as Int64) \((try row.decode(1)) as String)", ts: Int64 = try row.decode(2)
                seen[pair, default: ([], .min)].months.insert(Timestamp.monthStart(ofDay: Timestamp(millis: ts).day))
                seen[pair]!.last = max(seen[pair]!.last, ts)
            }
        }
        let beforeLast = seen.flatMap { pair, user in
            user.months.subtracting([Timestamp.monthStart(ofDay: Timestamp(millis: user.last).day)]).map { month in
                let parts = pair.split(separator: " ")
                return "\(parts[0]) \(month) \(parts[1])"
            }
        }
        #expect(Set(try Self.monthUserRows(f.store)) == Set(beforeLast))
        #expect(!beforeLast.isEmpty)
        #expect(try f.store.verify().isSound)
    }

    @Test func historyGivesTheSameUsersPerMonthAfterAPruneAndCheckFindsItSound() throws {
        let f = try Self.store()
        let keys = try f.store.issueList(IssueQuery(window: .all, filter: .all, top: 100), now: Self.now).issues.map(\.key)
        let naive = try Self.naiveMonthUsers(f.store)
        let ids = Dictionary(uniqueKeysWithValues: try f.store.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT key, id FROM issue").map { ((try $0.decode(0)) as String, (try $0.decode(1)) as Int64) }
        })
        let before = try keys.map { try f.store.history(key: $0) }
        for history in before {
            for month in history.months {
                let first = Timestamp.parse(month.month + "-01")!.day
                #expect(month.users == naive[[ids[history.key]!, first]]?.count ?? 0, "\(history.key) \(month.month)")
            }
        }
        let pruned = try f.store.prune(keepDays: 30, now: Self.now)
        let horizon = try #require(pruned.eventsSince)
        #expect(pruned.eventsDeleted > 0)
        #expect(try keys.map { try f.store.history(key: $0) } == before)
        let left = try Self.rows(f.store, "SELECT COUNT(*) FROM issue_month_user WHERE month < \(horizon.day)")
        #expect(left == [[0]], "who was seen in the closed months goes with them")
        #expect(try f.store.verify().isSound)
    }

    /// Lists and details of windows longer than two months read whole months from `issue_month`
    /// and the days at the edges from `issue_day`, and the header's series `total_day`: each
    /// issue's events, users and complaints, and the totals, equal a count over the window's events
    /// and complaints, for windows that end mid-month, on a month's first or last day, before the
    /// latest data and after it.
    @Test func longWindowsCountAsTheEventsAndComplaintsInsideThem() throws {
        let f = try Self.store()
        let ends = ["2026-11-20T18:00:00Z", "2026-09-30T23:00:00Z", "2026-10-01T05:00:00Z", "2026-08-15T00:00:00Z", "2027-01-03T12:00:00Z"]
        var edges = Set<Int>()
        for end in ends {
            let now = Timestamp.parse(end)!
            for window in [TimeWindow.d90, .all, .d30] {
                let list = try f.store.issueList(IssueQuery(window: window, filter: .all, top: 1_000), now: now)
                try f.store.read { db in
                    let buckets = try TriageStore.Buckets(db, window: window, now: now)
                    let split = buckets.monthSplit
                    #expect((split != nil) == (window != .d30), "\(window.rawValue) to \(end)")
                    if let split { edges.insert(split.edges.count) }
                    let range: SQLArguments = [buckets.millis.lowerBound, buckets.millis.upperBound]
                    var naive: [String: [Int]] = [:]
                    for row in try SQLRow.fetchAll(db, sql: """
                        SELECT i.key, COUNT(*), COUNT(DISTINCT e.user_id) FROM event e JOIN issue i ON i.id = e.issue_id
                        WHERE e.ts BETWEEN ? AND ? GROUP BY i.key
                        """, arguments: range) {
                        naive[(try row.decode(0))] = [(try row.decode(1)), (try row.decode(2)), 0]
                    }
                    for row in try SQLRow.fetchAll(db, sql: """
                        SELECT k.key, COUNT(*) FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id
                        JOIN issue i ON i.key = k.key WHERE c.ts BETWEEN ? AND ? GROUP BY k.key
                        """, arguments: range) {
                        naive[(try row.decode(0)), default: [0, 0, 0]][2] = try row.decode(1)
                    }
                    #expect(Set(list.issues.map(\.key)) == Set(naive.keys), "\(window.rawValue) to \(end)")
                    for issue in list.issues {
                        #expect([issue.events, issue.users, issue.complaints] == naive[issue.key], "\(issue.key), \(window.rawValue) to \(end)")
                    }
                    let users = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT user_id) FROM event WHERE ts BETWEEN ? AND ?", arguments: range)
                    #expect(list.totals.users == users, "\(window.rawValue) to \(end)")
                    #expect(list.totals.events == naive.values.reduce(0) { $0 + $1[0] })
                    #expect(list.totals.complaints == naive.values.reduce(0) { $0 + $1[2] })
                    var daily = [Int](repeating: 0, count: buckets.count)
                    for row in try SQLRow.fetchAll(db, sql: "SELECT ts FROM event WHERE ts BETWEEN ? AND ?", arguments: range) {
                        daily[Int(Timestamp(millis: (try row.decode(0))).day - buckets.range.lowerBound)] += 1
                    }
                    #expect(list.totals.series == daily, "\(window.rawValue) to \(end)")
                }
                if let top = list.issues.first {
                    let detail = try f.store.issueDetail(key: top.key, window: window, now: now).summary
                    #expect([detail.events, detail.users, detail.complaints] == [top.events, top.users, top.complaints], "\(top.key)")
                }
            }
        }
        #expect(edges == [0, 1, 2], "windows of whole months, and with an edge at one end or both")
    }

    /// A store of schema 11 (no month rollups, no daily events of all issues; a prune's
    /// `pruned_month_users`) is given them on open: the same rows as the store that ingest kept
    /// them in, with the pruned months' users.
    @Test func aStoreOfSchema11GainsTheMonthRollupsAFreshStoreHas() throws {
        let f = try Self.store()
        let naive = try Self.naiveMonthUsers(f.store)
        let horizon = try #require(try f.store.prune(keepDays: 30, now: Self.now).eventsSince).day
        try f.ingest(lines: [TemporaryStore.event("late", "2026-11-20T17:30:00Z", user: "late-user")])
        let months = try Self.monthRows(f.store), seen = try Self.monthUserRows(f.store)
        let totalDays = try Self.rows(f.store, "SELECT day, users, events FROM total_day ORDER BY 1")
        let list = try f.store.issueList(IssueQuery(window: .all, filter: .all, top: 100), now: Self.now)
        let histories = try list.issues.map { try f.store.history(key: $0.key) }
        try f.store.write { db in
            // What schema 11's prune counted from the events it deleted.
            try db.execute(sql: """
                CREATE TABLE pruned_month_users (
                    issue_id BIGINT NOT NULL, month BIGINT NOT NULL, users BIGINT NOT NULL, PRIMARY KEY (issue_id, month))
                """)
            for (key, users) in naive where key[1] < horizon {
                try db.execute(sql: "INSERT INTO pruned_month_users VALUES (?, ?, ?)", arguments: [key[0], key[1], users.count])
            }
            try db.execute(sql: """
                DROP TABLE issue_month_user; DROP TABLE issue_month; ALTER TABLE total_day DROP COLUMN events;
                DROP INDEX complaint_code_by_complaint;
                ALTER TABLE project_key DROP COLUMN dsn_base;
                ALTER TABLE project DROP COLUMN repo; ALTER TABLE project DROP COLUMN path_map; ALTER TABLE project DROP COLUMN release_ref;
                DROP TABLE issue_alias; DELETE FROM meta WHERE key = '\(TriageStore.formerGroupingKey)'; DROP TABLE kept_payload; DROP TABLE kept_role; DROP TABLE payload_dictionary; ALTER TABLE issue DROP COLUMN kept_payloads; ALTER TABLE issue DROP COLUMN kept_bytes; DROP TABLE issue_day_facet; DROP TABLE grouping_rule_member; DROP TABLE grouping_rule;
                DROP TABLE word_template; DROP TABLE project_tag_key; DELETE FROM meta WHERE key = '\(TriageStore.priorGroupingKey)';
                DELETE FROM issue_day_dim WHERE dim IN ('environment', 'level');
                DROP VIEW event; ALTER TABLE event_row DROP COLUMN level_term; ALTER TABLE event_row DROP COLUMN facets_term; \(TriageStore.eventView(of: TriageStore.eventRowColumnsV10))
                """)
            try SchemaRewind.forgetSteps(after: 11, db)
        }
        let upgraded = try TriageStore(path: f.path)
        #expect(try upgraded.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        #expect(try Self.monthRows(upgraded) == months)
        #expect(try Self.monthUserRows(upgraded) == seen)
        #expect(try Self.rows(upgraded, "SELECT day, users, events FROM total_day ORDER BY 1") == totalDays)
        #expect(try upgraded.issueList(IssueQuery(window: .all, filter: .all, top: 100), now: Self.now) == list)
        #expect(try list.issues.map { try upgraded.history(key: $0.key) } == histories)
        #expect(try upgraded.verify().isSound)
    }
}
