import Foundation
import Testing
import TestSupport
import ThrowawayPostgres
import TriageModel
@testable import TriageStore

/// The store keeps a sample of events whole, as the sample rule promises, scrubbed and
/// compressed; a newer event takes an older one's roles, a payload with none left goes, and
/// pruning takes payloads with their events. Both engines.
@Suite struct WholeEventsTests {
    static func line(_ id: String, _ time: String, version: String, environment: String? = nil) -> String {
        var line = TemporaryStore.event(id, time, version: version)
        if let environment { line.removeLast(); line += ",\"environment\":\"\(environment)\"}" }
        return line
    }

    /// Five events a day on two days, of releases 1.0 and 1.1.
    static let twoDays = (1...5).map { line("a\($0)", "2026-10-01T10:0\($0):00Z", version: "1.0") }
        + (1...5).map { line("b\($0)", "2026-10-02T10:0\($0):00Z", version: "1.1") }

    static func kept(_ f: TemporaryStore) throws -> [String: [String]] {
        let key = try #require(try f.store.keptEvents(issueKey: "US14-LO43-AP7-NE8").first?.issueKey)
        return Dictionary(uniqueKeysWithValues: try f.store.keptEvents(issueKey: key).map { ($0.eventID, $0.roles.names) })
    }

    @Test(arguments: [1, 500])
    func theSampleKeepsTheFirstTheLatestEachReleasesLatestAndTheDaysQuota(batch: Int) throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.perDay(2))
        try f.ingest(lines: Self.twoDays, batch: batch)
        #expect(try Self.kept(f) == [
            "a1": ["first", "day sample"], "a2": ["day sample"], "a5": ["latest of release"],
            "b1": ["day sample"], "b2": ["day sample"], "b5": ["latest", "latest of release"],
        ])
        // A newer event of 1.0 takes the latest and 1.0's latest: a5 has no role left and goes.
        try f.ingest(lines: [Self.line("c1", "2026-10-03T09:00:00Z", version: "1.0", environment: "prod")], batch: batch)
        #expect(try Self.kept(f) == [
            "a1": ["first", "day sample"], "a2": ["day sample"],
            "b1": ["day sample"], "b2": ["day sample"], "b5": ["latest of release"],
            "c1": ["latest", "latest of release", "latest of environment", "day sample"],
        ])
        // An older event than the first takes the first; counts stay exact whatever is kept.
        try f.ingest(lines: [Self.line("z0", "2026-09-30T09:00:00Z", version: "0.9")], batch: batch)
        let roles = try Self.kept(f)
        #expect(roles["z0"] == ["first", "latest of release", "day sample"])
        #expect(roles["a1"] == ["day sample"])
        #expect(try f.store.read { db in try Int.fetchOne(db, sql: "SELECT events FROM issue") } == 12)
    }

    @Test func keepWholeAllKeepsEveryEvent() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.all)
        try f.ingest(lines: Self.twoDays)
        #expect(try f.store.keepWhole() == .all)
        #expect(try Self.kept(f).count == 10)
    }

    @Test func keepWholeNoneKeepsNoPayload() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.none)
        try f.ingest(lines: Self.twoDays)
        #expect(try f.store.keptTotals().events == 0)
        #expect(try f.store.read { db in try Int.fetchOne(db, sql: "SELECT events FROM issue") } == 10)
    }

    @Test func theKeptPayloadIsTheLineAsItCame() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: Self.twoDays)
        let event = try #require(try f.store.keptEvent(id: "b5"))
        #expect(event.payload == Array(Self.twoDays[9].utf8))
        #expect(event.source == "native")
        #expect(event.release == "1.1")
        #expect(try f.store.keptEvent(id: "no-such-event") == nil)
    }

    /// What the raise sites are read from: the issue's newest kept event and its payload, in one
    /// read; another issue's newer event is not it.
    @Test func theLatestKeptEventOfAnIssueComesWithItsPayload() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: Self.twoDays + [TemporaryStore.event("other", "2026-10-05T10:00:00Z", codes: "US14-NE8", version: "1.1")])
        let latest = try #require(try f.store.latestKeptEvent(issueKey: "US14-LO43-AP7-NE8"))
        #expect(latest.eventID == "b5" && latest.issueKey == "US14-LO43-AP7-NE8")
        #expect(latest.payload == Array(Self.twoDays[9].utf8))
        // The day's fifth event: not in the day sample (1st, 2nd, 4th…), kept for its roles.
        #expect(latest.roles.names == ["latest", "latest of release"])
        #expect(try f.store.latestKeptEvent(issueKey: "US14-NE8")?.eventID == "other")
        #expect(try f.store.latestKeptEvent(issueKey: "NE1") == nil)
    }

    @Test func pruningTakesKeptPayloadsWithTheirEvents() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.all)
        try f.ingest(lines: [Self.line("old1", "2026-01-05T10:00:00Z", version: "1.0"),
                             Self.line("old2", "2026-01-06T10:00:00Z", version: "1.0"),
                             Self.line("new1", "2026-03-05T10:00:00Z", version: "1.1")])
        let result = try f.store.prune(keepDays: 30, now: Timestamp.parse("2026-03-10T00:00:00Z")!)
        #expect(result.eventsDeleted == 2)
        #expect(result.payloadsDeleted == 2)
        #expect(try Self.kept(f).keys.sorted() == ["new1"])
        #expect(try f.store.keptEvent(id: "old1") == nil)
    }

    static func kept(_ f: TemporaryStore, issue: String) throws -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: try f.store.keptEvents(issueKey: issue, limit: 5_000).map { ($0.eventID, $0.roles.names) })
    }

    /// A busy day is kept in a few events spread over it: the 1st, 2nd, 4th, 8th… of the issue's day.
    @Test func aBusyDayIsSampledInAFewEventsSpreadOverIt() throws {
        let f = try TemporaryStore()
        let lines = (1...100).map { i in
            Self.line("e\(i)", String(format: "2026-10-01T%02d:%02d:00Z", i / 60, i % 60), version: "1.0")
        }
        try f.ingest(lines: lines)
        let kept = try Self.kept(f, issue: "US14-LO43-AP7-NE8")
        #expect(kept.filter { $0.value.contains("day sample") }.keys.sorted()
                == ["e1", "e16", "e2", "e32", "e4", "e64", "e8"])
        #expect(kept["e100"] == ["latest", "latest of release"])
        #expect(kept.count == 8)
        // The next day starts over.
        try f.ingest(lines: [Self.line("f1", "2026-10-02T00:00:00Z", version: "1.0")])
        #expect(try Self.kept(f, issue: "US14-LO43-AP7-NE8")["f1"] == ["latest", "latest of release", "day sample"])
    }

    /// A new release on every event keeps the latest of the issue's five newest releases, not one per release.
    @Test func aNewReleaseOnEveryEventKeepsTheLatestOfTheFiveNewestReleases() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.perDay(1))
        let lines = (1...40).map { i in Self.line("r\(i)", String(format: "2026-10-01T10:%02d:00Z", i), version: "1.\(i)") }
        try f.ingest(lines: lines, batch: 7)
        let kept = try Self.kept(f, issue: "US14-LO43-AP7-NE8")
        let releases = kept.filter { $0.value.contains("latest of release") }.keys.sorted()
        #expect(releases == ["r36", "r37", "r38", "r39", "r40"])
        #expect(kept["r1"] == ["first", "day sample"])
        #expect(kept.count == 6)
        #expect(try f.store.verify().isSound)
    }

    /// An issue keeps at most `SampleBounds.perIssueCount` day samples: past it, each new one takes the oldest's place.
    @Test func anIssuesDaySampleIsBoundedAndSlides() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.perDay(1))
        let start = Timestamp.parse("2023-01-01T12:00:00Z")!
        let days = SampleBounds.perIssueCount + 30
        let lines = (0..<days).map { d in
            Self.line("d\(d)", Timestamp(millis: start.millis + Int64(d) * Timestamp.millisPerDay).iso8601, version: "1.0")
        }
        try f.ingest(lines: lines, batch: 500)
        let kept = try Self.kept(f, issue: "US14-LO43-AP7-NE8")
        let sampled = kept.filter { $0.value.contains("day sample") }
        #expect(sampled.count == SampleBounds.perIssueCount)
        #expect(kept["d0"] == ["first", "day sample"])
        #expect(kept["d1"] == nil)
        #expect(sampled["d\(days - 1)"] != nil)
        #expect(try f.store.read { db in try Int.fetchOne(db, sql: "SELECT events FROM issue") } == days)
        #expect(try f.store.verify().isSound)
    }

    /// The store trains a zstd dictionary on its first payloads of a source and compresses the
    /// later ones with it; payloads of before and after read back as they came.
    @Test func theStoreTrainsADictionaryOnItsFirstPayloads() throws {
        let f = try TemporaryStore()
        try f.store.setKeepWhole(.all)
        let lines = TemporaryStore.sampleLines(events: 2_500, issues: 20, days: 5)
        try f.ingest(lines: lines)
        let dictionaries = try f.store.read { db in try SQLRow.fetchAll(db, sql: "SELECT id, source FROM payload_dictionary") }
        #expect(dictionaries.count == 1)
        let dicts = try f.store.read { db in try Int64.fetchAll(db, sql: "SELECT DISTINCT dict FROM kept_payload ORDER BY dict") }
        #expect(dicts.count == 2 && dicts[0] == -1 && dicts[1] > 0)
        let ratio = try f.store.read { db in try Double.fetchOne(db, sql: """
            SELECT CAST(SUM(LENGTH(payload)) AS REAL) / SUM(bytes) FROM kept_payload WHERE dict > 0
            """) }
        #expect(try #require(ratio) < 0.3)
        let byID = Dictionary(lines.compactMap { line -> (String, String)? in
            guard let r = line.range(of: #""event_id":""#) else { return nil }
            let rest = line[r.upperBound...]
            return (String(rest[..<rest.firstIndex(of: "\"")!]), line)
        }, uniquingKeysWith: { a, _ in a })
        for id in try f.store.read({ db in try String.fetchAll(db, sql: """
            SELECT e.event_id FROM kept_payload p JOIN event_row e ON e.id = p.id WHERE p.dict IN (-1, \(dicts[1])) ORDER BY p.id LIMIT 5
            """) }) + (try f.store.read { db in try String.fetchAll(db, sql: """
            SELECT e.event_id FROM kept_payload p JOIN event_row e ON e.id = p.id ORDER BY p.id DESC LIMIT 5
            """) }) {
            let event = try #require(try f.store.keptEvent(id: id))
            #expect(event.payload == Array(byID[id]!.utf8))
        }
        // A second ingest into the store reads the trained dictionary rather than training another.
        try f.ingest(lines: TemporaryStore.sampleLines(events: 300, issues: 20, days: 5, seed: 9))
        #expect(try f.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM payload_dictionary") } == 1)
    }

    /// A planted secret in a Sentry event's header, extra and query: it is in no byte the store
    /// writes, neither in the SQLite file (and its journal) nor in a PostgreSQL dump.
    @Test func aScrubbedSecretIsInNoByteOfTheStore() throws {
        let secret = "PLANTED-7f3a9c-SECRET"
        let event = """
            {"event_id":"5e1c","timestamp":"2026-10-01T10:00:00Z","platform":"python","level":"error",\
            "exception":{"values":[{"type":"KeyError","value":"'amount'"}]},\
            "request":{"url":"https://shop.example/pay?token=\(secret)","headers":{"Authorization":"Bearer \(secret)","Cookie":"sid=\(secret)"}},\
            "extra":{"db_password":"\(secret)"}}
            """
        let f = try TemporaryStore()
        try f.ingest(lines: [event])
        let kept = try #require(try f.store.keptEvent(id: "5e1c"))
        let text = String(decoding: kept.payload, as: UTF8.self)
        #expect(!text.contains(secret))
        #expect(text.contains(#""Authorization":"[Filtered]""#))
        #expect(text.contains("KeyError"))
        let dumped: [UInt8]
        if TemporaryStore.onPostgres {
            let cluster = try PostgresCluster.shared.get()
            dumped = Array(try Self.run(cluster.tool("pg_dump"), ["--no-owner", "-d", f.path]).utf8)
            #expect(String(decoding: dumped, as: UTF8.self).contains("kept_payload"))
        } else {
            dumped = try [f.path, f.path + "-wal", f.path + "-shm"].flatMap { path -> [UInt8] in
                FileManager.default.fileExists(atPath: path) ? Array(try Data(contentsOf: URL(fileURLWithPath: path))) : []
            }
        }
        #expect(dumped.count > 1000)
        #expect(dumped.firstRange(of: Array(secret.utf8)) == nil, "the secret is in the store's bytes")
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
