import SampleData
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// A backend's facets (server, runtime, transaction, logger, every tag) against a naive count
/// over the events as they were sent: the detail's facets, queries by facet, `check`.
@Suite struct FacetStoreTests {
    struct Sent {
        var type: String, millis: Int64, user: String
        var server: String?, runtime: String?, transaction: String?, logger: String?
        var tags: [(String, String)]
    }

    static let now = TemporaryStore.sampleEnd

    /// 1,500 Sentry events of three failures over ten days, from four servers (one event in
    /// seven names none), two runtimes, three routes, and tags with up to twelve values.
    static let sent: [Sent] = {
        var rng = SplitMix(seed: 11)
        return (0..<1500).map { i in
            let millis = now.millis - Int64(rng.next() % UInt64(10 * Timestamp.millisPerDay))
            let server = i % 7 == 0 ? nil : "api-host-\(rng.next() % 4 + 1)"
            var tags = [("shard", "\(rng.next() % 12)"), ("region", rng.next() % 3 == 0 ? "eu" : "us")]
            if i % 5 == 0 { tags.append(("feature", "new-checkout")) }
            return Sent(type: ["KeyError", "ValueError", "TimeoutError"][Int(rng.next() % 3)], millis: millis,
                        user: "u\(rng.next() % 200)", server: server,
                        runtime: rng.next() % 4 == 0 ? "CPython 3.12.1" : "CPython 3.11.4",
                        transaction: ["/checkout", "/cart", "/login"][Int(rng.next() % 3)],
                        logger: i % 3 == 0 ? "shop.billing" : nil, tags: tags)
        }
    }()

    static func line(_ e: Sent, _ i: Int) -> String {
        var v = "{\"event_id\":\"\(String(format: "%032x", i + 1))\",\"timestamp\":\(Double(e.millis) / 1000),\"platform\":\"python\""
        v += ",\"exception\":{\"values\":[{\"type\":\"\(e.type)\",\"value\":\"bad\",\"module\":\"shop\"}]}"
        v += ",\"user\":{\"id\":\"\(e.user)\"}"
        if let s = e.server { v += ",\"server_name\":\"\(s)\"" }
        if let r = e.runtime {
            let parts = r.split(separator: " ")
            v += ",\"contexts\":{\"runtime\":{\"name\":\"\(parts[0])\",\"version\":\"\(parts[1])\"}}"
        }
        if let t = e.transaction { v += ",\"request\":{\"url\":\"https://shop.example\(t)?q=1\",\"method\":\"GET\"}" }
        if let l = e.logger { v += ",\"logger\":\"\(l)\"" }
        v += ",\"tags\":{" + e.tags.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        return v + "}"
    }

    static let fixture: TemporaryStore = {
        let f = try! TemporaryStore()
        try! f.ingest(lines: sent.enumerated().map { line($1, $0) })
        return f
    }()

    /// Each facet of an event as errtriage names it.
    static func facets(_ e: Sent) -> [(String, String)] {
        var pairs: [(String, String)] = []
        if let s = e.server { pairs.append(("server", s)) }
        if let r = e.runtime { pairs.append(("runtime", r)) }
        if let t = e.transaction { pairs.append(("transaction", t)) }
        if let l = e.logger { pairs.append(("logger", l)) }
        return pairs + e.tags.map { ("tag:" + $0.0, $0.1) }
    }

    func key(of type: String) throws -> String {
        let list = try Self.fixture.store.issueList(IssueQuery(window: .d30, filter: .all, text: "", top: .max), now: Self.now)
        return try #require(list.issues.first { $0.chain.links.first?.name?.contains(type) ?? false || $0.chain.fullForm.contains(type) }).key
    }

    func inWindow(_ window: TimeWindow, _ millis: Int64) -> Bool {
        let unit = window == .h24 ? Timestamp.millisPerHour : Timestamp.millisPerDay
        let last = window == .h24 ? Self.now.hour : Self.now.day
        let first = last - Int64(window == .h24 ? 23 : 6)
        return millis >= first * unit && millis < (last + 1) * unit
    }

    @Test(arguments: [TimeWindow.d7, .h24])
    func theDetailCountsEachFacetAsTheEventsSaidIt(window: TimeWindow) throws {
        for type in ["KeyError", "ValueError"] {
            let key = try key(of: type)
            let detail = try Self.fixture.store.issueDetail(key: key, window: window, now: Self.now)
            let events = Self.sent.filter { $0.type == type && inWindow(window, $0.millis) }
            #expect(detail.summary.events == events.count)
            var expected: [String: [String: Int]] = [:]
            for e in events { for (f, v) in Self.facets(e) { expected[f, default: [:]][v, default: 0] += 1 } }
            #expect(detail.facets.map(\.facet) == ["server", "runtime", "transaction", "logger", "tag:feature", "tag:region", "tag:shard"])
            for f in detail.facets {
                let values = expected[f.facet] ?? [:]
                #expect(f.distinctValues == values.count, "\(f.facet)")
                let top = values.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(TriageStore.facetValueLimit)
                #expect(f.rows.map(\.value) == top.map(\.key), "\(f.facet)")
                #expect(f.rows.map(\.count) == top.map(\.value), "\(f.facet)")
                #expect(f.rows.first.map { abs($0.percent - Double($0.count) * 100 / Double(events.count)) < 0.001 } ?? false)
                #expect(f.otherEvents == values.values.reduce(0, +) - top.map(\.value).reduce(0, +), "\(f.facet)")
            }
            // A backend sends no device, network, orientation or app state: those panes are not shown.
            #expect(detail.shownDimensions == [.os, .kind, .platform].filter { d in detail.breakdown(d).rows.contains { $0.value != "unknown" } })
            #expect(!detail.shownDimensions.contains(.device) && !detail.shownDimensions.contains(.network))
        }
    }

    @Test(arguments: [TimeWindow.d7, .h24])
    func factsAndTagsRestrictTheCountedEvents(window: TimeWindow) throws {
        let cases: [(String, (Sent) -> Bool)] = [
            ("server:api-host-1", { $0.server == "api-host-1" }),
            ("server:api-host-1|api-host-2", { $0.server == "api-host-1" || $0.server == "api-host-2" }),
            ("-server:api-host-1", { $0.server != "api-host-1" }),
            ("runtime:CPython*", { $0.runtime != nil }),
            ("runtime:\"CPython 3.12.1\"", { $0.runtime == "CPython 3.12.1" }),
            ("transaction:/checkout", { $0.transaction == "/checkout" }),
            ("transaction:/c*", { $0.transaction == "/checkout" || $0.transaction == "/cart" }),
            ("logger:shop.billing", { $0.logger == "shop.billing" }),
            ("tag:shard=7", { $0.tags.contains { $0 == ("shard", "7") } }),
            ("tag:shard=1*", { $0.tags.contains { $0.0 == "shard" && $0.1.hasPrefix("1") } }),
            ("tag:feature=*", { $0.tags.contains { $0.0 == "feature" } }),
            ("-tag:region=eu", { !$0.tags.contains { $0 == ("region", "eu") } }),
            ("server:api-host-2 tag:region=us", { $0.server == "api-host-2" && $0.tags.contains { $0 == ("region", "us") } }),
        ]
        for (text, keep) in cases {
            let list = try Self.fixture.store.issueList(IssueQuery(window: window, filter: .all, text: text, top: .max), now: Self.now)
            var expected: [String: Int] = [:]
            for e in Self.sent where inWindow(window, e.millis) && keep(e) { expected[e.type, default: 0] += 1 }
            #expect(list.issues.count == expected.count, "\(text)")
            for (type, n) in expected {
                let key = try key(of: type)
                #expect(list.issues.first { $0.key == key }?.events == n, "\(text) \(window): \(type)")
            }
        }
    }

    @Test func aFacetValueTheStoreDoesNotHoldIsNamed() throws {
        let list = try Self.fixture.store.issueList(IssueQuery(window: .d7, filter: .all, text: "server:api-host", top: .max), now: Self.now)
        #expect(list.issues.isEmpty)
        #expect(list.unmatched == ["no server is \"api-host\"; did you mean server:api-host*?"])
        let tag = try Self.fixture.store.issueList(IssueQuery(window: .d7, filter: .all, text: "tag:shard=99", top: .max), now: Self.now)
        #expect(tag.unmatched.first?.hasPrefix("no tag is \"shard=99\"") ?? false)
        #expect(throws: SearchQueryError.self) { try SearchQuery.parse("tag:shard") }
    }

    @Test func checkRecountsTheFacetRollupAndTheStepToSchema17CountsStoredTags() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: Self.sent.prefix(300).enumerated().map { Self.line($1, $0) })
        #expect(try f.store.verify().isSound)
        // The step to schema 17 counts the tags of the events stored before it.
        let before = try f.store.read { db in try SQLRow.fetchAll(db, sql: "SELECT issue_id, facet, value, day, events FROM issue_day_facet WHERE facet LIKE 'tag:%' ORDER BY 1, 2, 3, 4").map { "\($0)" } }
        try f.store.write { db in
            try db.execute(sql: "DELETE FROM issue_day_facet")
            try TriageStore.countStoredTags(db)
        }
        let after = try f.store.read { db in try SQLRow.fetchAll(db, sql: "SELECT issue_id, facet, value, day, events FROM issue_day_facet ORDER BY 1, 2, 3, 4").map { "\($0)" } }
        #expect(!before.isEmpty && after == before)
        // A changed count is found.
        try f.store.write { db in try db.execute(sql: "UPDATE issue_day_facet SET events = events + 1 WHERE facet = 'tag:shard' AND value = '3'") }
        let check = try f.store.verify()
        #expect(check.problems.contains { $0.hasPrefix("the facet rollup differs") })
    }
    /// An issue counts its first 100 tag keys: 60 events of three new keys each count 100 of
    /// them and fold the rest; a second writer, which reads the issue's keys from the rollup,
    /// counts an event's known keys and folds its new one. The events say what they were counted
    /// under (`tags.folded`), the rollup counts them as `tags.folded = other`, and `check` agrees.
    @Test func anIssueCountsItsFirstHundredTagKeysAndFoldsTheRest() throws {
        let f = try TemporaryStore()
        func event(_ n: Int, tags: [(String, String)]) -> String {
            let time = Double(Self.now.millis - Int64(n) * 60_000) / 1000
            return "{\"event_id\":\"\(String(format: "%032x", 0xf000 + n))\",\"timestamp\":\(time),\"platform\":\"python\","
                + "\"exception\":{\"values\":[{\"type\":\"KeyError\",\"value\":\"bad\",\"module\":\"shop\"}]},"
                + "\"tags\":{" + tags.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}}"
        }
        try f.ingest(lines: (0..<60).map { n in event(n, tags: (0..<3).map { ("k\(n * 3 + $0)", "v") }) }, batch: 7)
        func keys() throws -> (tags: Int, folded: Int) {
            try f.store.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT facet) FROM issue_day_facet WHERE facet LIKE 'tag:%'") ?? -1,
                 try Int.fetchOne(db, sql: "SELECT SUM(events) FROM issue_day_facet WHERE facet = ? AND value = ?",
                                  arguments: [EventFacets.foldedFacet, EventFacets.foldedValue]) ?? 0)
            }
        }
        // 33 events bring 99 keys, the 34th its first key and folds two; the 26 after fold all three.
        #expect(try keys() == (100, 27))
        #expect(try f.store.verify().problems == [])
        try f.ingest(lines: [event(100, tags: [("k0", "w"), ("k99", "w"), ("new", "w")])])
        #expect(try keys() == (100, 28))
        let stored = try f.store.read { db in
            try String.fetchOne(db, sql: "SELECT t.value FROM event_row e JOIN term t ON t.id = e.custom_keys_term WHERE e.ts = ?",
                                arguments: [Self.now.millis - 100 * 60_000])
        }
        #expect(stored == #"{"k0":"w","k99":"w","tags.folded":"1"}"#)
        #expect(try f.store.verify().problems == [])
    }
    /// Two writers of one issue: one that cached the issue's 99 keys reads them again once the
    /// other has written, and folds a new key the other's made the 100th.
    @Test func aWriterReadsTheIssuesKeysAgainAfterAnotherWrote() throws {
        let f = try TemporaryStore()
        let chain = ErrorChain(links: [ChainLink(domain: "ShardError", short: "SH", code: 7, name: "down")])
        func event(_ id: String, _ keys: [String]) -> ErrorEvent {
            ErrorEvent(eventID: id, timestamp: Timestamp(millis: Self.now.millis - 60_000), chain: chain, customKeys: keys.map { ($0, "v") })
        }
        let first = try IngestWriter(store: f.store), second = try IngestWriter(store: f.store)
        _ = try first.write(events: [event("a", (0..<50).map { "k\($0)" }), event("b", (50..<99).map { "k\($0)" })], complaints: [])
        _ = try second.write(events: [event("c", ["other-writer"])], complaints: [])
        _ = try first.write(events: [event("d", ["k0", "late"])], complaints: [])
        let (keys, folded) = try f.store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT facet) FROM issue_day_facet WHERE facet LIKE 'tag:%'") ?? -1,
             try Int.fetchOne(db, sql: "SELECT SUM(events) FROM issue_day_facet WHERE facet = ?", arguments: [EventFacets.foldedFacet]) ?? 0)
        }
        #expect(keys == 100 && folded == 1, "\(keys) keys, \(folded) folded")
        #expect(try f.store.verify().problems == [])
    }

    /// A project counts its first 1,000 tag keys across its issues, and two writers keep to it:
    /// ten issues bring 999 keys of project `shop` (100 each, the last 99), a second writer a
    /// 1,000th in an eleventh issue, and the first — which cached the 999 — reads them again
    /// for its next new key, counts its known key and folds the new one. Another project's
    /// events and events without a project count their own keys. `check` agrees, and the step to
    /// schema 22 finds the same keys in the stored events.
    @Test func aProjectCountsItsFirstThousandTagKeysAcrossWriters() throws {
        let f = try TemporaryStore()
        func event(_ id: String, issue: Int, _ keys: [String], project: String? = "shop") -> ErrorEvent {
            let chain = ErrorChain(links: [ChainLink(domain: "ShardError", short: "SH", code: 100 + issue, name: "down \(issue)")])
            return ErrorEvent(eventID: id, timestamp: Timestamp(millis: Self.now.millis - 60_000), chain: chain,
                              customKeys: keys.map { ($0, "v") }, project: project)
        }
        let first = try IngestWriter(store: f.store), second = try IngestWriter(store: f.store)
        var events: [ErrorEvent] = []
        for issue in 0..<10 {
            let keys = (0..<(issue == 9 ? 99 : 100)).map { "k\(issue * 100 + $0)" }
            events.append(event("a\(issue)", issue: issue, Array(keys.prefix(50))))
            events.append(event("b\(issue)", issue: issue, Array(keys.dropFirst(50))))
        }
        _ = try first.write(events: events, complaints: [])
        _ = try second.write(events: [event("c", issue: 10, ["other-writer"])], complaints: [])
        _ = try first.write(events: [event("d", issue: 11, ["k0", "late"]), event("e", issue: 11, ["late2"], project: "other"),
                                     event("f", issue: 11, ["late3"], project: nil)], complaints: [])
        let (keys, folded, byProject) = try f.store.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT facet) FROM issue_day_facet WHERE facet LIKE 'tag:%'") ?? -1,
             try Int.fetchOne(db, sql: "SELECT SUM(events) FROM issue_day_facet WHERE facet = ?", arguments: [EventFacets.foldedFacet]) ?? 0,
             try SQLRow.fetchAll(db, sql: "SELECT project, COUNT(*) FROM project_tag_key GROUP BY project ORDER BY project")
                .map { "\(try $0.decode(0) as String)=\(try $0.decode(1) as Int)" })
        }
        #expect(keys == 1_002 && folded == 1, "\(keys) keys, \(folded) folded")
        #expect(byProject == ["=1", "other=1", "shop=1000"], "\(byProject)")
        let stored = try f.store.read { db in
            try String.fetchOne(db, sql: "SELECT t.value FROM event_row e JOIN term t ON t.id = e.custom_keys_term WHERE e.event_id = 'd'")
        }
        #expect(stored == #"{"k0":"v","tags.folded":"1"}"#)
        #expect(try f.store.verify().problems == [])
        // The step to schema 22 finds the same keys in the events stored before it.
        let rows = "SELECT project, key FROM project_tag_key ORDER BY 1, 2"
        let before = try f.store.read { db in try SQLRow.fetchAll(db, sql: rows).map { "\($0)" } }
        try f.store.write { db in
            try db.execute(sql: "DELETE FROM project_tag_key")
            try TriageStore.fillProjectTagKeys(db)
        }
        #expect(try f.store.read { db in try SQLRow.fetchAll(db, sql: rows).map { "\($0)" } } == before)
    }
}
