import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// Merge groups against naive counts over the members' events.
@Suite struct MergeGroupTests {
    static let now = TemporaryStore.sampleEnd
    static let earlier = TemporaryStore.sampleEnd.adding(millis: -3 * Timestamp.millisPerDay)

    /// A sample store and its three busiest issues' keys.
    static func store() throws -> (TemporaryStore, [String]) {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 3_000))
        let keys = try f.store.issueList(IssueQuery(window: .all, top: 3), now: now).issues.map(\.key)
        return (f, keys)
    }

    /// Events, distinct users and series of some issues over the window's events, counted naively.
    static func naive(_ f: TemporaryStore, keys: [String], window: TimeWindow, now: Timestamp,
                      condition: String = "1 = 1") throws -> (events: Int, users: Int, series: [Int]) {
        try f.store.read { db in
            let b = try TriageStore.Buckets(db, window: window, now: now)
            let unit = b.hourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
            let marks = databaseQuestionMarks(count: keys.count)
            let scope = "FROM event e JOIN issue i ON i.id = e.issue_id WHERE i.key IN (\(marks)) AND e.ts BETWEEN ? AND ? AND \(condition)"
            let args = SQLArguments(keys) + [b.millis.lowerBound, b.millis.upperBound]
            let row = try SQLRow.fetchOne(db, sql: "SELECT COUNT(*), COUNT(DISTINCT e.user_id) \(scope)", arguments: args)!
            var series = [Int](repeating: 0, count: b.count)
            for r in try SQLRow.fetchAll(db, sql: "SELECT e.ts / \(unit), COUNT(*) \(scope) GROUP BY 1", arguments: args) {
                series[Int(((try r.decode(0)) as Int64) - b.range.lowerBound)] = try r.decode(1)
            }
            return ((try row.decode(0)), (try row.decode(1)), series)
        }
    }

    static let head = "US9-IN240-TA120-HT429", member = "US9-IN240-RE3-TA120-HT429"

    /// A store of `lines` with the refactored pair (`head`, `member`) merged.
    static func pair(_ lines: [String]) throws -> TemporaryStore {
        let f = try TemporaryStore()
        try f.ingest(lines: lines)
        try f.store.merge([head, member], by: "t", at: now)
        return f
    }

    @Test func aGroupCountsItsMembersEventsUsersAndSeriesAsANaiveCountDoes() throws {
        let (f, keys) = try Self.store()
        try f.store.merge(keys, by: "t", at: Self.now)
        for now in [Self.now, Self.earlier] {
            for window in [TimeWindow.h24, .d7, .d30, .all] {
                let list = try f.store.issueList(IssueQuery(window: window, filter: .all, top: 1_000), now: now)
                #expect(!list.issues.contains { keys.dropFirst().contains($0.key) }, "members leave the list")
                let naive = try Self.naive(f, keys: keys, window: window, now: now)
                let group = list.issues.first { $0.key == keys[0] }
                #expect((group?.events ?? 0) == naive.events, "\(window.rawValue)")
                #expect((group?.users ?? 0) == naive.users, "\(window.rawValue)")
                if let group {
                    #expect(group.series == naive.series, "\(window.rawValue)")
                    #expect(group.members.map(\.key) == keys)
                }
                let everything = try f.store.read { db in try String.fetchAll(db, sql: "SELECT key FROM issue") }
                #expect(list.totals.users == (try Self.naive(f, keys: everything, window: window, now: now)).users)
            }
        }
    }

    @Test func aGroupsUsersAreDistinctAcrossMembers() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [
            TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: "US9-IN240-TA120-HT429", user: "u1"),
            TemporaryStore.event("a2", "2026-11-20T11:00:00Z", codes: "US9-IN240-TA120-HT429", user: "u2"),
            TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: "US9-IN240-RE3-TA120-HT429", user: "u1"),
        ])
        try f.store.merge(["US9-IN240-TA120-HT429", "US9-IN240-RE3-TA120-HT429"], by: "t", at: Self.now)
        let group = try f.store.issueList(IssueQuery(window: .d7), now: Self.now).issues
        #expect(group.map(\.events) == [3])
        #expect(group.map(\.users) == [2])
        #expect(group.first?.members.map(\.users) == [2, 1])
    }

    @Test func aComplaintCitingTwoMembersCountsOnceInTheGroup() throws {
        let f = try Self.pair([
            TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: Self.head, user: "u1"),
            TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: Self.member, user: "u1"),
            TemporaryStore.complaint("c1", "2026-11-20T13:00:00Z", codes: [Self.head, Self.member]),
            TemporaryStore.complaint("c2", "2026-11-20T14:00:00Z", codes: [Self.member]),
        ])
        let group = try f.store.issueList(IssueQuery(window: .d7), now: Self.now).issues.first
        #expect(group?.complaints == 2)
        #expect(group?.members.map(\.complaints) == [1, 2])
        let detail = try f.store.issueDetail(key: Self.head, window: .d7, now: Self.now)
        #expect(detail.complaints.map(\.complaintID) == ["c2", "c1"])
    }

    @Test func theDetailOfAGroupSumsBreakdownsAndListsEachMembersOwnCounts() throws {
        let (f, keys) = try Self.store()
        let own = try keys.map { try f.store.issueDetail(key: $0, window: .d30, now: Self.now).summary }
        try f.store.merge(keys, by: "t", at: Self.now)
        let detail = try f.store.issueDetail(key: keys[1], window: .d30, now: Self.now)
        #expect(detail.summary.key == keys[0], "a member's key opens its group")
        #expect(detail.summary.members.map(\.events) == own.map(\.events))
        #expect(detail.summary.members.map(\.users) == own.map(\.users))
        #expect(detail.summary.events == own.reduce(0) { $0 + $1.events })
        for breakdown in detail.breakdowns {
            #expect(breakdown.rows.reduce(0) { $0 + $1.count } == detail.summary.events, "\(breakdown.dimension.rawValue)")
        }
        #expect(Set(detail.recentEvents.map(\.chain.shortKey)).isSubset(of: Set(keys)))
    }

    @Test func unmergeRestoresEveryListAndDetailUnchanged() throws {
        let (f, keys) = try Self.store()
        func everything() throws -> [String] {
            var out: [String] = []
            for window in [TimeWindow.h24, .d7, .all] {
                for mode in [RankMode.events, .users, .complaints] {
                    out.append("\(try f.store.issueList(IssueQuery(window: window, mode: mode, filter: .all), now: Self.now))")
                }
                for key in keys { out.append("\(try f.store.issueDetail(key: key, window: window, now: Self.now))") }
            }
            return out
        }
        let before = try everything()
        try f.store.merge(keys, by: "t", at: Self.now)
        #expect(try everything() != before)
        try f.store.unmerge(keys[1], by: "t", at: Self.now)
        try f.store.unmerge(keys[2], by: "t", at: Self.now)
        #expect(try everything() == before)
    }

    /// The dashboard's `u` after `J`: a merge that took a group along is taken back whole, that
    /// group's member under its head again, and the lists and details are as before it.
    @Test func undoingAMergePutsEveryIssueItMovedBackWhereItWas() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: TemporaryStore.sampleLines(events: 3_000))
        let keys = try f.store.issueList(IssueQuery(window: .all, top: 4), now: Self.now).issues.map(\.key)
        try f.store.merge([keys[2], keys[3]], by: "t", at: Self.now)
        func everything() throws -> [String] {
            var out: [String] = []
            for window in [TimeWindow.d7, .all] {
                out.append("\(try f.store.issueList(IssueQuery(window: window, filter: .all), now: Self.now))")
                for key in keys { out.append("\(try f.store.issueDetail(key: key, window: window, now: Self.now))") }
            }
            return out
        }
        let before = try everything()
        let receipt = try f.store.merge([keys[0], keys[1], keys[2]], by: "t", at: Self.now)
        #expect(receipt == MergeReceipt(head: keys[0], moved: [.init(key: keys[1], formerHead: nil), .init(key: keys[2], formerHead: nil),
                                                               .init(key: keys[3], formerHead: keys[2])]))
        #expect(try keys.map { try f.store.groupHead(of: $0) } == Array(repeating: keys[0], count: 4))
        #expect(try f.store.undoMerge(receipt, by: "t", at: Self.now) == [keys[1], keys[2], keys[3]])
        #expect(try keys.map { try f.store.groupHead(of: $0) } == [keys[0], keys[1], keys[2], keys[2]])
        #expect(try everything() == before)
        // Each move taken back has its history row, as an unmerge has.
        let rows = try f.store.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM merge_change WHERE action = 'unmerge'")
        }
        #expect(rows == 3)
    }

    /// An issue taken out of the group since the merge is left where it is; a second undo
    /// finds nothing left to take back.
    @Test func undoingAMergeLeavesWhatWasMovedSince() throws {
        let (f, keys) = try Self.store()
        let receipt = try f.store.merge(keys, by: "t", at: Self.now)
        try f.store.unmerge(keys[1], by: "t", at: Self.now)
        #expect(try f.store.undoMerge(receipt, by: "t", at: Self.now) == [keys[2]])
        #expect(try f.store.groupHead(of: keys[1]) == keys[1])
        #expect(try f.store.groupHead(of: keys[2]) == keys[2])
        #expect(try f.store.undoMerge(receipt, by: "t", at: Self.now).isEmpty)
    }

    @Test func marksOnAMemberActOnTheGroupsHead() throws {
        let (f, keys) = try Self.store()
        try f.store.merge(keys, by: "t", at: Self.now)
        _ = try f.store.mark(keys[2], .status(.resolved, version: nil), by: "t", at: Self.now)
        _ = try f.store.mark(keys[1], .note("one problem"), by: "t", at: Self.now)
        try f.store.assign(keys[1], to: "ana", by: "t", at: Self.now)
        let detail = try f.store.issueDetail(key: keys[0], window: .all, now: Self.now)
        #expect(detail.summary.status == .resolved)
        #expect(detail.summary.assignee == "ana")
        #expect(detail.notes.contains { $0.text == "one problem" })
        let resolved = try f.store.issueList(IssueQuery(window: .all, filter: .resolved), now: Self.now).issues
        #expect(resolved.map(\.key) == [keys[0]])
    }

    @Test func newEventsOfAMemberCountInTheGroupAndTheMergeSurvivesReingest() throws {
        let f = try TemporaryStore()
        let lines = [TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: Self.head, user: "u1"),
                     TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: Self.member, user: "u2")]
        try f.ingest(lines: lines)
        try f.store.merge([Self.head, Self.member], by: "t", at: Self.now)
        try f.ingest(lines: lines + [TemporaryStore.event("b2", "2026-11-20T13:00:00Z", codes: Self.member, user: "u3")])
        let issues = try f.store.issueList(IssueQuery(window: .d7), now: Self.now).issues
        #expect(issues.map(\.key) == [Self.head])
        #expect(issues.map(\.events) == [3])
        #expect(issues.map(\.users) == [3])
        #expect(try f.store.verify().isSound)
    }

    @Test func aMembersNewEventRegressesItsResolvedGroupAndAStragglerDoesNot() throws {
        let f = try Self.pair([TemporaryStore.event("a1", "2026-11-19T10:00:00Z", codes: Self.head, version: "1.12", user: "u1"),
                             TemporaryStore.event("b1", "2026-11-19T11:00:00Z", codes: Self.member, version: "1.12", user: "u2")])
        _ = try f.store.mark(Self.member, .status(.resolved, version: "1.13"), by: "t", at: Timestamp.parse("2026-11-19T12:00:00Z")!)
        try f.ingest(lines: [TemporaryStore.event("b2", "2026-11-20T10:00:00Z", codes: Self.member, version: "1.12", user: "u3")])
        #expect(try f.store.issueDetail(key: Self.head, window: .d7, now: Self.now).summary.status == .resolved)
        try f.ingest(lines: [TemporaryStore.event("b3", "2026-11-20T11:00:00Z", codes: Self.member, version: "1.13", user: "u3")])
        let detail = try f.store.issueDetail(key: Self.head, window: .d7, now: Self.now)
        #expect(detail.summary.status == .regressed)
        #expect(detail.history.first?.note?.contains("event b3") == true)
        #expect(try f.store.verify().isSound)
    }

    @Test func checkFindsAGroupWhoseHeadIsItselfAMember() throws {
        let (f, keys) = try Self.store()
        try f.store.merge([keys[0], keys[1]], by: "t", at: Self.now)
        #expect(try f.store.verify().isSound)
        try f.store.write { db in
            try db.execute(sql: "UPDATE issue SET group_id = (SELECT id FROM issue WHERE key = ?) WHERE key = ?", arguments: [keys[1], keys[2]])
        }
        #expect(try f.store.verify().problems.contains { $0.contains("itself a member") })
    }

    @Test func checkFindsAGroupSumThatDiffersFromItsMembersEvents() throws {
        let (f, keys) = try Self.store()
        try f.store.merge([keys[0], keys[1]], by: "t", at: Self.now)
        try f.store.write { db in
            try db.execute(sql: "UPDATE issue_day SET events = events + 1 WHERE issue_id = (SELECT id FROM issue WHERE key = ?) AND events > 0 AND day = (SELECT MAX(day) FROM issue_day)", arguments: [keys[1]])
        }
        #expect(try f.store.verify().problems.contains { $0.hasPrefix("group \(keys[0])") })
    }

    @Test func aQueryCountsAGroupsEventsAndUsersOverItsMembersMatchingEvents() throws {
        let (f, keys) = try Self.store()
        try f.store.merge(keys, by: "t", at: Self.now)
        let version = try f.store.read { db in
            try String.fetchOne(db, sql: "SELECT app_version FROM event WHERE app_version IS NOT NULL GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1")!
        }
        let list = try f.store.issueList(IssueQuery(window: .all, text: "version:\(version)", top: 1_000), now: Self.now)
        let naive = try Self.naive(f, keys: keys, window: .all, now: Self.now, condition: "e.app_version = '\(version)'")
        let group = list.issues.first { $0.key == keys[0] }
        #expect(group?.events == naive.events)
        #expect(group?.users == naive.users)
    }

    @Test func aWordMatchingAMembersChainListsTheWholeGroup() throws {
        let f = try Self.pair([TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: Self.head, user: "u1"),
                             TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: Self.member, user: "u2")])
        let issues = try f.store.issueList(IssueQuery(window: .d7, text: "RE3"), now: Self.now).issues
        #expect(issues.map(\.key) == [Self.head])
        #expect(issues.map(\.events) == [2])
        #expect(try f.store.issueList(IssueQuery(window: .d7, text: "events:>1"), now: Self.now).issues.map(\.key) == [Self.head])
    }

    @Test func anHourlyUsersAlertCountsTheGroupsUsersOverItsMembers() throws {
        let f = try Self.pair([TemporaryStore.event("a1", "2026-11-20T18:10:00Z", codes: Self.head, user: "u1"),
                             TemporaryStore.event("b1", "2026-11-20T18:20:00Z", codes: Self.member, user: "u2"),
                             TemporaryStore.event("b2", "2026-11-20T18:30:00Z", codes: Self.member, user: "u1")])
        let alert = AlertRule(name: "busy", query: "", measure: .users, threshold: 2, within: .h1)
        let now = Timestamp.parse("2026-11-20T18:40:00Z")!
        let group = try f.store.issueList(IssueQuery(window: .h24), now: now).issues[0]
        #expect(try f.store.alertCount(alert, group, now: now) == 2)
    }

    @Test func exportWithAQueryCarriesTheEventsOfEveryMemberOfAGroupItLetsThrough() throws {
        let f = try Self.pair([TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: Self.head, user: "u1"),
                             TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: Self.member, user: "u2")])
        var ids: [String] = []
        try f.store.exportEvents(window: .d7, now: Self.now, key: nil, search: IssueQuery(text: "HT429").search) { ids.append($0.eventID) }
        #expect(ids == ["a1", "b1"])
    }

    @Test func aMuteUntilNEventsCountsTheEventsOfEveryMember() throws {
        let f = try Self.pair([TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: Self.head, user: "u1"),
                             TemporaryStore.event("b1", "2026-11-20T11:00:00Z", codes: Self.member, user: "u2")])
        _ = try f.store.mute(Self.member, until: .events(2), by: "t", at: Self.now)
        try f.ingest(lines: [TemporaryStore.event("b2", "2026-11-20T12:00:00Z", codes: Self.member, user: "u2")])
        #expect(try f.store.applyDueMutes(now: Self.now).isEmpty)
        try f.ingest(lines: [TemporaryStore.event("b3", "2026-11-20T13:00:00Z", codes: Self.member, user: "u2")])
        #expect(try f.store.applyDueMutes(now: Self.now) == [Self.head])
    }

    @Test func refusalsAreUsageErrorsThatChangeNothing() throws {
        let (f, keys) = try Self.store()
        #expect(throws: StoreError.self) { try f.store.merge([keys[0], "US1-XX1"], by: "t", at: Self.now) }
        #expect(throws: StoreError.self) { try f.store.merge([keys[0]], by: "t", at: Self.now) }
        #expect(throws: StoreError.self) { try f.store.unmerge(keys[0], by: "t", at: Self.now) }
        for attempt in [{ _ = try f.store.merge([keys[0], keys[0]], by: "t", at: Self.now) },
                        { try f.store.unmerge(keys[1], by: "t", at: Self.now) }] {
            do { try attempt(); Issue.record("accepted") } catch let e as StoreError { #expect(e.isUsageError) }
        }
        let grouped = try f.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue WHERE group_id IS NOT NULL") }
        #expect(grouped == 0)
    }
}
