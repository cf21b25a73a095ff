import TestSupport
import Testing
import TriageModel
@testable import TriageStore

@Suite struct MuteTests {
    let key = "US14-LO43-AP7-NE8"
    let t0 = Timestamp.parse("2026-11-05T00:00:00Z")!

    func history(_ f: TemporaryStore) throws -> [StatusChange] {
        try f.store.issueDetail(key: key, window: .all, now: t0).history
    }

    @Test func aMuteUntilADateEndsOnceTheDateHasCome() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        _ = try f.store.mute(key, until: .until(Timestamp.parse("2026-12-01T00:00:00Z")!), by: "ana", at: t0)
        #expect(try f.store.applyDueMutes(now: Timestamp.parse("2026-11-30T23:59:00Z")!).isEmpty)
        #expect(try f.store.applyDueMutes(now: Timestamp.parse("2026-12-01T00:00:00Z")!) == [key])
        #expect(try f.store.applyDueMutes(now: Timestamp.parse("2026-12-02T00:00:00Z")!).isEmpty)
        let rows = try history(f)
        #expect(rows.map(\.to) == [.open, .muted])
        #expect(rows.first?.note?.hasPrefix("mute ended: the date 2026-12-01") == true)
    }

    @Test func aMuteForMoreEventsEndsOnTheEventThatReachesIt() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        _ = try f.store.mute(key, until: .events(3), by: "ana", at: t0)
        try f.ingest(lines: (2...3).map { TemporaryStore.event("e\($0)", "2026-11-06T09:00:00Z") })
        #expect(try f.store.applyDueMutes(now: t0).isEmpty)
        try f.ingest(lines: [TemporaryStore.event("e4", "2026-11-06T10:00:00Z")])
        #expect(try f.store.applyDueMutes(now: t0) == [key])
        try f.ingest(lines: [TemporaryStore.event("e5", "2026-11-06T11:00:00Z")])
        #expect(try f.store.applyDueMutes(now: t0).isEmpty)
        #expect(try history(f).filter { $0.note?.hasPrefix("mute ended") == true }.count == 1)
    }

    @Test func aMuteForMoreUsersCountsOnlyNewDistinctUsers() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", user: "u1")])
        _ = try f.store.mute(key, until: .users(2), by: "ana", at: t0)
        try f.ingest(lines: [TemporaryStore.event("e2", "2026-11-06T09:00:00Z", user: "u1"),
                             TemporaryStore.event("e3", "2026-11-06T09:00:01Z", user: "u2")])
        #expect(try f.store.applyDueMutes(now: t0).isEmpty)
        try f.ingest(lines: [TemporaryStore.event("e4", "2026-11-06T10:00:00Z", user: "u3")])
        #expect(try f.store.applyDueMutes(now: t0) == [key])
    }

    @Test func anotherMarkCancelsTheMuteCondition() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        _ = try f.store.mute(key, until: .events(1), by: "ana", at: t0)
        _ = try f.store.mark(key, .status(.resolved, version: nil), by: "ana", at: t0)
        try f.ingest(lines: [TemporaryStore.event("e2", "2026-11-01T10:00:00Z")])
        #expect(try f.store.applyDueMutes(now: t0).isEmpty)
    }
}
