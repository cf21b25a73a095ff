import ChildProcess
import Foundation

extension BenchRun {
    func wholeStore(_ keep: String, round: Int) -> String { "\(folder)/whole-\(keep)-\(round).sqlite" }

    /// Issue 37's goals, side by side on the day-ordered events: the store and the ingest with
    /// the default sample of whole events against the same without payloads (`--keep-whole
    /// none`), each ingested twice into a fresh file in alternating order (the median of wall
    /// and CPU time), and `errtriage event ID` of kept events as a whole process.
    mutating func measureWholeEvents(eventIDs: Bool = true) throws {
        var wall: [String: [Double]] = [:], cpu: [String: [Double]] = [:], size: [String: Int64] = [:]
        for round in 0..<2 {
            for keep in round == 0 ? ["none", "default"] : ["default", "none"] {
                let path = wholeStore(keep, round: round)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                BenchRun.note("whole events: ingest with \(keep == "none" ? "--keep-whole none" : "the default sample"), round \(round + 1) of 2")
                let ingested = try ChildProcess.run([errtriage, "ingest", "--store", path] + (keep == "none" ? ["--keep-whole", "none"] : [])
                                                    + [ndjson(.day)], output: .discardStdout)
                guard ingested.status == 0 else { throw BenchFailure("errtriage ingest (\(keep)) failed (exit \(ingested.status))") }
                wall[keep, default: []].append(ingested.seconds)
                cpu[keep, default: []].append(ingested.cpuSeconds)
                let checkpoint = try ChildProcess.run(["sqlite3", path, "PRAGMA wal_checkpoint(TRUNCATE);"], output: .discardStdout)
                guard checkpoint.status == 0 else { throw BenchFailure("sqlite3 could not checkpoint \(path)") }
                size[keep] = Self.size(path)
            }
        }
        let kept = wholeStore("default", round: 1)
        let counted = try ChildProcess.run(["sqlite3", kept, "SELECT COUNT(*), COALESCE(SUM(bytes), 0), COALESCE(SUM(LENGTH(payload)), 0) FROM kept_payload;"])
        let parts = counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int64($0) }
        let (keptEvents, rawBytes, storedBytes) = parts.count == 3 ? (parts[0], parts[1], parts[2]) : (0, 0, 0)

        let sizeRatio = Double(size["default"]!) / Double(size["none"]!)
        rows.append(BenchRow(what: "store with whole events (default sample)", value: Self.megabytes(size["default"]!),
                             baseline: "--keep-whole none " + Self.megabytes(size["none"]!), ratio: Self.times(sizeRatio),
                             goal: "<= 1.25x", holds: sizeRatio <= 1.25))
        let wallRatio = Self.median(wall["default"]!) / Self.median(wall["none"]!)
        let cpuRatio = Self.median(cpu["default"]!) / Self.median(cpu["none"]!)
        rows.append(BenchRow(what: "ingest with whole events, wall (CPU \(Self.times(cpuRatio)))", value: Self.seconds(Self.median(wall["default"]!)),
                             baseline: "--keep-whole none " + Self.seconds(Self.median(wall["none"]!)), ratio: Self.times(wallRatio),
                             goal: "<= 1.10x", holds: wallRatio <= 1.10))
        details["whole_store_bytes"] = Double(size["default"]!)
        details["whole_none_store_bytes"] = Double(size["none"]!)
        details["whole_ingest_seconds"] = Self.median(wall["default"]!)
        details["whole_none_ingest_seconds"] = Self.median(wall["none"]!)
        details["whole_ingest_cpu_seconds"] = Self.median(cpu["default"]!)
        details["whole_none_ingest_cpu_seconds"] = Self.median(cpu["none"]!)
        details["whole_kept_events"] = Double(keptEvents)
        details["whole_payload_bytes"] = Double(rawBytes)
        details["whole_payload_stored_bytes"] = Double(storedBytes)
        BenchRun.note("whole events: \(keptEvents) of \(events) kept (\(String(format: "%.1f", Double(keptEvents) * 100 / Double(max(events, 1))))%), payloads \(Self.megabytes(rawBytes)) stored as \(Self.megabytes(storedBytes))")

        guard eventIDs else { return }
        // `event ID` of 15 kept events spread over the store, each a whole process (median, and the slowest).
        let ids = try ChildProcess.run(["sqlite3", kept, "SELECT e.event_id FROM kept_payload p JOIN event_row e ON e.id = p.id ORDER BY p.ts LIMIT 15 OFFSET \(max(0, keptEvents / 2 - 7));"])
            .stdout.split(separator: "\n").map(String.init)
        guard !ids.isEmpty else { throw BenchFailure("the store with whole events keeps none") }
        var times: [Double] = []
        for id in ids {
            let shown = try ChildProcess.run([errtriage, "event", id, "--store", kept], output: .discardStdout)
            guard shown.status == 0 else { throw BenchFailure("errtriage event \(id) failed (exit \(shown.status))") }
            times.append(shown.seconds)
        }
        rows.append(BenchRow(what: "errtriage event ID at \(events) events, whole process (slowest \(Self.millis(times.max()!)))",
                             value: Self.millis(Self.median(times)), baseline: "-", ratio: "-", goal: "<= 50 ms", holds: times.max()! <= 0.050))
        details["event_id_median_seconds"] = Self.median(times)
        details["event_id_max_seconds"] = times.max()!
    }
}
