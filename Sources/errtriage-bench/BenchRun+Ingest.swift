import ChildProcess
import Foundation
import SampleData
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

extension BenchRun {
    /// The generated NDJSON of one order, and the same rows as CSV for the baseline.
    func ndjson(_ order: EventOrder) -> String { "\(folder)/events-\(order.rawValue).ndjson" }
    func csv(_ order: EventOrder) -> String { "\(folder)/events-\(order.rawValue).csv" }
    func store(_ order: EventOrder) -> String { "\(folder)/store-\(order.rawValue).sqlite" }
    func bare(_ order: EventOrder) -> String { "\(folder)/bare-\(order.rawValue).sqlite" }

    /// The orders whose ingest is measured: the common one (days in order), then the worst case.
    static let orders: [(order: EventOrder, goal: Double, goalText: String)] = [
        (.day, 1.5, "<= 1.5x (lasting goal 1.0x)"), (.shuffled, 2.0, "<= 2.0x"),
    ]

    /// The baseline's import and errtriage's ingest of one order's events, each into a fresh file.
    mutating func measureIngest(_ order: EventOrder, goal: Double, goalText: String) throws -> ChildProcess.Result {
        for path in [store(order), bare(order)] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        BenchRun.note("\(order.rawValue) order: sqlite3 .import of the CSV into a bare table")
        let script = "\(folder)/import-\(order.rawValue).sql"
        try """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE event (event_id TEXT, ts INTEGER, key TEXT, app_version TEXT, app_build TEXT, platform TEXT,
              os_name TEXT, os_version TEXT, device_model TEXT, network TEXT, orientation TEXT, app_state TEXT,
              free_ram INTEGER, free_disk INTEGER, jailbroken INTEGER, user_id TEXT, session_id TEXT, environment TEXT,
              message TEXT, custom_keys TEXT, source TEXT, kind TEXT);
            .mode csv
            .import '\(csv(order))' event

            """.write(toFile: script, atomically: true, encoding: .utf8)
        let imported = try ChildProcess.run(["sqlite3", bare(order), ".read '\(script)'"], output: .discardStdout)
        guard imported.status == 0 else { throw BenchFailure("the sqlite3 shell failed the baseline import") }

        BenchRun.note("\(order.rawValue) order: errtriage ingest of the NDJSON into a fresh store")
        let ingested = try ChildProcess.run([errtriage, "ingest", "--store", store(order), ndjson(order)], output: .discardStdout)
        guard ingested.status == 0 else { throw BenchFailure("errtriage ingest failed (exit \(ingested.status))") }
        let ratio = ingested.seconds / imported.seconds
        rows.append(BenchRow(what: "ingest of \(events) events, \(order.rawValue) order", value: Self.seconds(ingested.seconds),
                             baseline: "sqlite3 .import " + Self.seconds(imported.seconds), ratio: Self.times(ratio),
                             goal: goalText, holds: ratio <= goal))
        details["ingest_\(order.rawValue)_seconds"] = ingested.seconds
        details["import_\(order.rawValue)_seconds"] = imported.seconds
        details["ingest_\(order.rawValue)_events_per_second"] = Double(events) / ingested.seconds
        details["ingest_\(order.rawValue)_max_rss_mb"] = Double(ingested.maxRSSKiB) / 1024
        return ingested
    }

    /// Writes one order's events as native NDJSON and, for the baseline, the same rows as CSV.
    func generate(_ order: EventOrder) throws {
        let generator = SampleGenerator(.init(events: events, issues: issues, days: days, seed: 42,
                                              end: Timestamp.parse("2026-11-20T18:00:00Z")!, order: order))
        let lines = try LineWriter(path: ndjson(order))
        let rows = try LineWriter(path: csv(order))
        // The same events as a Crashlytics export, for the common order only.
        let export = order == .day ? try LineWriter(path: crashlytics(order)) : nil
        let decoder = NativeDecoder()
        try generator.write { line in
            try lines.write(line)
            guard case .event(let e) = try? decoder.decode(line: Array(line.utf8)) else { return }
            try export?.write(Self.crashlyticsLine(e))
            let fields: [String?] = [
                e.eventID, String(e.timestamp.millis), e.chain.shortKey, e.appVersion, e.appBuild, e.platform, e.osName,
                e.osVersion, e.deviceModel, e.network, e.orientation, e.appState, e.freeRAM.map(String.init),
                e.freeDisk.map(String.init), e.jailbroken.map { $0 ? "1" : "0" }, e.userID, e.sessionID, e.environment,
                e.message, e.customKeys.isEmpty ? nil : e.customKeys.map { "\($0.key)=\($0.value)" }.joined(separator: ";"), e.source,
                e.kind?.rawValue,
            ]
            try rows.write(fields.map { field in
                guard let field else { return "" }
                return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }.joined(separator: ","))
        }
        try lines.close()
        try rows.close()
        try export?.close()
    }

    /// The decoding thread's work on one core: the NDJSON (in the page cache, just written) read
    /// by `RecordReader` into batches of prepared events, as ingest's reading thread does; and the
    /// decoders alone over the lines in memory, the byte reader against the tree reader.
    mutating func measureDecoding(_ order: EventOrder) throws {
        BenchRun.note("decoding thread: \(order.rawValue) order's NDJSON into prepared batches")
        let path = ndjson(order)
        let fileBytes = Double(Self.size(path))
        let thread = try Self.time(runs: 1) {
            try DecodedBatch.each(from: RecordReader(path: path, source: nil)) { _ in true }
        }
        // The lines in memory: at most 256 MiB of them, so that 10M events fit too.
        let data = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 256 << 20) ?? Data()
        let bytes = [UInt8](data)
        var lines: [[UInt8]] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            lines.append(Array(bytes[start..<i]))
            start = i + 1
        }
        let memoryBytes = Double(start)
        let tree = NativeDecoder()
        let fast = try Self.time(runs: 3) {
            let bytes = NativeLineDecoder()
            for line in lines where bytes.event(line, forced: false) == nil { _ = try? tree.decode(line: line) }
        }
        let slow = try Self.time(runs: 1) { for line in lines { _ = try? tree.decode(line: line) } }
        let rate = fileBytes / thread / 1_048_576
        rows.append(BenchRow(what: "decoding thread, native NDJSON, one core", value: String(format: "%.1f MB/s", rate),
                             baseline: String(format: "decoder alone %.1f MB/s, tree %.1f MB/s", memoryBytes / fast / 1_048_576,
                                              memoryBytes / slow / 1_048_576),
                             ratio: "-", goal: ">= 150 MB/s", holds: rate >= 150))
        details["decoding_thread_mb_per_second"] = rate
        details["decoder_alone_mb_per_second"] = memoryBytes / fast / 1_048_576
        details["tree_decoder_mb_per_second"] = memoryBytes / slow / 1_048_576
    }
}
