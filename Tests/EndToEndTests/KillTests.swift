import Foundation
import SampleData
import Testing

/// Crash safety: an ingest or a mark killed with SIGKILL at random moments leaves a store that
/// passes SQLite's integrity check and `errtriage check` (every rollup equals a recount), and a
/// re-run ends with exactly the counts of one clean run. On the PostgreSQL pass the kill drops
/// the client's connection in mid-transaction: the server keeps no part of the batch.
///
/// ERRTRIAGE_LONG_TESTS=1 runs the long version (200k events); KILL_SEED repeats a run's moments.
@Suite(.serialized) struct KillTests {
    static let long = ProcessInfo.processInfo.environment["ERRTRIAGE_LONG_TESTS"] == "1"
    static let seed = UInt64(ProcessInfo.processInfo.environment["KILL_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
    static let now = "2026-11-21T00:00:00Z"

    /// Starts `errtriage ARGS` on the store, kills it with SIGKILL after `delay` seconds (if it is
    /// still running), and returns how it ended.
    static func killed(_ cli: CLI, _ arguments: [String], after delay: Double) throws -> Int32 {
        let child = try cli.start(arguments + ["--store", cli.store])
        Thread.sleep(forTimeInterval: delay)
        child.signal(SIGKILL)
        return child.wait().status
    }

    /// SQLite's integrity check through its own shell, then `errtriage check`.
    static func expectSound(_ cli: CLI, _ moment: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        // (A team store's server checks its own pages; a killed client only drops its connection.)
        if !cli.store.hasPrefix("postgres") {
            let answer = try tool("sqlite3", cli.store, "PRAGMA integrity_check;").stdout
            #expect(answer == "ok\n", "integrity after \(moment)", sourceLocation: sourceLocation)
        }
        let check = try cli.run(["check"])
        // A kill before the first commit (the schema's, on PostgreSQL a moment after the start)
        // leaves no store at all: nothing half-made, which is sound too.
        if check.status == 3, check.stderr.hasPrefix("errtriage: no store at ") { return }
        #expect(check.status == 0, "check after \(moment): \(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
    }

    static func report(_ cli: CLI) throws -> String {
        try cli.run(["report", "--window", "all", "--status", "all", "--top", "1000", "--now", now, "--format", "json"]).stdout
    }

    @Test func anIngestKilledAtTenRandomMomentsStaysSoundAndARerunMatchesACleanRun() throws {
        let events = KillTests.long ? 200_000 : 10_000
        let cli = try CLI()
        let file = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "\(events)", "--issues", "60", "--seed", "11", "--out", file])

        let clean = try CLI()
        let started = Date()
        #expect(try clean.run(["ingest", file]).status == 0)
        let cleanSeconds = Date().timeIntervalSince(started)
        let expected = try KillTests.report(clean)

        var random = SplitMix(seed: KillTests.seed)
        let moments = (0..<10).map { _ in Double(random.next() % 1000) / 1000 * cleanSeconds }
        print("kill moments (KILL_SEED=\(KillTests.seed)): \(moments.map { String(format: "%.2f", $0) }) of a \(String(format: "%.1f", cleanSeconds)) s ingest")
        for (i, moment) in moments.enumerated() {
            _ = try KillTests.killed(cli, ["ingest", file], after: moment)
            try KillTests.expectSound(cli, "kill \(i + 1) at \(moment) s")
        }
        #expect(try cli.run(["ingest", file]).status == 0)
        #expect(try KillTests.report(cli) == expected)
        let check = try cli.run(["check"])
        #expect(check.stdout.contains("\(events) events"), "\(check.stdout)")
    }

    @Test func aMarkKilledRightAfterItStartsIsWhollyThereOrNotAtAll() throws {
        let cli = try CLI()
        let file = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "2000", "--issues", "20", "--seed", "5", "--out", file])
        try cli.run(["ingest", file])
        let keys = (try KillTests.report(cli)).split(separator: "\"key\":\"").dropFirst().prefix(5).map { String($0.prefix { $0 != "\"" }) }
        #expect(keys.count == 5)

        var random = SplitMix(seed: KillTests.seed)
        let marks: [[String]] = [["resolved", "--in-version", "9.9"], ["muted", "--events", "100"], ["regressed"], ["open"]]
        var landed = 0
        for i in 0..<10 {
            let key = keys[i % keys.count]
            let before = try cli.run(["show", key, "--format", "json", "--now", KillTests.now]).stdout
            let status = try KillTests.killed(cli, ["mark", key] + marks[i % marks.count], after: Double(random.next() % 80) / 1000)
            try KillTests.expectSound(cli, "mark \(i + 1) killed")
            let after = try cli.run(["show", key, "--format", "json", "--now", KillTests.now]).stdout
            if status == 0 || after != before { landed += 1 }
        }
        print("marks killed: \(10 - landed) of 10 had not landed")
    }
}
