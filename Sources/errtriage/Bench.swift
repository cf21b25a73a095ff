import ArgumentParser
import DashboardCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SampleData
import TriageImport
import TriageModel
import TriageStore

/// `errtriage bench` (`make bench`): every performance goal measured next to a baseline run in
/// the same process on the same data, printed as a table and written as JSON.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure ingest, lists, details, frames and memory against baselines run side by side (make bench).",
        discussion: """
            Generates N events (streamed), writes them also as CSV, imports the CSV with the sqlite3 \
            shell into a bare table (the baseline), ingests the NDJSON with errtriage, then times every \
            dashboard question against the naive query over the events. Use a release build. \
            Exits 3 if the rollups do not equal the naive counts.
            """)

    @Option(help: "How many events (default: $BENCH_EVENTS, else 1000000).")
    var events: Int = ProcessInfo.processInfo.environment["BENCH_EVENTS"].flatMap { Int($0) } ?? 1_000_000
    @Option(help: "How many distinct issues.") var issues: Int = 400
    @Option(help: "How many days the events span.") var days: Int = 90
    @Option(help: "A folder for the data and stores (default: a new temporary folder, removed after).") var dir: String?
    @Option(help: "Where the JSON results go.") var out: String = "bench-results"

    func run() throws {
        try runReporting {
            guard events > 0 else { throw CLIError.usage("--events must be 1 or more") }
            let folder = dir ?? FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-bench-\(getpid())").path
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { if dir == nil { try? FileManager.default.removeItem(atPath: folder) } }
            var bench = BenchRun(folder: folder, events: events, issues: issues, days: days)
            try bench.measure()
            print(bench.table())
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let file = "\(out)/bench-\(events).json"
            try Data(bench.json().utf8).write(to: URL(fileURLWithPath: file))
            print("written to \(file)")
            if !bench.rollupsEqualNaive { throw CLIError.store("the rollups differ from the naive counts (see above)") }
        }
    }
}

/// One measured row: a value next to its baseline and goal.
struct BenchRow {
    var what: String
    var value: String
    var baseline: String
    var ratio: String
    var goal: String
    var holds: Bool?
}

struct BenchRun {
    let folder: String
    let events: Int
    let issues: Int
    let days: Int
    var rows: [BenchRow] = []
    var details: [String: Double] = [:]
    var rollupsEqualNaive = true

    var ndjson: String { "\(folder)/events.ndjson" }
    var csv: String { "\(folder)/events.csv" }
    var store: String { "\(folder)/store.sqlite" }
    var bare: String { "\(folder)/bare.sqlite" }

    init(folder: String, events: Int, issues: Int, days: Int) {
        self.folder = folder
        self.events = events
        self.issues = issues
        self.days = days
    }

    static func note(_ text: String) { Stderr.write("bench: \(text)\n") }

    mutating func measure() throws {
        for path in [store, bare] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        BenchRun.note("generating \(events) events as NDJSON and CSV")
        try generate()

        BenchRun.note("baseline: sqlite3 .import of the CSV into a bare table")
        let script = "\(folder)/import.sql"
        try """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE event (event_id TEXT, ts INTEGER, key TEXT, app_version TEXT, app_build TEXT, platform TEXT,
              os_name TEXT, os_version TEXT, device_model TEXT, network TEXT, orientation TEXT, app_state TEXT,
              free_ram INTEGER, free_disk INTEGER, jailbroken INTEGER, user_id TEXT, session_id TEXT, environment TEXT,
              message TEXT, custom_keys TEXT, source TEXT);
            .mode csv
            .import '\(csv)' event

            """.write(toFile: script, atomically: true, encoding: .utf8)
        let imported = try Child.run(["/usr/bin/env", "sqlite3", bare, ".read '\(script)'"])
        guard imported.status == 0 else { throw CLIError.store("the sqlite3 shell failed the baseline import") }

        BenchRun.note("errtriage ingest of the NDJSON into a fresh store")
        let ingested = try Child.run([Child.selfPath, "ingest", "--store", store, ndjson])
        guard ingested.status == 0 else { throw CLIError.store("errtriage ingest failed (exit \(ingested.status))") }
        let ratio = ingested.seconds / imported.seconds
        rows.append(BenchRow(what: "ingest of \(events) events", value: Self.seconds(ingested.seconds),
                             baseline: "sqlite3 .import " + Self.seconds(imported.seconds), ratio: Self.times(ratio),
                             goal: "<= 1.0x (never > 1.5x)", holds: ratio <= 1.0))
        details["ingest_seconds"] = ingested.seconds
        details["import_seconds"] = imported.seconds
        details["ingest_events_per_second"] = Double(events) / ingested.seconds
        rows.append(BenchRow(what: "peak memory of that ingest", value: "\(ingested.maxRSSKiB >> 10) MB RSS", baseline: "-",
                             ratio: "-", goal: "<= 100 MB", holds: ingested.maxRSSKiB >> 10 <= 100))
        details["ingest_max_rss_mb"] = Double(ingested.maxRSSKiB) / 1024

        let storeBytes = Self.size(store), bareBytes = Self.size(bare)
        rows.append(BenchRow(what: "store size", value: Self.megabytes(storeBytes), baseline: "bare table " + Self.megabytes(bareBytes),
                             ratio: Self.times(Double(storeBytes) / Double(bareBytes)), goal: "<= 1.5x",
                             holds: Double(storeBytes) <= 1.5 * Double(bareBytes)))
        details["store_bytes"] = Double(storeBytes)
        details["bare_bytes"] = Double(bareBytes)

        let opened = try TriageStore(path: store, readOnly: true)
        let now = try opened.latestEventTime() ?? Timestamp(millis: 0)
        try measureQueries(opened, now: now)
        try measureFrames(opened, now: now)

        BenchRun.note("report --format json as a whole process")
        var walls: [Double] = []
        var rss = 0
        for _ in 0..<5 {
            let report = try Child.run([Child.selfPath, "report", "--store", store, "--now", now.iso8601, "--format", "json"], quiet: true)
            guard report.status == 0 else { throw CLIError.store("errtriage report failed (exit \(report.status))") }
            walls.append(report.seconds)
            rss = max(rss, report.maxRSSKiB)
        }
        let wall = Self.median(walls)
        rows.append(BenchRow(what: "report --format json, whole process", value: Self.millis(wall), baseline: "-", ratio: "-",
                             goal: "<= 200 ms", holds: wall <= 0.2))
        rows.append(BenchRow(what: "peak memory of that report (the dashboard's queries)", value: "\(rss >> 10) MB RSS",
                             baseline: "-", ratio: "-", goal: "<= 64 MB", holds: rss >> 10 <= 64))
        details["report_seconds"] = wall

        BenchRun.note("rollups against the naive counts")
        let check = try opened.verify()
        let listed = try opened.issueList(IssueQuery(window: .all, filter: .all, top: Int.max), now: now).totals.events
        let counted = try opened.naiveEventCount()
        rollupsEqualNaive = check.isSound && listed == counted
        for problem in check.problems { Stderr.write("bench: rollup problem: \(problem)\n") }
        rows.append(BenchRow(what: "rollup totals", value: "\(listed) events, check \(check.isSound ? "sound" : "UNSOUND")",
                             baseline: "naive count \(counted)", ratio: "-", goal: "exactly equal", holds: rollupsEqualNaive))
    }

    /// Writes the events as native NDJSON and, for the baseline, the same rows as CSV.
    func generate() throws {
        let generator = SampleGenerator(.init(events: events, issues: issues, days: days, seed: 42,
                                              end: Timestamp.parse("2026-11-20T18:00:00Z")!))
        let lines = try OutputSink(path: ndjson)
        let rows = try OutputSink(path: csv)
        let decoder = NativeDecoder()
        try generator.write { line in
            try lines.write(line)
            guard case .event(let e) = try? decoder.decode(line: Array(line.utf8)) else { return }
            let fields: [String?] = [
                e.eventID, String(e.timestamp.millis), e.chain.shortKey, e.appVersion, e.appBuild, e.platform, e.osName,
                e.osVersion, e.deviceModel, e.network, e.orientation, e.appState, e.freeRAM.map(String.init),
                e.freeDisk.map(String.init), e.jailbroken.map { $0 ? "1" : "0" }, e.userID, e.sessionID, e.environment,
                e.message, e.customKeys.isEmpty ? nil : e.customKeys.map { "\($0.key)=\($0.value)" }.joined(separator: ";"), e.source,
            ]
            try rows.write(fields.map { field in
                guard let field else { return "" }
                return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: ","))
        }
        try lines.close()
        try rows.close()
    }

    mutating func measureQueries(_ store: TriageStore, now: Timestamp) throws {
        BenchRun.note("top-N lists: 3 modes x 5 windows, rollups against the naive GROUP BY")
        var worst = (fast: 0.0, naive: 0.0, label: "")
        var minRatio = Double.infinity
        for mode in RankMode.allCases {
            for window in TimeWindow.allCases {
                let fast = try Self.time(runs: 5) { _ = try store.issueList(IssueQuery(window: window, mode: mode), now: now) }
                let naive = try Self.time(runs: 1) { _ = try store.naiveTopN(window: window, mode: mode, now: now) }
                details["list_\(mode.rawValue)_\(window.rawValue)_ms"] = fast * 1000
                details["list_naive_\(mode.rawValue)_\(window.rawValue)_ms"] = naive * 1000
                if fast > worst.fast { worst = (fast, naive, "\(mode.rawValue), \(window.rawValue)") }
                minRatio = min(minRatio, naive / fast)
            }
        }
        rows.append(BenchRow(what: "top-N list, slowest (\(worst.label))", value: Self.millis(worst.fast),
                             baseline: "naive GROUP BY " + Self.millis(worst.naive), ratio: "\(Self.times(minRatio)) faster (least)",
                             goal: "<= 20 ms, >= 50x faster", holds: worst.fast <= 0.02 && minRatio >= 50))

        BenchRun.note("issue detail of the busiest issue, 7d and all")
        let top = try store.issueList(IssueQuery(window: .all, mode: .events, filter: .all, top: 1), now: now).issues.first
        guard let key = top?.key else { return }
        var slowest = (fast: 0.0, naive: 0.0, label: "")
        for window in [TimeWindow.d7, .all] {
            let fast = try Self.time(runs: 5) { _ = try store.issueDetail(key: key, window: window, now: now) }
            let naive = try Self.time(runs: 1) { _ = try store.naiveDetail(key: key, window: window, now: now) }
            details["detail_\(window.rawValue)_ms"] = fast * 1000
            details["detail_naive_\(window.rawValue)_ms"] = naive * 1000
            if fast > slowest.fast { slowest = (fast, naive, window.rawValue) }
        }
        rows.append(BenchRow(what: "issue detail, busiest issue (\(slowest.label))", value: Self.millis(slowest.fast),
                             baseline: "naive queries " + Self.millis(slowest.naive),
                             ratio: Self.times(slowest.naive / slowest.fast) + " faster", goal: "<= 20 ms",
                             holds: slowest.fast <= 0.02))
    }

    mutating func measureFrames(_ store: TriageStore, now: Timestamp) throws {
        BenchRun.note("frames of the list at 200x60")
        let size = Size(rows: 60, cols: 200)
        let list = try store.issueList(IssueQuery(), now: now)
        var state = DashboardState(storeName: store.path, query: IssueQuery(), unicode: true, color: true)
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(list))
        var times: [Double] = []
        for _ in 0..<1000 {
            let started = Self.clock()
            _ = render(state, size: size)
            times.append(Self.clock() - started)
        }
        times.sort()
        let p99 = times[times.count * 99 / 100]
        rows.append(BenchRow(what: "full frame of the list, 200x60, p99 of 1000", value: Self.millis(p99), baseline: "-", ratio: "-",
                             goal: "p99 <= 4 ms", holds: p99 <= 0.004))
        details["frame_p99_ms"] = p99 * 1000

        let before = render(state, size: size)
        _ = reduce(&state, .key(.down))
        let after = render(state, size: size)
        let move = Self.bytes(after.changes(since: before))
        let full = Self.bytes(after.changes(since: nil))
        rows.append(BenchRow(what: "one-row selection move", value: "\(move) bytes", baseline: "full redraw \(full) bytes",
                             ratio: String(format: "%.1f%%", 100 * Double(move) / Double(full)), goal: "<= 5%",
                             holds: Double(move) <= 0.05 * Double(full)))
    }

    /// What drawing these runs sends, estimated: a cursor move per run, a style change where the
    /// style changes, and each character's UTF-8 bytes (curses may send a little more or less).
    static func bytes(_ runs: [CellRun]) -> Int {
        var total = 0
        for run in runs {
            total += 8
            var style: Style?
            for cell in run.cells where !cell.isContinuation {
                if cell.style != style { total += 6; style = cell.style }
                total += String(cell.character).utf8.count
            }
        }
        return total
    }

    static func time(runs: Int, _ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let started = clock()
            try body()
            times.append(clock() - started)
        }
        return median(times)
    }

    static func clock() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func seconds(_ s: Double) -> String { String(format: "%.2f s", s) }
    static func millis(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }
    static func times(_ r: Double) -> String { String(format: "%.2fx", r) }
    static func megabytes(_ b: Int64) -> String { String(format: "%.1f MB", Double(b) / 1_048_576) }
    static func size(_ path: String) -> Int64 {
        ["", "-wal"].reduce(0) { sum, suffix in
            sum + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int64) ?? 0)
        }
    }

    func table() -> String {
        let header = BenchRow(what: "what", value: "errtriage", baseline: "baseline (same run)", ratio: "ratio", goal: "goal", holds: nil)
        let all = [header] + rows
        let widths = [all.map(\.what.count).max()!, all.map(\.value.count).max()!, all.map(\.baseline.count).max()!,
                      all.map(\.ratio.count).max()!, all.map(\.goal.count).max()!]
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        var lines = ["errtriage bench: \(events) events, \(issues) issues, \(days) days; \(Self.machine())"]
        for row in all {
            let verdict = row.holds.map { $0 ? "holds" : "MISSES" } ?? "verdict"
            lines.append([pad(row.what, widths[0]), pad(row.value, widths[1]), pad(row.baseline, widths[2]),
                          pad(row.ratio, widths[3]), pad(row.goal, widths[4]), verdict].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        var out = "{\"events\":\(events),\"issues\":\(issues),\"days\":\(days),\"machine\":"
        JSONValue.writeString(Self.machine(), to: &out)
        out += ",\"date\":"
        JSONValue.writeString(Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)).iso8601, to: &out)
        out += ",\"rows\":["
        for (i, row) in rows.enumerated() {
            if i > 0 { out += "," }
            out += "{"
            for (j, (name, value)) in [("what", row.what), ("value", row.value), ("baseline", row.baseline),
                                       ("ratio", row.ratio), ("goal", row.goal)].enumerated() {
                if j > 0 { out += "," }
                JSONValue.writeString(name, to: &out)
                out += ":"
                JSONValue.writeString(value, to: &out)
            }
            out += ",\"holds\":\(row.holds ?? false)}"
        }
        out += "],\"figures\":{"
        out += details.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.3f", $0.value))" }.joined(separator: ",")
        return out + "}}\n"
    }

    static func machine() -> String {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(machine) Linux \(release)"
    }
}

/// A child process timed from spawn to exit, with its peak memory (wait4's rusage).
enum Child {
    struct Result {
        var status: Int32
        var seconds: Double
        var maxRSSKiB: Int
    }

    /// This executable, to run its own subcommands as a user would.
    static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func run(_ arguments: [String], quiet: Bool = false) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let started = BenchRun.clock()
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
            throw CLIError.usage("cannot start \(arguments[0])")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = BenchRun.clock() - started
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: code, seconds: seconds, maxRSSKiB: Int(usage.ru_maxrss))
    }
}
