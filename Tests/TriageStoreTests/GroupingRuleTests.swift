import Foundation
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// Grouping rules on the engine under test: a rule made merges what it matches with its history,
/// new issues that match join it whatever their words, `--dry-run` changes nothing, and removing
/// the rule puts back what it merged.
@Suite struct GroupingRuleTests {
    static let now = TemporaryStore.sampleEnd

    /// A native event of a Go service's coupon lookup: the wrapper's message quotes the coupon,
    /// so each coupon's events are an issue of their own (a derived code per message).
    static func coupon(_ id: String, _ time: String, _ code: String, user: String? = nil, version: String? = nil) -> String {
        let derived = MessageTemplate.derivedCode(domain: "*fmt.wrapError", name: "load coupon \(code): not found")
        let links: [[String: Any]] = [
            ["domain": "APIError", "short": "AP", "code": 12, "name": "checkoutFailed"],
            ["domain": "*fmt.wrapError", "short": "WR", "code": derived, "name": "load coupon \(code): not found"],
            ["domain": "*errors.errorString", "short": "ES", "code": 1, "name": "not found"],
        ]
        var event: [String: Any] = ["event_id": id, "timestamp": time, "chain": links]
        if let user { event["user_id"] = user }
        if let version { event["app"] = ["version": version] }
        return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
    }

    static func key(_ code: String) -> String {
        "AP12-WR\(MessageTemplate.derivedCode(domain: "*fmt.wrapError", name: "load coupon \(code): not found"))-ES1"
    }

    /// Codes no test names: generated per run.
    static func randomCodes(_ n: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
        var codes = Set<String>()
        while codes.count < n {
            codes.insert(String((0..<(4 + Int(generator.next() % 5))).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
                + String(generator.next() % 100))
        }
        return codes.sorted()
    }

    static let query = #"message:"load coupon *: not found""#

    static func list(_ f: TemporaryStore) throws -> [IssueSummary] {
        try f.store.issueList(IssueQuery(window: .all, filter: .all, top: 1_000), now: now).issues
    }

    /// A store of three coupons' issues (the first seen first) and an unrelated one.
    static func store(_ codes: [String]) throws -> TemporaryStore {
        let f = try TemporaryStore()
        var lines: [String] = []
        for (n, code) in codes.enumerated() {
            for e in 0...n { lines.append(coupon("c\(n)-\(e)", "2026-11-1\(n + 1)T10:0\(e):00Z", code, user: "u\(e)")) }
        }
        lines += (0..<4).map { TemporaryStore.event("x\($0)", "2026-11-18T09:00:00Z") }
        try f.ingest(lines: lines)
        return f
    }

    @Test func aDryRunListsWhatTheRuleWouldTakeAndChangesNothing() throws {
        let codes = Self.randomCodes(3)
        let f = try Self.store(codes)
        let before = try Self.list(f)
        let preview = try f.store.groupingPreview(query: Self.query, name: "coupon")
        #expect(preview.issues.map(\.key) == codes.map(Self.key))
        #expect(preview.issues.map(\.role) == [.head, .joins, .joins])
        #expect(preview.events == 1 + 2 + 3)
        #expect(try Self.list(f) == before)
        #expect(try f.store.groupingRules().isEmpty)
    }

    @Test func aRuleMergesWhatItMatchesAndTakesNewIssuesWhateverTheirWords() throws {
        let codes = Self.randomCodes(5)
        let f = try Self.store(Array(codes.prefix(3)))
        let head = Self.key(codes[0])
        let made = try f.store.addGroupingRule(query: Self.query, name: "coupon", by: "ana", at: Self.now)
        #expect(made.taken.count == 3)
        var list = try Self.list(f)
        #expect(list.count == 2)
        let group = try #require(list.first { $0.key == head })
        #expect(group.events == 6)
        #expect(group.members.map(\.key) == codes.prefix(3).map(Self.key))
        #expect(try f.store.groupingRules().map(\.headKey) == [head])
        // The history says what merged whom: the rule.
        let history = try f.store.history(key: head)
        #expect(history.merges.map(\.member).sorted() == codes[1...2].map(Self.key).sorted())
        #expect(history.merges.allSatisfy { $0.by == "rule coupon" && $0.action == "merge" })

        // Next week's coupons, which no rule or test named before, join the rule's issue.
        let counts = try f.ingest(lines: [Self.coupon("n1", "2026-11-19T08:00:00Z", codes[3], user: "u9"),
                                          Self.coupon("n2", "2026-11-19T09:00:00Z", codes[4]),
                                          Self.coupon("n3", "2026-11-19T10:00:00Z", codes[4])])
        #expect(counts.issuesCreated == 2)
        list = try Self.list(f)
        #expect(list.count == 2)
        let grown = try #require(list.first { $0.key == head })
        #expect(grown.events == 9)
        #expect(grown.users == 4)  // u0, u1, u2 and u9
        #expect(try f.store.groupHead(of: Self.key(codes[4])) == head)
        #expect(try f.store.history(key: head).merges.count == 4)
    }

    @Test func removingTheRulePutsBackWhatItMergedAtOnceAndLater() throws {
        let codes = Self.randomCodes(4)
        let f = try Self.store(Array(codes.prefix(3)))
        let before = try Self.list(f)
        try f.store.addGroupingRule(query: Self.query, name: "coupon", by: "ana", at: Self.now)
        try f.ingest(lines: [Self.coupon("n1", "2026-11-19T08:00:00Z", codes[3])])
        let restored = try f.store.removeGroupingRule("coupon", by: "ana", at: Self.now)
        #expect(restored.sorted() == codes[1...].map(Self.key).sorted())
        let after = try Self.list(f)
        #expect(after.count == before.count + 1)
        // Each issue stands alone again with its own counts.
        for issue in before {
            let now = try #require(after.first { $0.key == issue.key })
            #expect(now.events == issue.events && now.users == issue.users && now.members.isEmpty, "\(issue.key)")
        }
        #expect(try f.store.groupingRules().isEmpty)
        // And the next new coupon stands alone: no rule takes it.
        try f.ingest(lines: [Self.coupon("n2", "2026-11-19T09:00:00Z", "FRESH" + codes[0])])
        #expect(try Self.list(f).count == before.count + 2)
    }

    @Test func aRuleThatMatchesNothingYetTakesItsIssueFromTheFirstNewOne() throws {
        let codes = Self.randomCodes(2)
        let f = try TemporaryStore()
        let made = try f.store.addGroupingRule(query: "key:AP12-* root:ES1", name: "coupon", by: "ana", at: Self.now)
        #expect(made.issues.isEmpty)
        #expect(try f.store.groupingRules().map(\.headKey) == [nil])
        try f.ingest(lines: [Self.coupon("a", "2026-11-19T08:00:00Z", codes[0]), Self.coupon("b", "2026-11-19T09:00:00Z", codes[1])])
        #expect(try f.store.groupingRules().map(\.headKey) == [Self.key(codes[0])])
        #expect(try Self.list(f).map(\.key) == [Self.key(codes[0])])
    }

    @Test func aNewMembersEventRegressesTheRulesResolvedIssue() throws {
        let codes = Self.randomCodes(2)
        let f = try Self.store([codes[0]])
        try f.store.addGroupingRule(query: Self.query, name: "coupon", by: "ana", at: Self.now)
        _ = try f.store.mark(Self.key(codes[0]), .status(.resolved, version: nil), by: "ana", at: Timestamp.parse("2026-11-18T00:00:00Z")!)
        // Resolved without a version: an event of a version not seen before brings it back.
        try f.ingest(lines: [Self.coupon("n", "2026-11-19T08:00:00Z", codes[1], version: "2.0")])
        #expect(try Self.list(f).first { $0.key == Self.key(codes[0]) }?.status == .regressed)
    }

    @Test func handMadeGroupsAreTakenWholeOrLeftWhereTheyAreAndComeBackOnRemoval() throws {
        let codes = Self.randomCodes(4)
        let f = try Self.store(Array(codes.prefix(3)))
        try f.ingest(lines: [TemporaryStore.event("y", "2026-11-18T10:00:00Z", codes: "US3-AP7-NE8")])
        // The second coupon heads a group with an unrelated issue; the third is a member of another's group.
        try f.store.merge([Self.key(codes[1]), "US3-AP7-NE8"], by: "bob", at: Self.now)
        try f.store.merge(["US14-LO43-AP7-NE8", Self.key(codes[2])], by: "bob", at: Self.now)
        let preview = try f.store.addGroupingRule(query: Self.query, name: "coupon", by: "ana", at: Self.now)
        #expect(preview.issues.map(\.role) == [.head, .joins, .joins, .inOtherGroup])
        #expect(preview.issues.last?.otherHead == "US14-LO43-AP7-NE8")
        #expect(try f.store.groupHead(of: "US3-AP7-NE8") == Self.key(codes[0]))
        #expect(try f.store.groupHead(of: Self.key(codes[2])) == "US14-LO43-AP7-NE8")
        try f.store.removeGroupingRule("coupon", by: "ana", at: Self.now)
        #expect(try f.store.groupHead(of: "US3-AP7-NE8") == Self.key(codes[1]))
        #expect(try f.store.groupHead(of: Self.key(codes[1])) == Self.key(codes[1]))
    }

    @Test(arguments: [
        ("events:>10", "counts over issues"), ("users:>=2 root:ES1", "counts over issues"), ("is:new", "counts over issues"),
        ("status:open", "a decision about an issue"), ("assignee:ana", "a decision about an issue"),
        ("env:production", "a fact of each event"), ("device:iPhone14,5", "a fact of each event"), ("user:u1", "a fact of each event"),
        ("-root:NE8", "a term that is not negated"), ("root:\"NE8", "opens a quote"),
    ])
    func aQueryARuleCannotHoldToIsRefusedWithASentence(_ query: String, _ why: String) throws {
        let f = try TemporaryStore()
        #expect(throws: StoreError.self) { try f.store.addGroupingRule(query: query, name: "r", by: "ana", at: Self.now) }
        do {
            try f.store.addGroupingRule(query: query, name: "r", by: "ana", at: Self.now)
        } catch {
            #expect(error.isUsageError)
            #expect(error.description.contains(why), "\(error.description)")
        }
        #expect(try f.store.groupingRules().isEmpty)
    }

    @Test func namesAreUniqueAndRemovalNamesTheRulesThereAre() throws {
        let f = try TemporaryStore()
        try f.store.addGroupingRule(query: "root:ES1", name: "a", by: "ana", at: Self.now)
        #expect(throws: StoreError.self) { try f.store.addGroupingRule(query: "root:NE8", name: "a", by: "ana", at: Self.now) }
        do {
            try f.store.removeGroupingRule("b", by: "ana", at: Self.now)
            Issue.record("an unknown rule was removed")
        } catch {
            #expect(error.description == "no rule is named b (there are a)")
        }
    }

    @Test func copyCarriesTheRulesAndWhatTheyMerged() throws {
        let codes = Self.randomCodes(3)
        let f = try Self.store(codes)
        try f.store.addGroupingRule(query: Self.query, name: "coupon", by: "ana", at: Self.now)
        let target = try TemporaryStore()
        let counts = try f.store.copy(to: target.store)
        #expect(counts["grouping_rule"] == 1)
        #expect(counts["grouping_rule_member"] == 2)
        #expect(try target.store.groupingRules() == f.store.groupingRules())
        #expect(try Self.list(target) == Self.list(f))
        // The copy's rule goes on taking new issues, and comes off as it would in the original.
        try target.ingest(lines: [Self.coupon("n", "2026-11-19T08:00:00Z", "NEW" + codes[0])])
        #expect(try Self.list(target).count == 2)
        #expect(try target.store.removeGroupingRule("coupon", by: "ana", at: Self.now).count == 3)
    }
}
