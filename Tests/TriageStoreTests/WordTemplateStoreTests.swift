import Foundation
import Testing
import TestSupport
import TriageModel
@testable import TriageStore

/// The templates a store learns at each place (schema 21's `word_template`), on both engines: a
/// link whose words decide its code joins the template of the messages before it, across writers
/// and runs; the key it was given first never changes; the name drops the words that vary, in the
/// issue's chain and the code dictionary.
@Suite struct WordTemplateStoreTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!
    static let place = "*fmt.wrapError"

    /// A wrap whose words decide (as `SentryLink` reads one without a stack), over a fixed root.
    static func event(_ id: String, _ words: String, minute: Int = 0) -> ErrorEvent {
        let tokens = WordTemplate.tokens(words)
        let wrap = ChainLink(domain: place, short: "", code: WordTemplate.code(place: place, tokens: tokens), name: words, origin: .derived)
        let root = ChainLink(domain: "*errors.errorString", short: "", code: 12345, name: "coupon not found", origin: .derived)
        return ErrorEvent(eventID: id, timestamp: Timestamp(millis: now.millis - Int64(60 - minute) * 60_000),
                          chain: ErrorChain(links: [wrap, root]), source: "sentry",
                          words: [LinkWords(link: 0, place: place, tokens: tokens, bySite: false)])
    }

    func issues(_ f: TemporaryStore) throws -> [(key: String, chain: String)] {
        try f.store.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT key, chain FROM issue ORDER BY id").map { ((try $0.decode(0)) as String, (try $0.decode(1)) as String) }
        }
    }

    @Test func aNewCouponCodeJoinsTheIssueOfTheOnesBeforeAcrossWritersAndItsNameDropsTheCode() throws {
        let f = try TemporaryStore()
        try IngestWriter(store: f.store).write(events: [Self.event("a", "load coupon SPRING<n>")], complaints: [])
        let first = try issues(f)
        #expect(first.count == 1 && first[0].chain.hasPrefix("*fmt.wrapError.load coupon SPRING<n> - "), "\(first)")
        // Another run: a new writer, new codes.
        try IngestWriter(store: f.store).write(events: [Self.event("b", "load coupon WELCOME", minute: 1),
                                                       Self.event("c", "load coupon vip", minute: 2)], complaints: [])
        let after = try issues(f)
        #expect(after.count == 1 && after[0].key == first[0].key, "\(after)")
        #expect(after[0].chain.hasPrefix("*fmt.wrapError.load coupon <value> - "), "\(after)")
        let decoded = try f.store.decode(after[0].key)
        #expect(decoded.first?.name?.name == "load coupon <value>", "\(decoded)")
        // Other first words are another failure.
        try IngestWriter(store: f.store).write(events: [Self.event("d", "save coupon vip", minute: 3)], complaints: [])
        #expect(try issues(f).count == 2)
        #expect(try f.store.verify().isSound)
    }

    @Test func twoTemplatesThatShareTheirFirstWordsButLittleElseGetTwoKeys() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        try writer.write(events: [Self.event("a", "load coupon for the spring sale"), Self.event("b", "load coupon from a partner feed", minute: 1)],
                         complaints: [])
        let keys = try issues(f).map(\.key)
        #expect(Set(keys).count == 2, "\(keys)")
        // The second keeps its own key in later runs.
        try IngestWriter(store: f.store).write(events: [Self.event("c", "load coupon from a partner feed", minute: 2)], complaints: [])
        #expect(try issues(f).map(\.key) == keys)
    }
}

/// A store made from schema 14 to 20 keeps its issues: an event whose key schema 21's grouping
/// changed joins the issue its prior key names, by an alias, and an issue may take several.
@Suite struct PriorGroupingAliasTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!

    static func link(_ domain: String, _ code: Int, _ name: String) -> ChainLink {
        ChainLink(domain: domain, short: "", code: code, name: name, origin: .derived)
    }

    static func event(_ id: String, _ links: [ChainLink], prior: [ChainLink]? = nil, minute: Int = 0) -> ErrorEvent {
        ErrorEvent(eventID: id, timestamp: Timestamp(millis: now.millis - Int64(60 - minute) * 60_000), chain: ErrorChain(links: links),
                   source: "sentry", priorChain: prior.map { FormerChain(links: $0.map { .read($0) }) })
    }

    @Test func eventsOfANewKeyJoinTheIssueTheirPriorKeyNamesAndAnIssueTakesSeveral() throws {
        let f = try TemporaryStore()
        let root = Self.link("KeyError", 20000, "'<value>'")
        // Before the upgrade: the same failure reached by two paths was two issues.
        try IngestWriter(store: f.store).write(events: [
            Self.event("a", [Self.link("ValueError", 11111, "invalid input"), root]),
            Self.event("b", [Self.link("ValueError", 22222, "invalid input"), root], minute: 1),
        ], complaints: [])
        let before = try f.store.read { db in try SQLRow.fetchAll(db, sql: "SELECT key FROM issue ORDER BY id").map { (try $0.decode(0)) as String } }
        try f.store.write { db in try TriageStore.setMeta(db, TriageStore.priorGroupingKey, 2) }
        // Since: one key for both paths; each path's first event finds its old issue.
        let now = [Self.link("ValueError", 33333, "invalid input"), root]
        try IngestWriter(store: f.store).write(events: [
            Self.event("c", now, prior: [Self.link("ValueError", 11111, "invalid input"), root], minute: 2),
            Self.event("d", now, prior: [Self.link("ValueError", 22222, "invalid input"), root], minute: 3),
            // Another new key whose prior key is the first issue's: its second alias.
            Self.event("e", [Self.link("ValueError", 44444, "invalid input"), root],
                       prior: [Self.link("ValueError", 11111, "invalid input"), root], minute: 4),
        ], complaints: [])
        let issues = try f.store.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT key, events FROM issue ORDER BY id").map { ((try $0.decode(0)) as String, (try $0.decode(1)) as Int) }
        }
        // No new issue: the new key became the first issue's alias, and the second path's event followed it.
        #expect(issues.map(\.0) == before, "\(issues)")
        #expect(issues.map(\.1) == [4, 1], "\(issues)")
        let notes = try f.store.read { db in try SQLRow.fetchAll(db, sql: "SELECT text FROM note").map { (try $0.decode(0)) as String } }
        #expect(notes.count == 2 && notes.allSatisfy { $0.contains("schema 21") && $0.contains("which keeps \(before[0])") }, "\(notes)")
        // A store made since has no prior issues and takes no alias.
        let fresh = try TemporaryStore()
        try IngestWriter(store: fresh.store).write(events: [Self.event("c", now, prior: [Self.link("ValueError", 11111, "invalid input"), root])],
                                                   complaints: [])
        #expect(try fresh.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM issue_alias") } == 0)
        #expect(try f.store.verify().isSound)
    }
}
