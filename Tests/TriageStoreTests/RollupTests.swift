import TestSupport
import Testing
import TriageModel
@testable import TriageStore

@Suite struct RollupTests {
    @Test func dailyAndHourlyRollupsEqualNaiveCountsOverEvents() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 3_000), batch: 317)
        try f.store.read { db in
            let naiveDays = try SQLRow.fetchAll(db, sql: "SELECT issue_id, ts / 86400000 AS d, COUNT(*) FROM event GROUP BY issue_id, d ORDER BY 1, 2").map { [(try $0.decode(0)), (try $0.decode(1)), (try $0.decode(2))] as [Int64] }
            let rolledDays = try SQLRow.fetchAll(db, sql: "SELECT issue_id, day, events FROM issue_day WHERE events > 0 ORDER BY 1, 2").map { [(try $0.decode(0)), (try $0.decode(1)), (try $0.decode(2))] as [Int64] }
            #expect(naiveDays == rolledDays)
            let naiveHours = try SQLRow.fetchAll(db, sql: "SELECT issue_id, ts / 3600000 AS h, COUNT(*) FROM event GROUP BY issue_id, h ORDER BY 1, 2").map { [(try $0.decode(0)), (try $0.decode(1)), (try $0.decode(2))] as [Int64] }
            let rolledHours = try SQLRow.fetchAll(db, sql: "SELECT issue_id, hour, events FROM issue_hour WHERE events > 0 ORDER BY 1, 2").map { [(try $0.decode(0)), (try $0.decode(1)), (try $0.decode(2))] as [Int64] }
            #expect(naiveHours == rolledHours)
            let issueTotals = try Int.fetchOne(db, sql: "SELECT SUM(events) FROM issue")
            #expect(issueTotals == 3_000)
        }
    }

    @Test func dimensionRollupsEqualNaiveCountsForEveryDimension() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 2_000))
        try f.store.read { db in
            for dimension in Dimension.allCases {
                let expr = TriageStore.expression(dimension)
                let naive = try SQLRow.fetchAll(db, sql: """
                    SELECT issue_id, COALESCE(\(expr), 'unknown') AS v, COUNT(*) FROM event GROUP BY issue_id, v ORDER BY 1, 2
                    """).map { "\((try $0.decode(0)) as Int64) \((try $0.decode(1)) as String) \((try $0.decode(2)) as Int64)" }
                let rolled = try SQLRow.fetchAll(db, sql: """
                    SELECT issue_id, value, SUM(events) FROM issue_day_dim WHERE dim = ? GROUP BY issue_id, value ORDER BY 1, 2
                    """, arguments: [dimension.rawValue]).map { "\((try $0.decode(0)) as Int64) \((try $0.decode(1)) as String) \((try $0.decode(2)) as Int64)" }
                #expect(naive == rolled, "dimension \(dimension.rawValue)")
            }
        }
    }

    /// The 24-hour breakdowns, which read part of a day from the daily rollup and the rest from
    /// the events, equal a count of the window's events, whatever hour of the day the window ends
    /// at, and when later events exist (then all of it comes from the events).
    @Test func theTwentyFourHourBreakdownsEqualACountOfTheWindowsEvents() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 4_000, issues: 6, days: 4))
        let latest = try #require(try f.store.latestEventTime())
        try f.store.read { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM issue ORDER BY events DESC LIMIT 3")
            // Windows that end at every hour of the day after the latest event (no event after
            // them: part rollup, part events), and some that end before it (all from the events).
            let ends = (0..<26).map { latest.adding(millis: Int64($0) * Timestamp.millisPerHour) }
                + [3, 17, 50].map { latest.adding(millis: -$0 * Timestamp.millisPerHour) }
            var split = 0
            for now in ends {
                let buckets = try TriageStore.Buckets(db, window: .h24, now: now)
                if buckets.runsToLatest { split += 1 }
                for issues in [[ids[0]], [ids[1]], ids] {
                    let fast = try TriageStore.hourlyCounts(db, issueIDs: issues, buckets: buckets).mapValues { $0.filter { $0.value != 0 } }
                    let counted = try TriageStore.eventCounts(db, issueIDs: issues, hours: buckets.range)
                    #expect(fast == counted, "issues \(issues), 24h to \(now.iso8601)")
                }
            }
            #expect(split == 26)
        }
    }

    @Test func distinctUsersInTheListEqualNaiveDistinctCounts() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 2_000))
        let now = TemporaryStore.sampleEnd
        for window in [TimeWindow.h24, .d7, .d30, .all] {
            let list = try f.store.issueList(IssueQuery(window: window, top: 1_000), now: now)
            try f.store.read { db in
                let buckets = try TriageStore.Buckets(db, window: window, now: now)
                for issue in list.issues {
                    let naive = try Int.fetchOne(db, sql: """
                        SELECT COUNT(DISTINCT user_id) FROM event JOIN issue ON issue.id = event.issue_id
                        WHERE issue.key = ? AND ts BETWEEN ? AND ?
                        """, arguments: [issue.key, buckets.millis.lowerBound, buckets.millis.upperBound])
                    #expect(issue.users == naive, "\(issue.key) in \(window.rawValue)")
                    let events = try Int.fetchOne(db, sql: """
                        SELECT COUNT(*) FROM event JOIN issue ON issue.id = event.issue_id
                        WHERE issue.key = ? AND ts BETWEEN ? AND ?
                        """, arguments: [issue.key, buckets.millis.lowerBound, buckets.millis.upperBound])
                    #expect(issue.events == events, "\(issue.key) in \(window.rawValue)")
                }
            }
        }
    }

    @Test func complaintRollupsCountEachLinkedComplaintOncePerIssue() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 2_000))
        try f.store.read { db in
            let naive = try SQLRow.fetchAll(db, sql: """
                SELECT i.id, COUNT(*) FROM complaint_code k JOIN issue i ON i.key = k.key GROUP BY i.id ORDER BY 1
                """).map { [(try $0.decode(0)), (try $0.decode(1))] as [Int64] }
            let rolled = try SQLRow.fetchAll(db, sql: "SELECT issue_id, SUM(complaints) FROM issue_day GROUP BY issue_id HAVING SUM(complaints) > 0 ORDER BY 1")
                .map { [(try $0.decode(0)), (try $0.decode(1))] as [Int64] }
            #expect(naive == rolled)
            #expect(!naive.isEmpty)
        }
    }

    @Test func reingestingTheSameEventsChangesNothing() throws {
        let f = try TemporaryStore()
        let lines = TemporaryStore.sampleLines(events: 1_000)
        let first = try f.ingest(lines: lines)
        let before = try f.store.issueList(IssueQuery(window: .all, top: 1_000), now: TemporaryStore.sampleEnd)
        let second = try f.ingest(lines: lines, batch: 77)
        let after = try f.store.issueList(IssueQuery(window: .all, top: 1_000), now: TemporaryStore.sampleEnd)
        #expect(first.eventsAdded == 1_000)
        #expect(second.eventsAdded == 0)
        #expect(second.duplicates == 1_000)
        #expect(second.complaintsAdded == 0)
        #expect(before == after)
    }

    @Test func aComplaintCitingAKeyBeforeItsFirstEventCountsOnceTheIssueAppears() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [#"{"complaint_id":"t1","timestamp":"2026-11-01T10:00:00Z","text":"error US14-LO43-AP7-NE8 twice US14-LO43-AP7-NE8"}"#])
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        let list = try f.store.issueList(IssueQuery(window: .d7), now: Timestamp.parse("2026-11-02T00:00:00Z")!)
        #expect(list.issues.map(\.complaints) == [1])
    }
}
