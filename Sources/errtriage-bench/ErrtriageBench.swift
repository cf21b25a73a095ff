import ArgumentParser
import ChildProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `errtriage-bench` (`make bench`): every performance goal of errtriage measured next to a
/// baseline run in the same process on the same data, printed as a table and written as JSON.
/// A measuring tool beside the app, not part of it: the shipped `errtriage` holds no baseline.
@main
struct ErrtriageBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errtriage-bench",
        abstract: "Measure errtriage's ingest, lists, details, frames, memory and serve against baselines run side by side (make bench).",
        discussion: """
            Generates N events (streamed) in day order and in shuffled order, writes them also as CSV, \
            imports each CSV with the sqlite3 shell into a bare table (the baseline), ingests each NDJSON \
            with errtriage, then times every dashboard question against the naive query over the events, \
            check, and the decoding thread; then errtriage serve on loopback (intake into SQLite and PostgreSQL, \
            ack latency at a fixed rate, memory, kill -9s; --serve-only for that alone). Use a release build. \
            Exits 3 if the rollups do not equal the naive counts.
            """)

    @Option(help: "How many events (default: $BENCH_EVENTS, else 1000000).")
    var events: Int = ProcessInfo.processInfo.environment["BENCH_EVENTS"].flatMap { Int($0) } ?? 1_000_000
    @Option(help: "How many distinct issues.") var issues: Int = 400
    @Option(help: "The long tail's issues: the ingest, whole-event and first-screen goals again on that many issues (0: leave it out).")
    var tailIssues: Int = 2_000
    @Option(help: "How many days the events span.") var days: Int = 90
    @Option(help: "A folder for the data and stores (default: a new temporary folder, removed after).") var dir: String?
    @Option(help: "Where the JSON results go.") var out: String = "bench-results"
    @Option(help: "The errtriage binary to measure (default: the one beside this program).") var errtriage: String?

    @Flag(help: "Measure only the lists and the detail, on the store an earlier run left in --dir (for trying a change to a query).")
    var queriesOnly = false
    @Flag(help: "Measure only the whole events' goals (issue 37): the store and the ingest with the default sample against none, and errtriage event ID.")
    var wholeOnly = false
    @Flag(help: "With --queries-only: skip the naive baselines (each takes tens of seconds at 10M events).")
    var noNaive = false

    @Flag(help: "Measure retention instead (also $BENCH_RETENTION=1): a span of traffic arriving weekly into a store that keeps --keep-days; its size, the prunes, every list and history.")
    var retentionYear = ProcessInfo.processInfo.environment["BENCH_RETENTION"] == "1"
    @Option(help: "With --retention-year: events a day (default: $BENCH_PER_DAY, else 30000).")
    var perDay: Int = ProcessInfo.processInfo.environment["BENCH_PER_DAY"].flatMap { Int($0) } ?? 30_000
    @Option(help: "With --retention-year: the days of traffic.") var spanDays: Int = 365
    @Option(help: "With --retention-year: the days of raw events the store keeps.") var keepDays: Int = 90
    @Flag(help: "Measure only errtriage serve (issue 27): intake into SQLite and PostgreSQL, ack latency, memory, kill -9s.")
    var serveOnly = false
    @Flag(help: "Measure only errtriage serve under hostile traffic (issue 40): latency beside large requests, /healthz under keyless bombs, memory under 400,000-event bodies.")
    var serveHostileOnly = false
    @Flag(help: "Leave errtriage serve out of a full run.")
    var noServe = false
    @Option(help: "Seconds each serve throughput and latency measurement lasts, after the warm-up (default: $BENCH_SERVE_SECONDS, else 10).")
    var serveSeconds: Double = ProcessInfo.processInfo.environment["BENCH_SERVE_SECONDS"].flatMap { Double($0) } ?? 10
    @Option(help: "Seconds of load before a serve throughput measurement counts.") var serveWarmup: Double = 2
    @Option(help: "Requests at most in one serve throughput run (whichever of this and the time comes first).")
    var serveMaxRequests = 200_000
    @Option(help: "The fixed rate of the serve latency measurement, events per second.") var serveRate: Double = 1_000
    @Option(help: "How many kill -9 rounds (0: none).") var serveKills = 10
    @Option(help: "Keep-alive connections of the serve load.") var serveConnections = 64
    @Option(help: "Event-loop threads of the serve load generator.") var serveClientThreads = 2
    @Flag(help: "Measure only ErrorChainKit, the app side (issue 39): report(_:) against a bare file append, and reports across SIGKILLs of the app.")
    var appOnly = false
    @Flag(help: "Leave the app side out of a full run.")
    var noApp = false
    @Option(help: "How many SIGKILLs of the reporting app (0: none).") var appKills = 20

    func validate() throws {
        if retentionYear {
            guard perDay > 0, spanDays > 7, keepDays >= 1, keepDays < spanDays else {
                throw ValidationError("--per-day must be 1 or more, --span-days more than 7 and --keep-days between 1 and the span")
            }
        }
        guard events > 0 else { throw ValidationError("--events must be 1 or more") }
        guard serveSeconds > 0, serveWarmup >= 0, serveRate > 0, serveKills >= 0, serveConnections > 0, serveClientThreads > 0,
              serveMaxRequests > 0 else {
            throw ValidationError("the --serve-* figures must be above 0 (--serve-kills and --serve-warmup may be 0)")
        }
        if [queriesOnly, serveOnly, appOnly].filter({ $0 }).count > 1 { throw ValidationError("--queries-only, --serve-only and --app-only: choose one") }
        guard appKills >= 0 else { throw ValidationError("--app-kills must be 0 or more") }
        if queriesOnly && dir == nil { throw ValidationError("--queries-only reads the store of an earlier run: give its --dir") }
    }

    func run() throws {
        let binary = errtriage ?? URL(fileURLWithPath: ChildProcess.selfPath).deletingLastPathComponent().appendingPathComponent("errtriage").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("no errtriage at \(binary): build it (swift build --product errtriage) or give --errtriage PATH")
        }
        let folder = dir ?? FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { if dir == nil { try? FileManager.default.removeItem(atPath: folder) } }
        if retentionYear { return try runRetention(binary: binary, folder: folder) }
        do {
            var bench = BenchRun(errtriage: binary, folder: folder, events: events, issues: issues, days: days)
            bench.withNaive = !noNaive
            bench.tailIssues = tailIssues > 0 ? tailIssues : nil
            bench.withServe = !noServe
            bench.appKills = noApp ? nil : appKills
            bench.serve = ServeSettings(seconds: serveSeconds, warmup: serveWarmup, maxRequests: serveMaxRequests, rate: serveRate,
                                        kills: serveKills, connections: serveConnections, clientThreads: serveClientThreads)
            if queriesOnly {
                try bench.measureQueriesOnly()
            } else if wholeOnly {
                BenchRun.note("generating \(events) events in day order")
                try bench.generate(.day)
                try bench.measureWholeEvents()
                if let tail = bench.tailIssues {
                    var tailBench = BenchRun(errtriage: binary, folder: folder + "/tail", events: events, issues: tail, days: days)
                    try FileManager.default.createDirectory(atPath: tailBench.folder, withIntermediateDirectories: true)
                    BenchRun.note("long tail: generating \(events) events of \(tail) issues in day order")
                    try tailBench.generate(.day)
                    try tailBench.measureWholeEvents(eventIDs: false)
                    bench.rows += tailBench.rows.map { var row = $0; row.what = "long tail (\(tail) issues): " + row.what; return row }
                }
            } else if serveHostileOnly {
                try bench.measureHostile(envelopes: ServeEnvelopes(chains: bench.serve.chains), settings: bench.serve)
            } else if serveOnly {
                try bench.measureServe()
            } else if appOnly {
                try bench.measureAppSide(kills: appKills)
            } else {
                try bench.measure()
            }
            print(bench.table(serveOnly: serveOnly || serveHostileOnly, appOnly: appOnly))
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let file = serveHostileOnly ? "\(out)/bench-serve-hostile.json" : serveOnly ? "\(out)/bench-serve.json"
                : appOnly ? "\(out)/bench-app.json" : "\(out)/bench-\(events).json"
            try Data(bench.json().utf8).write(to: URL(fileURLWithPath: file))
            print("written to \(file)")
            if !bench.rollupsEqualNaive { throw BenchFailure("the rollups differ from the naive counts (see above)") }
        } catch {
            FileHandle.standardError.write(Data("errtriage-bench: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }
}

extension ErrtriageBench {
    func runRetention(binary: String, folder: String) throws {
        do {
            var bench = RetentionBench(errtriage: binary, folder: folder, perDay: perDay, spanDays: spanDays, keepDays: keepDays, issues: issues)
            try bench.measure()
            print(bench.table())
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let file = "\(out)/bench-retention-\(perDay)x\(spanDays).json"
            try Data(bench.json().utf8).write(to: URL(fileURLWithPath: file))
            print("written to \(file)")
            if !bench.answersEqual { throw BenchFailure("the pruned store's answers differ from the unpruned store's (see above)") }
        } catch {
            FileHandle.standardError.write(Data("errtriage-bench: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }
}

/// A step of the bench that failed, said in one sentence.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
