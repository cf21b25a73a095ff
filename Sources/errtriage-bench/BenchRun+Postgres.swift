import ChildProcess
import Foundation
import ThrowawayPostgres
import TriageModel
import TriageStore

/// The team store's goals, on a throwaway PostgreSQL cluster of this run (port 54330, so that a
/// test run may go on beside it): ingest against `psql \copy` of the same rows, the report as a
/// process, every list and the detail, and how soon a mark in one store is seen by another.
extension BenchRun {
    mutating func measurePostgres() throws {
        BenchRun.note("PostgreSQL: starting a throwaway cluster")
        let cluster: ThrowawayPostgres
        do { cluster = try ThrowawayPostgres(port: 54330) } catch { throw BenchFailure("PostgreSQL could not start: \(error)") }
        let bareURI = try cluster.createDatabase(), storeURI = try cluster.createDatabase()
        let psql = cluster.tool("psql")

        BenchRun.note("PostgreSQL: psql \\copy of the day order's CSV into a bare table")
        let create = try ChildProcess.run([psql, bareURI, "-q", "-c", """
            CREATE TABLE event (event_id TEXT, ts BIGINT, key TEXT, app_version TEXT, app_build TEXT, platform TEXT,
              os_name TEXT, os_version TEXT, device_model TEXT, network TEXT, orientation TEXT, app_state TEXT,
              free_ram BIGINT, free_disk BIGINT, jailbroken BIGINT, user_id TEXT, session_id TEXT, environment TEXT,
              message TEXT, custom_keys TEXT, source TEXT, kind TEXT)
            """], output: .discardStdout)
        guard create.status == 0 else { throw BenchFailure("psql could not create the bare table: \(create.stderr)") }
        let copied = try ChildProcess.run([psql, bareURI, "-q", "-c", "\\copy event FROM '\(csv(.day))' WITH (FORMAT csv)"],
                                          output: .discardStdout)
        guard copied.status == 0 else { throw BenchFailure("psql \\copy failed: \(copied.stderr)") }

        BenchRun.note("PostgreSQL: errtriage ingest of the day order's NDJSON")
        let ingested = try ChildProcess.run([errtriage, "ingest", "--store", storeURI, ndjson(.day)], output: .discardStdout)
        guard ingested.status == 0 else { throw BenchFailure("errtriage ingest into PostgreSQL failed: \(ingested.stderr)") }
        let ratio = ingested.seconds / copied.seconds
        rows.append(BenchRow(what: "PostgreSQL: ingest of \(events) events, day order", value: Self.seconds(ingested.seconds),
                             baseline: "psql \\copy " + Self.seconds(copied.seconds), ratio: Self.times(ratio),
                             goal: "<= 1.5x", holds: ratio <= 1.5))
        details["pg_ingest_day_seconds"] = ingested.seconds
        details["pg_copy_day_seconds"] = copied.seconds
        details["pg_ingest_max_rss_mb"] = Double(ingested.maxRSSKiB) / 1024
        if let size = try? TriageStore(path: storeURI, readOnly: true).databaseBytes() { details["pg_store_bytes"] = Double(size) }

        let store = try TriageStore(path: storeURI, readOnly: true)
        let now = try store.latestEventTime() ?? Timestamp(millis: 0)

        BenchRun.note("PostgreSQL: report --format json as a whole process")
        var walls: [Double] = []
        for _ in 0..<5 {
            let report = try ChildProcess.run([errtriage, "report", "--store", storeURI, "--now", now.iso8601, "--format", "json"],
                                              output: .discard)
            guard report.status == 0 else { throw BenchFailure("errtriage report on PostgreSQL failed (exit \(report.status))") }
            walls.append(report.seconds)
        }
        let wall = Self.median(walls)
        rows.append(BenchRow(what: "PostgreSQL: report --format json, whole process", value: Self.millis(wall), baseline: "-",
                             ratio: "-", goal: "<= 100 ms", holds: wall <= 0.1))
        details["pg_report_seconds"] = wall

        BenchRun.note("PostgreSQL: every list (3 ranks x 5 windows) and the busiest issue's detail")
        var slowest = (seconds: 0.0, label: "")
        for mode in RankMode.allCases {
            for window in TimeWindow.allCases {
                let t = try Self.time(runs: 5) { _ = try store.issueList(IssueQuery(window: window, mode: mode), now: now) }
                details["pg_list_\(mode.rawValue)_\(window.rawValue)_ms"] = t * 1000
                if t > slowest.seconds { slowest = (t, "list \(mode.rawValue), \(window.rawValue)") }
            }
        }
        if let key = try Self.busiestKey(store, now: now) {
            for window in TimeWindow.allCases {
                let t = try Self.time(runs: 5) { _ = try store.issueDetail(key: key, window: window, now: now) }
                details["pg_detail_\(window.rawValue)_ms"] = t * 1000
                if t > slowest.seconds { slowest = (t, "detail, \(window.rawValue)") }
            }
        }
        rows.append(BenchRow(what: "PostgreSQL: every list and the detail, slowest (\(slowest.label))", value: Self.millis(slowest.seconds),
                             baseline: "-", ratio: "-", goal: "<= 30 ms", holds: slowest.seconds <= 0.03))

        BenchRun.note("PostgreSQL: a mark in one store seen by another (LISTEN/NOTIFY)")
        let writer = try TriageStore(path: storeURI), watcher = try TriageStore(path: storeURI)
        var seen: [Double] = []
        for round in 0..<5 {
            let before = try watcher.revision()
            guard let key = try Self.busiestKey(store, now: now) else { break }
            let started = Date()
            _ = try writer.mark(key, .status(round % 2 == 0 ? .muted : .open, version: nil), by: "bench", at: now)
            while try watcher.revision() == before, Date().timeIntervalSince(started) < 5 { usleep(1_000) }
            seen.append(Date().timeIntervalSince(started))
        }
        // The dashboard asks for the revision every poll interval: at worst it learns that late.
        let pollMillis = 500  // DashboardLoop.pollMillis: how often an idle dashboard asks
        let noticed = Self.median(seen), worst = noticed + Double(pollMillis) / 1000
        rows.append(BenchRow(what: "PostgreSQL: a mark in one dashboard seen by another", value: Self.millis(worst),
                             baseline: "notified after " + Self.millis(noticed) + ", polled each \(pollMillis) ms",
                             ratio: "-", goal: "<= 1 s", holds: worst <= 1))
        details["pg_mark_seen_seconds"] = worst
    }
}
