import TestSupport
import Testing
import TriageImport
import TriageModel
@testable import TriageStore

@Suite struct ReleaseStoreTests {
    static func event(_ id: String, _ day: Int, _ codes: String, _ version: String, _ user: String) -> String {
        TemporaryStore.event(id, "2026-11-\(day < 10 ? "0" : "")\(day)T12:00:00Z", codes: codes, version: version, user: user)
    }

    @Test func everyVersionsFiguresEqualNaiveCountsOverTheEvents() throws {
        let f = try TemporaryStore()
        let lines = TemporaryStore.sampleLines(events: 2_000)
        try f.ingest(lines: lines)
        var events: [ErrorEvent] = []
        for line in lines { if case .event(let e) = try NativeDecoder().decode(line: Array(line.utf8)) { events.append(e) } }
        let releases = try f.store.releases()
        let versions = Set(events.compactMap(\.appVersion))
        #expect(releases.map(\.version) == ReleaseRule.ordered(Array(versions)))
        for r in releases {
            let mine = events.filter { $0.appVersion == r.version }
            #expect(r.events == mine.count)
            #expect(r.users == Set(mine.compactMap(\.userID)).count)
            #expect(r.issues == Set(mine.map(\.chain.shortKey)).count)
            #expect(r.firstSeen == mine.map(\.timestamp).min())
            #expect(r.lastSeen == mine.map(\.timestamp).max())
            #expect(r.adoption == nil)
        }
        #expect(releases.map(\.newIssues).reduce(0, +) == Set(events.map(\.chain.shortKey)).count)
    }

    @Test func comparisonFindsNewWorseBetterAndGoneIssues() throws {
        let f = try TemporaryStore()
        var lines: [String] = []
        // 200 users a day in each version, through an issue everybody has.
        for day in 10...16 {
            for u in 0..<200 { lines.append(Self.event("b\(day)-\(u)", day, "US1-NE1", "1.1", "a\(u)")) }
            for u in 0..<200 { lines.append(Self.event("c\(day)-\(u)", day, "US1-NE1", "1.2", "b\(u)")) }
        }
        for u in 0..<40 { lines.append(Self.event("w1-\(u)", 12, "US2-NE2", "1.1", "a\(u)")) }
        for u in 0..<120 { lines.append(Self.event("w2-\(u)", 12, "US2-NE2", "1.2", "b\(u)")) }
        for u in 0..<120 { lines.append(Self.event("x1-\(u)", 13, "US3-NE3", "1.1", "a\(u)")) }
        for u in 0..<40 { lines.append(Self.event("x2-\(u)", 13, "US3-NE3", "1.2", "b\(u)")) }
        for u in 0..<30 { lines.append(Self.event("g-\(u)", 14, "US4-NE4", "1.1", "a\(u)")) }
        for u in 0..<5 { lines.append(Self.event("n-\(u)", 15, "US5-NE5", "1.2", "b\(u)")) }
        try f.ingest(lines: lines)
        let now = Timestamp.parse("2026-11-16T18:00:00Z")!
        let c = try #require(try f.store.compareRelease("1.2", window: .d7, now: now))
        #expect(c.previous == "1.1")
        #expect(!c.adoptionKnown)
        #expect(c.users == 1400 && c.previousUsers == 1400)
        #expect(c.new.map(\.key) == ["US5-NE5"])
        #expect(c.worse.map(\.key) == ["US2-NE2"])
        #expect(c.better.map(\.key) == ["US3-NE3"])
        #expect(c.gone.map(\.key) == ["US4-NE4"])
        let worse = try #require(c.worse.first)
        #expect(worse.users == 120 && worse.previousUsers == 40)
        #expect(worse.perMille == 1000 * 120 / 1400.0)
        #expect(worse.series.count == 7 && worse.series.reduce(0, +) == 120)
    }

    @Test func adoptionGivesTheDenominatorAndErrorFreeUsers() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: (0..<8).map { Self.event("e\($0)", 10, "US1-NE1", "1.1", "u\($0 % 4)") })
        let writer = try IngestWriter(store: f.store)
        var batch = IngestWriter.Batch(events: [], complaints: [])
        batch.adoption = [.daily(day: Timestamp.parse("2026-11-10")!.day, version: "1.1", users: 400, sessions: nil)]
        var counts = try writer.write(batches: { defer { batch.adoption = [] }; return batch.adoption.isEmpty ? nil : batch })
        #expect(counts.adoptionRows == 1)
        let release = try #require(try f.store.releases().first)
        #expect(release.adoption == UserDays(active: 400, withError: 4))
        #expect(release.adoption?.errorFreePercent == 99)
        // A session export: distinct installations per day, a session read twice counted once.
        let at = Timestamp.parse("2026-11-11T08:00:00Z")!
        batch.adoption = [.session(id: "s1", at: at, version: "1.1", installation: "i1"),
                          .session(id: "s2", at: at, version: "1.1", installation: "i1"),
                          .session(id: "s3", at: at, version: "1.1", installation: "i2"),
                          .session(id: "s3", at: at, version: "1.1", installation: "i2")]
        counts = try writer.write(batches: { defer { batch.adoption = [] }; return batch.adoption.isEmpty ? nil : batch })
        #expect(counts.adoptionRows == 3)
        let active = try f.store.read { db in try TriageStore.activeUsers(db, days: nil) }
        #expect(active["1.1"] == [Timestamp.parse("2026-11-10")!.day: 400, at.day: 2])
    }
}
