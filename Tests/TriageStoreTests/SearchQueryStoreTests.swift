import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// Each field of the query language against a naive count over the events.
@Suite struct SearchQueryStoreTests {
    struct Event {
        var key: String, millis: Int64, user: String?
        var device: String?, os: String?, network: String?, orientation: String?, state: String?
        var env: String?, kind: String?, version: String?
    }

    static let fixture: TemporaryStore = {
        let f = try! TemporaryStore()
        try! f.ingest(lines: TemporaryStore.sampleLines(events: 4000, issues: 30, days: 20))
        return f
    }()

    static let events: [Event] = try! fixture.store.read { db in
        try SQLRow.fetchAll(db, sql: """
            SELECT i.key, e.ts, e.user_id, e.device_model, e.os_name, e.os_version, e.network, e.orientation,
                   e.app_state, e.environment, e.kind, e.app_version FROM event e JOIN issue i ON i.id = e.issue_id
            """).map { r in
            let name: String? = (try r.decode(4)), version: String? = try r.decode(5)
            return Event(key: (try r.decode(0)), millis: (try r.decode(1)), user: (try r.decode(2)), device: (try r.decode(3)),
                         os: [name, version].compactMap { $0 }.joined(separator: " "), network: (try r.decode(6)),
                         orientation: (try r.decode(7)), state: (try r.decode(8)), env: (try r.decode(9)), kind: (try r.decode(10)), version: (try r.decode(11)))
        }
    }

    let now = TemporaryStore.sampleEnd

    func list(_ text: String, window: TimeWindow = .d7) throws -> IssueList {
        try Self.fixture.store.issueList(IssueQuery(window: window, filter: .all, text: text, top: .max), now: now)
    }

    /// Events and distinct users per issue among the window's events that pass `keep`.
    func naive(window: TimeWindow = .d7, _ keep: (Event) -> Bool) -> [String: (events: Int, users: Int)] {
        let unit = window == .h24 ? Timestamp.millisPerHour : Timestamp.millisPerDay
        let last = window == .h24 ? now.hour : now.day
        let first = last - Int64(window == .h24 ? 23 : 6)
        var events: [String: Int] = [:], users: [String: Set<String>] = [:]
        for e in Self.events where e.millis >= first * unit && e.millis < (last + 1) * unit && keep(e) {
            events[e.key, default: 0] += 1
            if let u = e.user { users[e.key, default: []].insert(u) }
        }
        return events.reduce(into: [:]) { $0[$1.key] = ($1.value, users[$1.key]?.count ?? 0) }
    }

    func expectSame(_ text: String, window: TimeWindow = .d7, _ keep: (Event) -> Bool) throws {
        let listed = try list(text, window: window)
        let expected = naive(window: window, keep)
        #expect(!expected.isEmpty, "\(text) should match something in the sample")
        #expect(Set(listed.issues.map(\.key)) == Set(expected.keys), "\(text)")
        for issue in listed.issues {
            #expect(issue.events == expected[issue.key]?.events, "\(text): events of \(issue.key)")
            #expect(issue.users == expected[issue.key]?.users, "\(text): users of \(issue.key)")
            #expect(issue.series.reduce(0, +) == issue.events, "\(text): series of \(issue.key)")
        }
        #expect(listed.totals.events == expected.values.reduce(0) { $0 + $1.events }, "\(text): total events")
        let users = Set(Self.events.filter { expected[$0.key] != nil && keep($0) && $0.millis >= listed.seriesStart.millis }.compactMap(\.user))
        #expect(listed.totals.users == users.count, "\(text): total users")
    }

    @Test func aDeviceTermCountsTheEventsOnThatDevice() throws {
        try expectSame("device:iPhone14,5") { $0.device == "iPhone14,5" }
    }

    @Test func anOsPrefixMatchesTheVersion() throws {
        try expectSame("os:17*") { $0.os?.hasPrefix("iOS 17") == true }
    }

    @Test func eachOtherDimensionCountsItsEvents() throws {
        try expectSame("network:wifi") { $0.network == "wifi" }
        try expectSame("orientation:landscape") { $0.orientation == "landscape" }
        try expectSame("state:background") { $0.state == "background" }
        try expectSame("env:production") { $0.env == "production" }
        try expectSame("kind:non-fatal") { $0.kind == "non-fatal" }
        try expectSame("-network:wifi") { $0.network != "wifi" }
    }

    @Test func versionsCompareInReleaseOrder() throws {
        try expectSame("version:>=1.12") { $0.version.flatMap { AppVersion($0) }.map { $0 >= AppVersion("1.12")! } == true }
        try expectSame("version:1.11|1.13") { $0.version == "1.11" || $0.version == "1.13" }
    }

    @Test func severalDimensionTermsAndTheDayWindowReadEvents() throws {
        try expectSame("device:iPhone14,5|iPhone13,2 network:cellular") {
            ($0.device == "iPhone14,5" || $0.device == "iPhone13,2") && $0.network == "cellular"
        }
        try expectSame("network:wifi", window: .h24) { $0.network == "wifi" }
    }

    @Test func chainAndCountTermsKeepTheIssuesTheyName() throws {
        let all = try list("")
        let backend = try list("domain:TolokaBackendError")
        #expect(!backend.issues.isEmpty)
        #expect(backend.issues.map(\.key) == all.issues.filter { $0.chain.links.contains { $0.domain == "TolokaBackendError" } }.map(\.key))
        #expect(try list("events:>20").issues.map(\.key) == all.issues.filter { $0.events > 20 }.map(\.key))
        #expect(try list("has:complaints").issues.map(\.key) == all.issues.filter { $0.complaints > 0 }.map(\.key))
        #expect(try list("-domain:TolokaBackendError").issues.count == all.issues.count - backend.issues.count)
    }

    /// The window's users by events, most first: a user the sample met often, and a prefix of its id.
    func busiestUsers() -> [String] {
        let week = Self.events.filter { $0.millis >= (now.day - 6) * Timestamp.millisPerDay }.compactMap(\.user)
        let counts = Dictionary(grouping: week, by: { $0 }).mapValues(\.count)
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
    }

    @Test func aUserTermCountsThatUsersEvents() throws {
        let users = busiestUsers()
        try #require(users.count >= 2)
        let (a, b) = (users[0], users[1])
        try expectSame("user:\(a)") { $0.user == a }
        try expectSame("user:\(a)|\(b)") { $0.user == a || $0.user == b }
        try expectSame("user:\(a) network:wifi") { $0.user == a && $0.network == "wifi" }
        let prefix = String(a.prefix(a.count - 1))
        try expectSame("user:\(prefix)*") { $0.user?.hasPrefix(prefix) == true }
        try expectSame("-user:\(a)", window: .h24) { $0.user != a }
        #expect(try list("user:\(a)").unmatched.isEmpty)
        #expect(try list("user:nobody-at-all").issues.isEmpty)
        #expect(try list("user:nobody-at-all").unmatched.count == 1)
    }

    @Test func aUserTermFindsAUserTheSDKNamedByEmailOrNameAsItSentThem() throws {
        let f = try TemporaryStore()
        func sentry(_ id: String, _ user: String) -> String {
            #"{"event_id":"\#(id)","timestamp":"2026-11-19T09:00:00Z","platform":"python","level":"error","user":\#(user),"#
                + #""exception":{"values":[{"type":"KeyError","value":"'sku'"}]}}"#
        }
        try f.ingest(lines: [
            sentry("00000000000000000000000000000001", #"{"email":"ana@example.com"}"#),
            sentry("00000000000000000000000000000002", #"{"email":"ana@example.com","ip_address":"10.0.0.1"}"#),
            sentry("00000000000000000000000000000003", #"{"username":"bob"}"#),
            sentry("00000000000000000000000000000004", #"{"id":"u0727","email":"carl@example.com"}"#),
            sentry("00000000000000000000000000000005", #"{"ip_address":"10.0.0.9"}"#),
        ])
        func events(_ text: String) throws -> Int {
            try f.store.issueList(IssueQuery(window: .d7, filter: .all, text: text, top: .max), now: now).totals.events
        }
        #expect(try events("") == 5)
        #expect(try events("user:ana@example.com") == 2)
        #expect(try events("user:Ana@Example.com") == 2)
        #expect(try events("user:bob") == 1)
        #expect(try events("user:u0727") == 1)
        #expect(try events("user:10.0.0.9") == 1)
        #expect(try events("user:ana@example.com|bob") == 3)
        #expect(try events("-user:ana@example.com") == 3)
        // Kept only as a hash, an e-mail is found whole, never by a prefix.
        #expect(try events("user:ana*") == 0)
    }

    @Test func aStatusTermPicksItsStatusesOverTheDefaultFilter() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [
            TemporaryStore.event("a", "2026-11-19T09:00:00Z", codes: "US14-LO43-AP7-NE8"),
            TemporaryStore.event("b", "2026-11-19T09:00:00Z", codes: "US3-AP7-NE8"),
        ])
        _ = try f.store.mark("US3-AP7-NE8", .status(.muted, version: nil), by: "t", at: now)
        let muted = try f.store.issueList(IssueQuery(window: .d7, text: "status:muted", top: .max), now: now)
        #expect(muted.issues.map(\.key) == ["US3-AP7-NE8"])
        let open = try f.store.issueList(IssueQuery(window: .d7, text: "NE8", top: .max), now: now)
        #expect(open.issues.map(\.key) == ["US14-LO43-AP7-NE8"])
    }
}

/// A term that matches no value the store holds says why the list is empty, and the way out.
@Suite struct UnmatchedTermTests {
    static let now = TemporaryStore.sampleEnd

    static func list(_ f: TemporaryStore, _ text: String) throws -> IssueList {
        try f.store.issueList(IssueQuery(window: .all, text: text), now: now)
    }

    @Test func anExactValueThatIsOnlyAPrefixOfStoredOnesSuggestsThePrefix() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [#"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43","os":{"name":"iOS","version":"17.4.1"}}"#])
        let list = try Self.list(f, "os:17")
        #expect(list.issues.isEmpty)
        #expect(list.unmatched == [#"no os is "17"; did you mean os:17*?"#])
        #expect(try Self.list(f, "os:17*").unmatched.isEmpty)
    }

    @Test func aValueNothingStartsWithNamesSomeValuesTheStoreHolds() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [#"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43","network":"wifi"}"#,
                             #"{"event_id":"b","timestamp":"2026-11-20T11:00:00Z","codes":"US14-LO43","network":"cellular"}"#])
        #expect(try Self.list(f, "network:satellite").unmatched == [#"no network is "satellite" (the store holds cellular, wifi)."#])
        #expect(try Self.list(f, "-network:satellite").unmatched.isEmpty)
        #expect(try Self.list(f, "network:wifi").unmatched.isEmpty)
    }

    @Test func aDomainPivotTellsADomainNoChainHasFromOneThisWindowLacks() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [#"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43","chain":"UserError.shown - LogicError.failed"}"#])
        #expect(try f.store.knowsDomain("NoSuchDomain") == false)
        #expect(try f.store.knowsDomain("LogicError"))
    }
}
