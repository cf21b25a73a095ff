import SampleData
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// The platform breakdown (one `Dimension` declaration) against a naive count over the events as
/// they were sent, on the engine under test: the rollup, the detail's pane, the `platform:` term,
/// `check`, and schema 24's step, which files the events a store held before it.
@Suite(.serialized) struct PlatformBreakdownTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// 600 events of two failures over five days from a web front end and its mobile apps (one
    /// event in six names no platform).
    static let sent: [ErrorEvent] = {
        var rng = SplitMix(seed: 24)
        return (0..<600).map { i in
            let failure = Int(rng.next() % 2)
            let chain = ErrorChain(links: [ChainLink(domain: "Cart\(failure)", short: "", code: 200 + failure, name: "failure \(failure)",
                                                     origin: .derived)])
            let millis = now.millis - 1 - Int64(rng.next() % UInt64(5 * Timestamp.millisPerDay))
            let platform = i % 6 == 0 ? nil : ["javascript", "cocoa", "java", "python"][Int(rng.next() % 4)]
            return ErrorEvent(eventID: "p\(i)", timestamp: Timestamp(millis: millis), chain: chain, platform: platform,
                              userID: "u\(rng.next() % 30)", source: "sentry")
        }
    }()

    static func store() throws -> TemporaryStore {
        let f = try TemporaryStore()
        for slice in sent.slices(of: 200) { try IngestWriter(store: f.store).write(events: Array(slice), complaints: []) }
        return f
    }

    /// Events per issue (by its key), platform and day, counted from what was sent.
    static func naive(keys: [String: String]) -> [String] {
        var counts: [String: Int] = [:]
        for e in sent { counts["\(keys[e.eventID]!) \(e.platform ?? "unknown") \(e.timestamp.day)", default: 0] += 1 }
        return counts.map { "\($0.key) \($0.value)" }.sorted()
    }

    @Test func theRollupTheDetailAndCheckCountEachPlatformAsTheEventsDo() throws {
        let f = try Self.store()
        let keys = try EnvironmentLevelTests.keys(f)
        #expect(keys.count == Self.sent.count && Set(keys.values).count == 2)
        #expect(try EnvironmentLevelTests.rolled(f, .platform) == Self.naive(keys: keys))
        for key in Set(keys.values) {
            let detail = try f.store.issueDetail(key: key, window: .d7, now: Self.now)
            var counts: [String: Int] = [:]
            for e in Self.sent where keys[e.eventID] == key { counts[e.platform ?? "unknown", default: 0] += 1 }
            #expect(Dictionary(uniqueKeysWithValues: detail.breakdown(.platform).rows.map { ($0.value, $0.count) }) == counts, "\(key)")
            #expect(detail.shownDimensions.contains(.platform))
        }
        #expect(try f.store.verify().isSound)
    }

    @Test(arguments: ["platform:cocoa", "platform:cocoa|java", "-platform:javascript", "platform:unknown", "platform:py*"])
    func theTermKeepsTheEventsOfItsValues(_ text: String) throws {
        let f = try Self.store()
        let keys = try EnvironmentLevelTests.keys(f)
        let query = try SearchQuery.parse(text)
        let list = try f.store.issueList(IssueQuery(window: .d7, filter: .all, text: text, top: .max), now: Self.now)
        var naive: [String: Int] = [:]
        for e in Self.sent {
            let admitted = query.dimensionTerms.allSatisfy { term in term.admitsDimension(e.platform ?? "unknown") != term.negated }
            if admitted { naive[keys[e.eventID]!, default: 0] += 1 }
        }
        let listed = Dictionary(uniqueKeysWithValues: list.issues.filter { $0.events > 0 }.map { ($0.key, $0.events) })
        #expect(listed == naive, "\(text)")
        #expect(list.unmatched.isEmpty, "\(list.unmatched)")
    }

    /// A store written before schema 24 holds no platform rows; its step files the stored events,
    /// so that the pane and the term read them as a new store's do.
    @Test func schema24FilesTheEventsAStoreHeldBefore() throws {
        let f = try Self.store()
        let keys = try EnvironmentLevelTests.keys(f)
        try f.store.write { db in
            try db.execute(sql: "DELETE FROM issue_day_dim WHERE dim = 'platform'")
            try SchemaRewind.forgetSteps(after: 23, db)
        }
        #expect(try EnvironmentLevelTests.rolled(f, .platform).isEmpty)
        let upgraded = try TriageStore(path: f.path)
        #expect(try upgraded.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        #expect(try EnvironmentLevelTests.rolled(f, .platform) == Self.naive(keys: keys))
        #expect(try upgraded.verify().isSound)
    }
}
