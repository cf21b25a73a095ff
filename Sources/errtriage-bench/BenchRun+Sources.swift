import ChildProcess
import Foundation
import SampleData
import TriageModel

/// The rows beside the native ingest: the same events as a Crashlytics BigQuery export, the
/// generator piped straight into ingest, and the wait from a fresh export to the first screen
/// against DuckDB loading the same file (a reference, measured where Python has `duckdb`).
extension BenchRun {
    func crashlytics(_ order: EventOrder) -> String { "\(folder)/events-\(order.rawValue).crashlytics.ndjson" }

    /// One event as a row of Crashlytics' BigQuery export extracted to NDJSON: TIMESTAMPs as
    /// BigQuery writes them, INT64s as strings, the chain as `issue_title` and the custom key
    /// `error_codes_stack`, the network as a custom key (FORMATS.md).
    static func crashlyticsLine(_ e: ErrorEvent) -> String {
        var out = "{\"platform\":"
        JSONString.write((e.platform ?? "ios").uppercased(), to: &out)
        out += ",\"bundle_identifier\":\"com.example.app\",\"event_id\":"
        JSONString.write(e.eventID, to: &out)
        out += ",\"issue_id\":"
        JSONString.write("issue-" + e.chain.shortKey, to: &out)
        out += ",\"issue_title\":"
        JSONString.write(e.chain.shortKey, to: &out)
        if let message = e.message {
            out += ",\"issue_subtitle\":"
            JSONString.write(message, to: &out)
        }
        // 2026-08-22T19:00:35.445Z → 2026-08-22 19:00:35.445000 UTC
        let seconds = e.timestamp.iso8601.prefix(19).replacingOccurrences(of: "T", with: " ")
        let millis = ((e.timestamp.millis % 1000) + 1000) % 1000
        let time = seconds + "." + String(format: "%03d000", millis) + " UTC"
        out += ",\"event_timestamp\":\"\(time)\",\"received_timestamp\":\"\(time)\""
        let type = switch e.kind { case .crash?: "FATAL"; case .anr?: "ANR"; default: "NON_FATAL" }
        out += ",\"error_type\":\"\(type)\""
        func member(_ name: String, _ value: String?) {
            guard let value else { return }
            out += ",\"\(name)\":"
            JSONString.write(value, to: &out)
        }
        member("firebase_session_id", e.sessionID)
        member("app_orientation", e.orientation?.uppercased())
        member("process_state", e.appState?.uppercased())
        out += ",\"application\":{\"build_version\":"
        JSONString.write(e.appBuild ?? "", to: &out)
        out += ",\"display_version\":"
        JSONString.write(e.appVersion ?? "", to: &out)
        out += "},\"device\":{\"manufacturer\":\"Apple\",\"model\":"
        JSONString.write(e.deviceModel ?? "", to: &out)
        out += ",\"architecture\":\"arm64\"},\"operating_system\":{\"name\":"
        JSONString.write(e.osName ?? "", to: &out)
        out += ",\"display_version\":"
        JSONString.write(e.osVersion ?? "", to: &out)
        out += ",\"modification_state\":\"\(e.jailbroken == true ? "MODIFIED" : "UNMODIFIED")\"}"
        if let free = e.freeRAM { out += ",\"memory\":{\"used\":\"0\",\"free\":\"\(free)\"}" }
        if let free = e.freeDisk { out += ",\"storage\":{\"used\":\"0\",\"free\":\"\(free)\"}" }
        if let user = e.userID {
            out += ",\"user\":{\"id\":"
            JSONString.write(user, to: &out)
            out += "}"
        }
        var keys = e.customKeys
        if let network = e.network { keys.append((key: "network", value: network)) }
        keys.append((key: "error_codes_stack", value: e.chain.fullForm))
        out += ",\"custom_keys\":["
        for (i, pair) in keys.enumerated() {
            out += i == 0 ? "{\"key\":" : ",{\"key\":"
            JSONString.write(pair.key, to: &out)
            out += ",\"value\":"
            JSONString.write(pair.value, to: &out)
            out += "}"
        }
        out += "],\"logs\":[],\"breadcrumbs\":[],\"errors\":[{\"title\":"
        JSONString.write(e.chain.shortKey, to: &out)
        return out + ",\"code\":0,\"frames\":[]}]}"
    }

    /// Ingest of the day order's events as a Crashlytics export, against `.import` of the same
    /// rows as CSV (measured just before, by `measureIngest`).
    mutating func measureCrashlyticsIngest() throws {
        let store = "\(folder)/store-crashlytics.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        BenchRun.note("errtriage ingest of the same events as a Crashlytics BigQuery export")
        let ingested = try ChildProcess.run([errtriage, "ingest", "--store", store, crashlytics(.day)], output: .discardStdout)
        guard ingested.status == 0 else { throw BenchFailure("errtriage ingest of the Crashlytics export failed (exit \(ingested.status))") }
        let imported = details["import_day_seconds"] ?? .nan
        let ratio = ingested.seconds / imported
        rows.append(BenchRow(what: "ingest of \(events) events, Crashlytics export, day order", value: Self.seconds(ingested.seconds),
                             baseline: "sqlite3 .import " + Self.seconds(imported), ratio: Self.times(ratio),
                             goal: "<= 2.0x", holds: ratio <= 2.0))
        details["ingest_crashlytics_seconds"] = ingested.seconds
        details["crashlytics_bytes"] = Double(Self.size(crashlytics(.day)))
    }

    /// `generate --out - | ingest -`: the generator and ingest sharing the two cores, as the
    /// issue's 10M pipe does; a smaller run is held to its share of the 3 minutes.
    mutating func measurePipe() throws {
        let store = "\(folder)/store-pipe.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
        BenchRun.note("errtriage generate --out - | errtriage ingest -")
        let script = "'\(errtriage)' generate --events \(events) --issues \(issues) --days \(days) --out - | '\(errtriage)' ingest --store '\(store)' -"
        let piped = try ChildProcess.run(["bash", "-c", "set -o pipefail; " + script], output: .discard)
        guard piped.status == 0 else { throw BenchFailure("generate | ingest failed (exit \(piped.status))") }
        let allowed = 180 * Double(events) / 10_000_000
        rows.append(BenchRow(what: "generate --events \(events) --out - | ingest -", value: Self.seconds(piped.seconds), baseline: "-",
                             ratio: "-", goal: "<= 3 min at 10M (\(Self.seconds(allowed)) here)", holds: piped.seconds <= allowed))
        details["pipe_seconds"] = piped.seconds
    }

    /// From a fresh export to the first screen: the day order's ingest plus a process that opens
    /// the store and computes the list the dashboard opens on (`report`, 7 days, the top 200),
    /// against DuckDB loading the same NDJSON into a table (`read_json_auto`, every line sampled
    /// for the schema, since complaints share the file) and answering the top 20 chains by events,
    /// where installed (`make bench-tools` puts it in .venv).
    mutating func measureFirstScreen(now: Timestamp) throws {
        BenchRun.note("first screen: ingest + opening the list, against DuckDB loading the file")
        let opened = try ChildProcess.run([errtriage, "report", "--store", store, "--now", now.iso8601, "--window", "7d",
                                           "--top", "200", "--format", "json"], output: .discard)
        guard opened.status == 0 else { throw BenchFailure("errtriage report failed (exit \(opened.status))") }
        let firstScreen = (details["ingest_day_seconds"] ?? .nan) + opened.seconds
        details["first_screen_seconds"] = firstScreen
        let database = "\(folder)/duckdb-\(getpid()).db"
        defer { try? FileManager.default.removeItem(atPath: database) }
        let python = """
            import sys, time
            import duckdb
            con = duckdb.connect(sys.argv[1])
            con.execute("SET enable_progress_bar = false")
            start = time.perf_counter()
            con.execute("CREATE TABLE events AS SELECT * FROM read_json_auto(?, format='newline_delimited', sample_size=-1)", [sys.argv[2]])
            con.execute("SELECT codes, COUNT(*) AS n FROM events WHERE codes IS NOT NULL GROUP BY codes ORDER BY n DESC LIMIT 20").fetchall()
            print(time.perf_counter() - start)
            """
        let venv = ".venv/bin/python3"
        let duck = try? ChildProcess.run([FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3", "-c", python, database, ndjson(.day)])
        // (DuckDB draws a progress bar for a query past 2 s unless told not to; the time is the last line.)
        if let duck, duck.status == 0,
           let seconds = duck.stdout.split(separator: "\n").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) {
            details["duckdb_load_seconds"] = seconds
            let ratio = firstScreen / seconds
            rows.append(BenchRow(what: "fresh export to the first screen (ingest + open)", value: Self.seconds(firstScreen),
                                 baseline: "DuckDB load + top 20 " + Self.seconds(seconds), ratio: Self.times(ratio), goal: "<= 3x",
                                 holds: ratio <= 3))
        } else {
            if let duck, duck.status != 0 { BenchRun.note("DuckDB failed: \(duck.stderr.suffix(300))") }
            rows.append(BenchRow(what: "fresh export to the first screen (ingest + open)", value: Self.seconds(firstScreen),
                                 baseline: "DuckDB not installed (make bench-tools)", ratio: "-", goal: "<= 3x", holds: nil))
        }
    }
}
