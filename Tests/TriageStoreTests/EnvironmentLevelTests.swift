import SampleData
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// The environment and level breakdowns (each one `Dimension` declaration) against a naive count
/// over the events as they were sent, on the engine under test: the rollup, the detail's
/// breakdowns, the `env:` and `level:` query terms, `check`, and schema 23's step, which files
/// the events a store held before it.
@Suite(.serialized) struct EnvironmentLevelTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// 900 events of three failures over six days, in three environments (one event in five names
    /// none) and four levels (one in seven names none).
    static let sent: [ErrorEvent] = {
        var rng = SplitMix(seed: 47)
        return (0..<900).map { i in
            let failure = Int(rng.next() % 3)
            let chain = ErrorChain(links: [ChainLink(domain: "Shop\(failure)", short: "", code: 100 + failure, name: "failure \(failure)",
                                                     origin: .derived)])
            let millis = now.millis - 1 - Int64(rng.next() % UInt64(6 * Timestamp.millisPerDay))
            let environment = i % 5 == 0 ? nil : ["production", "staging", "canary"][Int(rng.next() % 3)]
            let level = i % 7 == 0 ? nil : ["error", "warning", "fatal", "info"][Int(rng.next() % 4)]
            return ErrorEvent(eventID: "e\(i)", timestamp: Timestamp(millis: millis), chain: chain, userID: "u\(rng.next() % 40)",
                              environment: environment, source: "sentry", level: level)
        }
    }()

    static func store() throws -> TemporaryStore {
        let f = try TemporaryStore()
        for slice in sent.slices(of: 250) { try IngestWriter(store: f.store).write(events: Array(slice), complaints: []) }
        return f
    }

    /// Events per issue (by its key), value and day, counted from what was sent.
    static func naive(_ dimension: Dimension, keys: [String: String]) -> [String] {
        var counts: [String: Int] = [:]
        for e in sent {
            counts["\(keys[e.eventID]!) \(dimension.value(of: e) ?? "unknown") \(e.timestamp.day)", default: 0] += 1
        }
        return counts.map { "\($0.key) \($0.value)" }.sorted()
    }

    static func rolled(_ f: TemporaryStore, _ dimension: Dimension) throws -> [String] {
        try f.store.read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT i.key, d.value, d.day, d.events FROM issue_day_dim d JOIN issue i ON i.id = d.issue_id WHERE d.dim = ? AND d.events != 0
                """, arguments: [dimension.rawValue]).map {
                "\((try $0.decode(0)) as String) \((try $0.decode(1)) as String) \((try $0.decode(2)) as Int64) \((try $0.decode(3)) as Int64)"
            }.sorted()
        }
    }

    /// Each sent event's issue key, as the store filed it.
    static func keys(_ f: TemporaryStore) throws -> [String: String] {
        try f.store.read { db in
            Dictionary(uniqueKeysWithValues: try SQLRow.fetchAll(db, sql: "SELECT e.event_id, i.key FROM event e JOIN issue i ON i.id = e.issue_id")
                .map { ((try $0.decode(0)) as String, (try $0.decode(1)) as String) })
        }
    }

    @Test func theRollupTheDetailAndCheckCountEachEnvironmentAndLevelAsTheEventsDo() throws {
        let f = try Self.store()
        let keys = try Self.keys(f)
        #expect(keys.count == Self.sent.count && Set(keys.values).count == 3)
        for dimension in [Dimension.environment, .level] {
            #expect(try Self.rolled(f, dimension) == Self.naive(dimension, keys: keys), "\(dimension)")
        }
        for key in Set(keys.values) {
            let detail = try f.store.issueDetail(key: key, window: .d7, now: Self.now)
            for dimension in [Dimension.environment, .level] {
                var counts: [String: Int] = [:]
                for e in Self.sent where keys[e.eventID] == key { counts[dimension.value(of: e) ?? "unknown", default: 0] += 1 }
                let shown = detail.breakdown(dimension).rows
                #expect(Dictionary(uniqueKeysWithValues: shown.map { ($0.value, $0.count) }) == counts, "\(key) \(dimension)")
                #expect(detail.shownDimensions.contains(dimension))
            }
        }
        #expect(try f.store.verify().isSound)
    }

    @Test(arguments: ["env:staging", "env:staging|canary", "-env:production", "level:warning", "level:fatal env:production", "env:unknown"])
    func aQueryTermKeepsTheEventsOfItsValues(_ text: String) throws {
        let f = try Self.store()
        let keys = try Self.keys(f)
        let query = try SearchQuery.parse(text)
        let list = try f.store.issueList(IssueQuery(window: .d7, filter: .all, text: text, top: .max), now: Self.now)
        var naive: [String: Int] = [:]
        for e in Self.sent {
            let admitted = query.dimensionTerms.allSatisfy { term in
                let value = Dimension(term: term.field!)!.value(of: e) ?? "unknown"
                return term.admitsDimension(value) != term.negated
            }
            if admitted { naive[keys[e.eventID]!, default: 0] += 1 }
        }
        let listed = Dictionary(uniqueKeysWithValues: list.issues.filter { $0.events > 0 }.map { ($0.key, $0.events) })
        #expect(listed == naive, "\(text)")
        #expect(list.unmatched.isEmpty, "\(list.unmatched)")
    }

    @Test func aTermOfAValueNoEventHasSaysWhatTheStoreHolds() throws {
        let f = try Self.store()
        let list = try f.store.issueList(IssueQuery(window: .d7, filter: .all, text: "level:warn", top: .max), now: Self.now)
        #expect(list.issues.allSatisfy { $0.events == 0 })
        #expect(list.unmatched == ["no level is \"warn\"; did you mean level:warn*?"])
    }

    /// A store written before schema 23 holds no environment or level rows; its step files the
    /// stored events, so that the panes and terms read them as a new store's do.
    @Test func schema23FilesTheEventsAStoreHeldBefore() throws {
        let f = try Self.store()
        let keys = try Self.keys(f)
        // As an errtriage before schema 23 left the store: no such rows, an older schema.
        try f.store.write { db in
            try db.execute(sql: "DELETE FROM issue_day_dim WHERE dim IN ('environment', 'level')")
            try SchemaRewind.forgetSteps(after: 22, db)
        }
        #expect(try Self.rolled(f, .environment).isEmpty)
        let upgraded = try TriageStore(path: f.path)
        #expect(try upgraded.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        for dimension in [Dimension.environment, .level] {
            #expect(try Self.rolled(f, dimension) == Self.naive(dimension, keys: keys), "\(dimension)")
        }
        #expect(try upgraded.verify().isSound)
    }
}
