import Foundation
import Testing
import TestSupport
import TriageModel
@testable import TriageStore

/// In one store a short name belongs to one domain, for ever; the data's own short names win.
@Suite struct ShortNameOwnershipTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// An event of one link whose short name the data leaves out (as Sentry's do).
    static func event(_ id: String, _ domain: String, code: Int, name: String, short: String = "",
                      minute: Int = 0, kind: EventKind? = nil) -> ErrorEvent {
        ErrorEvent(eventID: id, timestamp: Timestamp(millis: now.millis - Int64(60 - minute) * 60_000),
                   chain: ErrorChain(links: [ChainLink(domain: domain, short: short, code: code, name: name)]),
                   source: "sentry", kind: kind)
    }

    /// Each domain's issue key (its newest issue's, where it has several).
    func keys(_ f: TemporaryStore) throws -> [String: String] {
        try f.store.read { db in
            Dictionary(try SQLRow.fetchAll(db, sql: "SELECT l.domain, i.key FROM issue i JOIN chain_link l ON l.issue_id = i.id ORDER BY i.id")
                .map { ((try $0.decode(0)) as String, (try $0.decode(1)) as String) }, uniquingKeysWith: { $1 })
        }
    }

    @Test(arguments: [false, true])
    func collidingDomainsEachGetTheirOwnShortNameInEitherOrder(reversed: Bool) throws {
        let f = try TemporaryStore()
        var events = [
            Self.event("a", "EXC_BAD_ACCESS", code: 1, name: "garbage pointer"),
            Self.event("b", "EXC_BREAKPOINT", code: 1, name: "code 1"),
            Self.event("c", "SIGSEGV", code: 11, name: "Segfault"),
            Self.event("d", "SIGABRT", code: 11, name: "Abort"),
            Self.event("e", "ValueError", code: 0, name: "bad literal"),
            Self.event("f", "ValidationError", code: 0, name: "negative"),
        ]
        if reversed { events.reverse() }
        try IngestWriter(store: f.store).write(events: events, complaints: [])
        let keys = try keys(f)
        #expect(Set(keys.values).count == 6, "\(keys)")
        let first = reversed ? ["EXC_BREAKPOINT", "SIGABRT", "ValidationError"] : ["EXC_BAD_ACCESS", "SIGSEGV", "ValueError"]
        // Whichever comes first keeps the first candidate.
        #expect(first.map { keys[$0] } == ["EB1", "SI11", "VA0"])
        for (domain, key) in keys {
            #expect(try f.store.decode(key).first?.name?.domain == domain, "\(key)")
        }
        // A second ingest, by a new writer, keeps every domain's name.
        try IngestWriter(store: f.store).write(events: events.map { e in
            var e = e
            e.eventID += "-again"
            return e
        }, complaints: [])
        #expect(try self.keys(f) == keys)
        #expect(try f.store.verify().isSound)
    }

    @Test func theAppsOwnShortNameTakesItFromADerivedHolderWhoseIssuesMove() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        try writer.write(events: [Self.event("a", "EXC_BREAKPOINT", code: 6, name: "trap", kind: .crash)], complaints: [
            Complaint(complaintID: "t1", timestamp: Self.now, text: "the app said EB6", codes: ["EB6"]),
        ])
        #expect(try keys(f)["EXC_BREAKPOINT"] == "EB6")
        _ = try f.store.mark("EB6", .note("looking"), by: "maria", at: Self.now)
        // The app gives EB explicitly for its own domain: it wins, EXC_BREAKPOINT moves on.
        try writer.write(events: [Self.event("b", "EventBusError", code: 6, name: "closed", short: "EB", minute: 1)], complaints: [])
        let keys = try keys(f)
        #expect(keys["EventBusError"] == "EB6")
        #expect(keys["EXC_BREAKPOINT"] == "EX6")
        let moved = try f.store.issueDetail(key: "EX6", window: .d7, now: Self.now)
        #expect(moved.summary.events == 1 && moved.summary.kind == .crash && moved.notes.count == 1)
        #expect(moved.summary.complaints == 1 && moved.complaints.map(\.complaintID) == ["t1"])
        #expect(try f.store.decode("EX6").first?.name?.domain == "EXC_BREAKPOINT")
        #expect(try f.store.decode("EB6").first?.name?.domain == "EventBusError")
        // A later EXC_BREAKPOINT event, through a new writer, joins the moved issue.
        try IngestWriter(store: f.store).write(events: [Self.event("c", "EXC_BREAKPOINT", code: 6, name: "trap", minute: 2)], complaints: [])
        #expect(try f.store.issueDetail(key: "EX6", window: .d7, now: Self.now).summary.events == 2)
        let check = try f.store.verify()
        #expect(check.isSound, "\(check.problems)")
    }

    @Test func anExplicitNameForADomainThatHadADerivedOneLeavesItsEarlierIssuesAlone() throws {
        let f = try TemporaryStore()
        try IngestWriter(store: f.store).write(events: [Self.event("a", "PaymentError", code: 3, name: "declined")], complaints: [])
        try IngestWriter(store: f.store).write(events: [Self.event("b", "PaymentError", code: 3, name: "declined", short: "PY", minute: 1)],
                                               complaints: [])
        let issues = try f.store.issueList(IssueQuery(window: .d7), now: Self.now).issues.map(\.key)
        #expect(Set(issues) == ["PA3", "PY3"])
        // PA stays PaymentError's: a new domain deriving PA gets another name.
        try IngestWriter(store: f.store).write(events: [Self.event("c", "ParseError", code: 1, name: "eof", minute: 2)], complaints: [])
        #expect(try keys(f)["ParseError"] != "PA1")
        #expect(try f.store.verify().isSound)
    }

    @Test func twoDomainsThatBothGiveOneNameKeepTheDataAsGiven() throws {
        let f = try TemporaryStore()
        try IngestWriter(store: f.store).write(events: [
            Self.event("a", "FirstError", code: 1, name: "one", short: "ZZ"),
            Self.event("b", "SecondError", code: 2, name: "two", short: "ZZ", minute: 1),
        ], complaints: [])
        #expect(try f.store.decode("ZZ1").first?.name?.domain == "FirstError")
        #expect(try f.store.decode("ZZ2").first?.name?.domain == "SecondError")
        let holder = try f.store.read { db in try String.fetchOne(db, sql: "SELECT domain FROM domain_short WHERE short = 'ZZ'") }
        #expect(holder == "FirstError")
    }

    @Test func anUpgradedStoreGivesEachShortNameToTheDomainThatHadIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-v2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        // A v2 store in which EXC_BAD_ACCESS took EB (and EXC_BREAKPOINT's events joined its issue, the old bug).
        try TriageStore.makeOldSQLiteStore(at: path, upTo: "v2", script: """
            INSERT INTO issue (id, key, chain, first_seen, last_seen) VALUES (1, 'EB0', 'EXC_BAD_ACCESS.bad', 0, 0);
            INSERT INTO chain_link VALUES (1, 0, 'EXC_BAD_ACCESS', 'EB', 0, 'bad');
            INSERT INTO code_dictionary VALUES ('EB', 0, 'EXC_BAD_ACCESS', 'bad');
            """)
        let store = try TriageStore(path: path)
        try IngestWriter(store: store).write(events: [
            Self.event("a", "EXC_BREAKPOINT", code: 6, name: "trap"),
            Self.event("b", "EXC_BAD_ACCESS", code: 1, name: "garbage pointer", minute: 1),
        ], complaints: [])
        #expect(try store.decode("EX6").first?.name?.domain == "EXC_BREAKPOINT")
        #expect(try store.decode("EB1").first?.name?.domain == "EXC_BAD_ACCESS")
        #expect(try store.decode("EB0").first?.name?.domain == "EXC_BAD_ACCESS")
    }
}
