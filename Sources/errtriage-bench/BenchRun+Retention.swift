import ChildProcess
import Foundation
import SampleData
import TriageImport
import TriageModel
import TriageStore

/// The retention mode (`--retention-year`, or `BENCH_RETENTION=1 make bench`): a span of traffic
/// (default a year at 30,000 events a day, 11M events) arriving a week at a time into a store that
/// keeps 90 days, each week's ingest followed by the prune ingest runs once a day (here as its own
/// process, so that its time is measured apart). Then: that store's size against a store of only
/// the raw events it kept (with their rollups) and against the whole span unpruned; the first
/// prune of the unpruned store (months at once); and every list and `history` on the kept store,
/// with their answers checked against the unpruned store's.
struct RetentionBench {
    let errtriage: String
    let folder: String
    let perDay: Int
    let spanDays: Int
    let keepDays: Int
    let issues: Int
    var rows: [BenchRow] = []
    var details: [String: Double] = [:]
    /// The answers on the pruned store equal the unpruned store's where they should.
    var answersEqual = true

    static let end = Timestamp.parse("2026-11-20T18:00:00Z")!
    var events: Int { perDay * spanDays }
    var kept: String { "\(folder)/retained.sqlite" }
    var reference: String { "\(folder)/reference.sqlite" }
    var whole: String { "\(folder)/whole.sqlite" }
    func week(_ n: Int) -> String { "\(folder)/week-\(n).ndjson" }
    var keptLines: String { "\(folder)/kept.ndjson" }

    /// The span's first day; week n holds days `first + 7n ..< first + 7n + 7`.
    var firstDay: Int64 { Self.end.day - Int64(spanDays) + 1 }
    var weeks: Int { (spanDays + 6) / 7 }
    /// When week n's ingest and prune run: the start of the day after it, the data's end for the last.
    func now(afterWeek n: Int) -> Timestamp {
        n == weeks - 1 ? Self.end : .startOf(day: firstDay + Int64(7 * (n + 1)))
    }
    /// The raw horizon after the span: raw events from here on stay.
    var horizon: Timestamp { TriageStore.retentionCut(keepDays: keepDays, now: Self.end) }

    /// The span's events in day order, split into one file a week by their time, and those from
    /// the final raw horizon on also into one file (the reference store's).
    func generate() throws {
        BenchRun.note("retention: generating \(events) events over \(spanDays) days, one file a week")
        let generator = SampleGenerator(.init(events: events, issues: issues, days: spanDays, seed: 42, end: Self.end, order: .day))
        let writers = try (0..<weeks).map { try LineWriter(path: week($0)) }
        let recent = try LineWriter(path: keptLines)
        let marker = Array("\"timestamp\":\"".utf8)
        let cut = horizon
        try generator.write { line in
            let bytes = Array(line.utf8)
            var time: Timestamp?
            if let at = Self.find(marker, in: bytes) {
                let start = at + marker.count
                if let close = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) {
                    time = Timestamp.parse(String(decoding: bytes[start..<close], as: UTF8.self))
                }
            }
            let day = time?.day ?? Self.end.day
            try writers[Int(min(max(0, (day - firstDay) / 7), Int64(weeks - 1)))].write(line)
            if (time ?? Self.end) >= cut { try recent.write(line) }
        }
        for writer in writers { try writer.close() }
        try recent.close()
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        let result = try ChildProcess.run([errtriage] + arguments, output: .capture)
        guard result.status == 0 else {
            throw BenchFailure("errtriage \(arguments.prefix(2).joined(separator: " ")) failed (exit \(result.status)): \(result.stderr)")
        }
        return result
    }

    /// Raw events and complaints against everything else (rollups, issues, history, dictionary).
    static func split(_ store: TriageStore) throws -> (raw: Int64, rest: Int64) {
        let raw: Set<String> = ["event_row", "complaint", "complaint_code"]
        var out: (raw: Int64, rest: Int64) = (0, 0)
        for (table, bytes) in try store.tableBytes() {
            if raw.contains(table) { out.raw += bytes } else { out.rest += bytes }
        }
        return out
    }

    mutating func measure() throws {
        for path in [kept, reference, whole] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try generate()

        // A week at a time, each followed by the prune ingest would run after it.
        BenchRun.note("retention: \(weeks) weekly ingests, each followed by errtriage prune --keep \(keepDays)d")
        var ingestSeconds = 0.0, pruneSeconds: [Double] = [], peak: Int64 = 0, deleted = 0
        var monthly: [Double] = []
        for n in 0..<weeks {
            let now = now(afterWeek: n).iso8601
            ingestSeconds += try run(["ingest", "--store", kept, "--now", now, week(n)]).seconds
            let pruned = try run(["retention", "prune", "--store", kept, "--keep", "\(keepDays)d", "--now", now])
            pruneSeconds.append(pruned.seconds)
            if let range = pruned.stdout.range(of: #"; \d+ events"#, options: .regularExpression) {
                let n = Int(pruned.stdout[range].filter(\.isNumber)) ?? 0
                deleted += n
                if n > 0 { monthly.append(pruned.seconds) }
            }
            peak = max(peak, BenchRun.size(kept))
        }
        let keptBytes = BenchRun.size(kept)
        rows.append(BenchRow(what: "\(weeks) weekly ingests of \(perDay)/day, \(events) events", value: BenchRun.seconds(ingestSeconds),
                             baseline: "-", ratio: "-", goal: "-", holds: nil))
        let worstPrune = pruneSeconds.max() ?? 0
        rows.append(BenchRow(what: "prune after each week (\(monthly.count) deleted a month, \(deleted) events in all), slowest",
                             value: BenchRun.seconds(worstPrune),
                             baseline: "median of those deleting " + BenchRun.seconds(monthly.isEmpty ? 0 : BenchRun.median(monthly)),
                             ratio: "-", goal: "-", holds: nil))
        details["retention_ingest_seconds"] = ingestSeconds
        details["retention_prune_max_seconds"] = worstPrune
        details["retention_prune_month_median_seconds"] = monthly.isEmpty ? 0 : BenchRun.median(monthly)
        details["retention_prune_total_seconds"] = pruneSeconds.reduce(0, +)
        details["retention_peak_bytes"] = Double(peak)

        // The reference: only the raw events the kept store still holds, with their rollups.
        BenchRun.note("retention: the reference store of the kept raw events only")
        _ = try run(["ingest", "--store", reference, keptLines])
        // The whole span unpruned, then its first prune: months at once.
        BenchRun.note("retention: the whole span into one store, unpruned")
        _ = try run(["ingest", "--store", whole] + (0..<weeks).map(week))
        let wholeBytes = BenchRun.size(whole)

        let keptStore = try TriageStore(path: kept, readOnly: true)
        let referenceStore = try TriageStore(path: reference, readOnly: true)
        let k = try Self.split(keptStore), r = try Self.split(referenceStore)
        let referenceBytes = BenchRun.size(reference)
        // The kept store holds the reference's raw events plus the whole span's rollups.
        let allowed = Double(referenceBytes - r.rest + k.rest) * 1.1
        rows.append(BenchRow(what: "store after \(spanDays) days with retention \(keepDays)d (peak \(BenchRun.megabytes(peak)))",
                             value: BenchRun.megabytes(keptBytes),
                             baseline: "kept raw alone \(BenchRun.megabytes(referenceBytes)); unpruned \(BenchRun.megabytes(wholeBytes))",
                             ratio: BenchRun.times(Double(keptBytes) / Double(wholeBytes)) + " of unpruned",
                             goal: "<= kept raw + rollups (\(BenchRun.megabytes(Int64(allowed))))", holds: Double(keptBytes) <= allowed))
        rows.append(BenchRow(what: "  of which raw events and complaints / the rest", value: "\(BenchRun.megabytes(k.raw)) / \(BenchRun.megabytes(k.rest))",
                             baseline: "reference \(BenchRun.megabytes(r.raw)) / \(BenchRun.megabytes(r.rest))", ratio: "-", goal: "-", holds: nil))
        details["retention_store_bytes"] = Double(keptBytes)
        details["retention_reference_bytes"] = Double(referenceBytes)
        details["retention_whole_bytes"] = Double(wholeBytes)
        details["retention_raw_bytes"] = Double(k.raw)
        details["retention_rest_bytes"] = Double(k.rest)
        details["retention_reference_rest_bytes"] = Double(r.rest)

        // The lists and history, on the kept store and on the unpruned one; the answers compared.
        let wholeStore = try TriageStore(path: whole, readOnly: true)
        try measureLists(keptStore, label: "kept", against: wholeStore)
        try measureLists(wholeStore, label: "unpruned", against: nil)
        try measureReport()
        let check = try keptStore.verify()
        for problem in check.problems { BenchRun.note("check problem: \(problem)") }
        answersEqual = answersEqual && check.isSound
        rows.append(BenchRow(what: "check of the kept store", value: check.isSound ? "sound" : "UNSOUND", baseline: "-", ratio: "-",
                             goal: "sound", holds: check.isSound))

        BenchRun.note("retention: errtriage prune of the unpruned store (its first, months at once)")
        let first = try run(["retention", "prune", "--store", whole, "--keep", "\(keepDays)d", "--now", Self.end.iso8601])
        let after = BenchRun.size(whole)
        rows.append(BenchRow(what: "first prune of \(spanDays) days unpruned, to \(keepDays)d", value: BenchRun.seconds(first.seconds),
                             baseline: "store \(BenchRun.megabytes(wholeBytes)) -> \(BenchRun.megabytes(after))", ratio: "-", goal: "-", holds: nil))
        details["retention_first_prune_seconds"] = first.seconds
        details["retention_whole_after_prune_bytes"] = Double(after)
    }

    /// Every list (3 ranks x 5 windows, median of 5), the busiest issue's history and detail
    /// (every window): the same store functions the dashboard calls. With `against`, each answer
    /// is compared with that store's: lists and history equal apart from the marked users.
    mutating func measureLists(_ store: TriageStore, label: String, against other: TriageStore?) throws {
        BenchRun.note("retention: every list, history and detail on the \(label) store")
        let now = Self.end
        var worst = (seconds: 0.0, label: "")
        var allWindow = 0.0
        for mode in RankMode.allCases {
            for window in TimeWindow.allCases {
                let query = IssueQuery(window: window, mode: mode)
                let t = try BenchRun.time(runs: 5) { _ = try store.issueList(query, now: now) }
                details["retention_\(label)_list_\(mode.rawValue)_\(window.rawValue)_ms"] = t * 1000
                if t > worst.seconds { worst = (t, "\(mode.rawValue), \(window.rawValue)") }
                if window == .all { allWindow = max(allWindow, t) }
                if let other {
                    var mine = try store.issueList(query, now: now), theirs = try other.issueList(query, now: now)
                    // Only the horizon's marker may differ: the windows run to the data, so users are exact.
                    mine.rawEventsSince = nil
                    theirs.rawEventsSince = nil
                    if mine != theirs {
                        answersEqual = false
                        BenchRun.note("retention: the \(mode.rawValue) list of \(window.rawValue) differs from the unpruned store's")
                        // Which issue and field, to start from.
                        for (x, y) in zip(mine.issues, theirs.issues) where x != y {
                            for (a, b) in zip(Mirror(reflecting: x).children, Mirror(reflecting: y).children) where "\(a.value)" != "\(b.value)" {
                                BenchRun.note("  \(x.key) \(a.label ?? "?"): \(String("\(a.value)".prefix(200))) against \(String("\(b.value)".prefix(200)))")
                            }
                        }
                    }
                }
            }
        }
        rows.append(BenchRow(what: "\(label) store: every list (3 ranks x 5 windows), slowest (\(worst.label))",
                             value: BenchRun.millis(worst.seconds), baseline: "window all, slowest rank " + BenchRun.millis(allWindow),
                             ratio: "-", goal: "<= 30 ms", holds: worst.seconds <= 0.03))
        guard let key = try BenchRun.busiestKey(store, now: now) else { return }
        let history = try BenchRun.time(runs: 5) { _ = try store.history(key: key) }
        var equal = true
        if let other { equal = try store.history(key: key) == other.history(key: key) }
        answersEqual = answersEqual && equal
        rows.append(BenchRow(what: "\(label) store: history of the busiest issue (\(key))", value: BenchRun.millis(history),
                             baseline: other == nil ? "-" : (equal ? "equals the unpruned store's" : "DIFFERS from the unpruned store's"),
                             ratio: "-", goal: "<= 30 ms", holds: history <= 0.03 && equal))
        var slowest = (seconds: 0.0, window: "")
        for window in TimeWindow.allCases {
            let t = try BenchRun.time(runs: 5) { _ = try store.issueDetail(key: key, window: window, now: now) }
            details["retention_\(label)_detail_\(window.rawValue)_ms"] = t * 1000
            if t > slowest.seconds { slowest = (t, window.rawValue) }
        }
        rows.append(BenchRow(what: "\(label) store: detail of the busiest issue, slowest window (\(slowest.window))",
                             value: BenchRun.millis(slowest.seconds), baseline: "-", ratio: "-", goal: "<= 30 ms", holds: slowest.seconds <= 0.03))
        details["retention_\(label)_history_ms"] = history * 1000
        details["retention_\(label)_list_max_ms"] = worst.seconds * 1000
        details["retention_\(label)_list_all_ms"] = allWindow * 1000
    }

    /// `report --window all` as a whole process on the kept store (the dashboard's `w all`).
    mutating func measureReport() throws {
        var walls: [Double] = []
        for _ in 0..<5 {
            walls.append(try run(["report", "--store", kept, "--window", "all", "--now", Self.end.iso8601, "--format", "json"]).seconds)
        }
        let wall = BenchRun.median(walls)
        rows.append(BenchRow(what: "kept store: report --window all, whole process", value: BenchRun.millis(wall), baseline: "-",
                             ratio: "-", goal: "<= 200 ms", holds: wall <= 0.2))
        details["retention_report_all_seconds"] = wall
    }

    func table() -> String {
        var run = BenchRun(errtriage: errtriage, folder: folder, events: events, issues: issues, days: spanDays)
        run.rows = rows
        return run.table().replacingOccurrences(of: "errtriage bench: ", with: "errtriage bench, retention \(keepDays)d at \(perDay)/day: ")
    }

    func json() -> String {
        var run = BenchRun(errtriage: errtriage, folder: folder, events: events, issues: issues, days: spanDays)
        run.rows = rows
        run.details = details
        run.details["retention_per_day"] = Double(perDay)
        run.details["retention_keep_days"] = Double(keepDays)
        return run.json()
    }
}
