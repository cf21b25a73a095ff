import Foundation
import Testing

/// An ingest writing while the dashboard and a loop of `check`, `report` and `mark` run on the
/// same store: no "database is locked" reaches anyone, every snapshot a reader takes is
/// consistent (committed batches only: `check` recounts every rollup inside one), and nothing
/// is lost.
@Suite(.serialized) struct ConcurrencyTests: TmuxDriving {
    let session = "errtriage-concurrency-\(getpid())"
    static let end = "2026-11-20T18:00:00Z"
    static let now = "2026-11-21T00:00:00Z"

    static func totalEvents(_ result: CLI.Result) -> Int? {
        (result.json["totals"] as? [String: Any])?["events"] as? Int
    }

    /// Two ingests of overlapping files at once (a scheduled one and a hand-run catch-up, say):
    /// both finish, nothing is counted twice, and the store equals one clean run of the union.
    @Test func twoIngestsOfOverlappingFilesAtOnceNeitherDoubleCountNorDeadlock() throws {
        let cli = try CLI()
        let first = cli.folder.appendingPathComponent("first.ndjson").path
        let second = cli.folder.appendingPathComponent("second.ndjson").path
        let all = cli.folder.appendingPathComponent("all.ndjson").path
        try cli.run(["generate", "--events", "6000", "--issues", "30", "--seed", "4", "--end", Self.end, "--out", all])
        let lines = try String(contentsOfFile: all, encoding: .utf8).split(separator: "\n")
        // Each holds two thirds of the events; the middle third is in both.
        try (lines[..<4000].joined(separator: "\n") + "\n").write(toFile: first, atomically: true, encoding: .utf8)
        try (lines[2000...].joined(separator: "\n") + "\n").write(toFile: second, atomically: true, encoding: .utf8)
        // The store exists already (two processes creating one file at once is another matter).
        let seed = cli.folder.appendingPathComponent("seed.ndjson").path
        try (lines[..<10].joined(separator: "\n") + "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        #expect(try cli.run(["ingest", seed]).status == 0)
        let a = try cli.start(["ingest", "--store", cli.store, first], output: .capture)
        let b = try cli.start(["ingest", "--store", cli.store, second], output: .capture)
        let (x, y) = (a.wait(), b.wait())
        #expect(x.status == 0, "\(x.stderr)")
        #expect(y.status == 0, "\(y.stderr)")
        let clean = try CLI()
        #expect(try clean.run(["ingest", all]).status == 0)
        let report = ["report", "--window", "all", "--status", "all", "--top", "100", "--now", Self.now, "--format", "json"]
        #expect(try cli.run(report).stdout == clean.run(report).stdout)
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("6000 events"))
    }

    @Test func ingestDashboardReportsChecksAndMarksShareTheStore() throws {
        let cli = try CLI()
        let first = cli.folder.appendingPathComponent("first.ndjson").path
        let second = cli.folder.appendingPathComponent("second.ndjson").path
        try cli.run(["generate", "--events", "1000", "--issues", "20", "--seed", "1", "--end", Self.end, "--out", first])
        try cli.run(["generate", "--events", "20000", "--issues", "40", "--seed", "2", "--end", Self.end, "--out", second])
        #expect(try cli.run(["ingest", first]).status == 0)
        let report = ["report", "--window", "all", "--status", "all", "--top", "5", "--now", Self.now, "--format", "json"]
        let key = try #require((try cli.run(report).json["issues"] as? [[String: Any]])?.first?["key"] as? String)

        // What one clean run of both files holds.
        let clean = try CLI()
        try clean.run(["ingest", first, second])
        let expected = try #require(Self.totalEvents(try clean.run(report)))

        try start("ERRTRIAGE_STORE='\(cli.store)' USER=tester '\(CLI.binary)' --now \(Self.now)")
        defer { stop() }
        try waitFor("rank: events")

        let ingest = try cli.start(["ingest", "--store", cli.store, second], output: .capture)

        var previous = 0
        var rounds = 0
        var failures: [String] = []
        while ingest.isRunning || rounds < 3 {
            rounds += 1
            let check = try cli.run(["check"])
            if check.status != 0 { failures.append("check: \(check.stdout)\(check.stderr)") }
            let listed = try cli.run(report)
            if listed.status != 0 { failures.append("report: \(listed.stderr)") }
            if let total = Self.totalEvents(listed) {
                if total < previous { failures.append("the total went back from \(previous) to \(total)") }
                previous = total
            }
            let mark = try cli.run(["mark", key] + (rounds % 2 == 0 ? ["open"] : ["resolved", "--in-version", "99.0"]))
            if mark.status != 0 { failures.append("mark: \(mark.stderr)") }
            if rounds > 2000 { break }
        }
        let ended = ingest.wait()
        let errors = ended.stderr
        #expect(ended.status == 0, "ingest: \(errors)")
        #expect(failures == [])
        #expect(!errors.contains("locked"))
        print("concurrency: \(rounds) rounds of check, report and mark while the ingest ran")

        #expect(Self.totalEvents(try cli.run(report)) == expected)
        #expect(try cli.run(["check"]).status == 0)
        // Every mark is in the history, the last one decides the status.
        let detail = try cli.run(["show", key, "--format", "json", "--now", Self.now]).json
        #expect((detail["status"] as? String) == (rounds % 2 == 0 ? "open" : "resolved"))
        #expect(((detail["history"] as? [Any])?.count ?? 0) >= rounds)

        // The dashboard took the new events in by itself and never showed an error.
        try keys("w")
        try keys("w")
        try keys("w")
        for _ in 0..<4 where !(try screen().contains("status: all")) {
            try keys("f")
            Thread.sleep(forTimeInterval: 0.2)
        }
        // The header says `21,000 events`, or `21000 ev` where a long store path leaves less room.
        let shown = try waitUntil("\(expected) events", seconds: 10) {
            $0.contains("\(grouped(expected)) events") || $0.contains(" \(expected) ev ")
        }
        #expect(!shown.lowercased().contains("locked"))
        try keys("q")
    }

    func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
