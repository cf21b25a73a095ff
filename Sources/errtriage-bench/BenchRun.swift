import ChildProcess
import DashboardCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SampleData
import TriageImport
import TriageModel
import TriageStore

/// One bench run: the data generated in a folder, the baseline and errtriage measured on it, row by row.
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

    init(errtriage: String, folder: String, events: Int, issues: Int, days: Int) {
        self.errtriage = errtriage
        self.folder = folder
        self.events = events
        self.issues = issues
        self.days = days
    }

    /// The errtriage binary measured.
    let errtriage: String

    static func note(_ text: String) { FileHandle.standardError.write(Data("bench: \(text)\n".utf8)) }

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
        let imported = try ChildProcess.run(["sqlite3", bare, ".read '\(script)'"], output: .discardStdout)
        guard imported.status == 0 else { throw BenchFailure("the sqlite3 shell failed the baseline import") }

        BenchRun.note("errtriage ingest of the NDJSON into a fresh store")
        let ingested = try ChildProcess.run([errtriage, "ingest", "--store", store, ndjson], output: .discardStdout)
        guard ingested.status == 0 else { throw BenchFailure("errtriage ingest failed (exit \(ingested.status))") }
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
            let report = try ChildProcess.run([errtriage, "report", "--store", store, "--now", now.iso8601, "--format", "json"], output: .discard)
            guard report.status == 0 else { throw BenchFailure("errtriage report failed (exit \(report.status))") }
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
        for problem in check.problems { BenchRun.note("rollup problem: \(problem)") }
        rows.append(BenchRow(what: "rollup totals", value: "\(listed) events, check \(check.isSound ? "sound" : "UNSOUND")",
                             baseline: "naive count \(counted)", ratio: "-", goal: "exactly equal", holds: rollupsEqualNaive))
    }

    /// Writes the events as native NDJSON and, for the baseline, the same rows as CSV.
    func generate() throws {
        let generator = SampleGenerator(.init(events: events, issues: issues, days: days, seed: 42,
                                              end: Timestamp.parse("2026-11-20T18:00:00Z")!))
        let lines = try LineWriter(path: ndjson)
        let rows = try LineWriter(path: csv)
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
            let started = ChildProcess.clock()
            _ = render(state, size: size)
            times.append(ChildProcess.clock() - started)
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
            let started = ChildProcess.clock()
            try body()
            times.append(ChildProcess.clock() - started)
        }
        return median(times)
    }

}
