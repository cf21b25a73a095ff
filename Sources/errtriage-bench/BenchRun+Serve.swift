import ChildProcess
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ThrowawayPostgres

/// How the serve section runs: every measurement bounded in time and in count.
struct ServeSettings {
    /// Seconds each throughput and latency measurement lasts (after the warm-up).
    var seconds = 10.0
    /// Seconds of load before a throughput measurement counts (connections opened, caches warm).
    var warmup = 2.0
    /// Requests at most in one throughput run, whichever of this and the time comes first.
    var maxRequests = 200_000
    /// The fixed rate of the latency measurement, events per second.
    var rate = 1_000.0
    /// The kill -9 rounds.
    var kills = 10
    /// Seconds of load in each kill round before the kill, at most (each round kills at its own moment within).
    var killAfter = 1.5
    var connections = 64
    /// The load generator's event-loop threads.
    var clientThreads = 2
    /// Different chains among the events.
    var chains = 36
}

/// `errtriage serve`, issue 27's goals: sustained intake of Sentry envelopes into SQLite and
/// PostgreSQL over 64 keep-alive connections, the ack latency at a fixed rate (open loop), the
/// server's peak memory under that load, and acknowledged events lost across kill -9s. Each
/// server is a real `errtriage serve` on 127.0.0.1. The intake goals' load is `wrk` with a Lua
/// body (ServeWrk), where installed, then the same through our own client (ServeLoad, about twice
/// wrk's CPU per request) for comparison; the latency and the kills use ours, which keeps every
/// acknowledged id.
extension BenchRun {
    /// Published figures of the small self-hosted trackers on 2 vCPU, printed beside ours.
    static let serveAnchors = "bugsink ~30/s, Telebugs ~50/s (published, 2 vCPU)"

    mutating func measureServe() throws {
        let settings = serve
        let envelopes = ServeEnvelopes(chains: settings.chains)
        details["serve_envelope_bytes"] = Double(envelopes.averageBytes)
        BenchRun.note("serve: envelopes of one Python-SDK-shaped event, \(envelopes.averageBytes) bytes on average, \(settings.chains) chains")

        // Sustained intake into SQLite: through wrk where it is installed (the verdict), and through
        // our own generator (`LoopbackConnection`s, for comparison; it takes about 100 µs of the two cores per event).
        let what = "serve: intake into SQLite, \(settings.connections) keep-alive connections, \(Self.kb(envelopes.averageBytes)) envelopes"
        let wrkRate = try measureIntakeWrk(store: "\(folder)/serve-sqlite-wrk.sqlite", label: "SQLite", key: "sqlite-wrk",
                                           envelopes: envelopes, settings: settings)
        if let wrkRate {
            rows.append(BenchRow(what: what + " (wrk)", value: String(format: "%.0f events/s", wrkRate), baseline: Self.serveAnchors,
                                 ratio: Self.times(wrkRate / 50) + " Telebugs", goal: ">= 5,000 events/s", holds: wrkRate >= 5_000))
        }
        let sqlite = "\(folder)/serve-sqlite.sqlite"
        let sqliteRate = try measureIntake(store: sqlite, label: "SQLite", key: "sqlite", envelopes: envelopes, settings: settings)
        rows.append(BenchRow(what: wrkRate == nil ? what : "  the same through our own load generator",
                             value: String(format: "%.0f events/s", sqliteRate), baseline: Self.serveAnchors,
                             ratio: Self.times(sqliteRate / 50) + " Telebugs", goal: wrkRate == nil ? ">= 5,000 events/s" : "-",
                             holds: wrkRate == nil ? sqliteRate >= 5_000 : nil))

        // Whole events (issue 37): the same intake with no event kept whole, against the default sample above.
        let noneLabel = "SQLite without whole events"
        let noneRate = try measureIntakeWrk(store: "\(folder)/serve-sqlite-wrk-none.sqlite", label: noneLabel, key: "sqlite-wrk-none",
                                            envelopes: envelopes, settings: settings, options: ["--keep-whole", "none"])
            ?? measureIntake(store: "\(folder)/serve-sqlite-none.sqlite", label: noneLabel, key: "sqlite-none", envelopes: envelopes,
                             settings: settings, options: ["--keep-whole", "none"])
        let keptRate = wrkRate ?? sqliteRate
        rows.append(BenchRow(what: "serve: intake into SQLite with the default sample of whole events\(wrkRate == nil ? "" : " (wrk)")",
                             value: String(format: "%.0f events/s", keptRate), baseline: String(format: "--keep-whole none %.0f events/s", noneRate),
                             ratio: Self.times(keptRate / noneRate), goal: ">= 0.95x", holds: keptRate / noneRate >= 0.95))

        // The ack latency at a fixed rate, and the server's peak memory under it.
        try measureLatency(store: "\(folder)/serve-latency.sqlite", envelopes: envelopes, settings: settings)

        // The same intake into PostgreSQL.
        BenchRun.note("serve: starting a throwaway PostgreSQL cluster")
        let cluster: ThrowawayPostgres
        do { cluster = try ThrowawayPostgres(port: 54331) } catch { throw BenchFailure("PostgreSQL could not start: \(error)") }
        let pgWrkRate = try measureIntakeWrk(store: try cluster.createDatabase(), label: "PostgreSQL", key: "pg-wrk",
                                             envelopes: envelopes, settings: settings)
        if let pgWrkRate {
            rows.append(BenchRow(what: "serve: intake into PostgreSQL, the same load (wrk)", value: String(format: "%.0f events/s", pgWrkRate),
                                 baseline: Self.serveAnchors, ratio: Self.times(pgWrkRate / 50) + " Telebugs", goal: ">= 2,000 events/s",
                                 holds: pgWrkRate >= 2_000))
        }
        let uri = try cluster.createDatabase()
        let pgRate = try measureIntake(store: uri, label: "PostgreSQL", key: "pg", envelopes: envelopes, settings: settings)
        rows.append(BenchRow(what: pgWrkRate == nil ? "serve: intake into PostgreSQL, the same load" : "  the same through our own load generator",
                             value: String(format: "%.0f events/s", pgRate),
                             baseline: Self.serveAnchors, ratio: Self.times(pgRate / 50) + " Telebugs",
                             goal: pgWrkRate == nil ? ">= 2,000 events/s" : "-", holds: pgWrkRate == nil ? pgRate >= 2_000 : nil))
        try? cluster.stop()

        try measureKills(store: "\(folder)/serve-kills.sqlite", envelopes: envelopes, settings: settings)
        try measureHostile(envelopes: envelopes, settings: settings)
    }

    static func kb(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1000) }

    /// `errtriage key add` on the store: the key and the project's id, from the DSN it prints.
    func addKey(store: String, name: String) throws -> (key: String, projectID: Int) {
        let added = try ChildProcess.run([errtriage, "key", "add", name, "--store", store])
        guard added.status == 0, let dsnLine = added.stdout.split(separator: "\n").first(where: { $0.hasPrefix("DSN: ") }),
              let url = URL(string: String(dsnLine.dropFirst(5))), let key = url.user, let id = Int(url.lastPathComponent) else {
            throw BenchFailure("errtriage key add failed (exit \(added.status)): \(added.stdout)\(added.stderr)")
        }
        return (key, id)
    }

    /// The whole machine's CPU seconds so far, busy and all (first line of /proc/stat), to tell
    /// how much of the cores others (other users' builds) took during a measurement.
    static func machineCPU() -> (busy: Double, all: Double) {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first else { return (0, 0) }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 5 else { return (0, 0) }
        let all = ticks.reduce(0, +), idle = ticks[3] + ticks[4]
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ((all - idle) / hz, all / hz)
    }

    /// CPU seconds so far of every PostgreSQL server process on the machine (comm `postgres`):
    /// the throwaway cluster's backends, whose work the commits wait for.
    static func postgresCPU() -> Double {
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close] == "postgres" else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) { total += (user + system) / hz }
        }
        return total
    }

    static func clientCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Where the server's CPU went between two samples, per thread kind, as microseconds per event.
    mutating func noteCPU(_ label: String, before: [String: Double], after: [String: Double], clientSeconds: Double,
                          events: Int, wall: Double, machine: (busy: Double, all: Double), postgres: Double = 0) {
        guard events > 0 else { return }
        var parts: [String] = []
        var total = 0.0
        for (name, seconds) in after {
            let used = seconds - (before[name] ?? 0)
            total += used
            if used >= 0.05 { parts.append(String(format: "%@ %.0f µs", name, used / Double(events) * 1e6)) }
        }
        details["serve_\(label)_server_cpu_us_per_event"] = total / Double(events) * 1e6
        details["serve_\(label)_client_cpu_us_per_event"] = clientSeconds / Double(events) * 1e6
        details["serve_\(label)_server_cores"] = total / wall
        details["serve_\(label)_client_cores"] = clientSeconds / wall
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let busy = machine.all > 0 ? machine.busy / machine.all * cores : .nan
        details["serve_\(label)_machine_busy_cores"] = busy
        details["serve_\(label)_postgres_cores"] = postgres / wall
        BenchRun.note(String(format: "serve %@: server CPU %.0f µs/event (%.2f cores: %@), load generator %.0f µs/event (%.2f cores), PostgreSQL %.0f µs/event (%.2f cores); the machine: %.2f of %.0f cores busy (%.2f by others)",
                             label, total / Double(events) * 1e6, total / wall, parts.sorted().joined(separator: ", "),
                             clientSeconds / Double(events) * 1e6, clientSeconds / wall, postgres / Double(events) * 1e6, postgres / wall,
                             busy, cores, busy - total / wall - clientSeconds / wall - postgres / wall))
    }

    /// What /metrics says of the commits: how many, how big, how long.
    mutating func noteCommits(_ label: String, _ metrics: [String: Double]) {
        let commits = metrics["errtriage_commits_total"] ?? 0
        let records = metrics["errtriage_records_committed_total"] ?? 0
        let commitSeconds = metrics["errtriage_commit_seconds_sum"] ?? 0
        guard commits > 0 else { return }
        details["serve_\(label)_commits"] = commits
        details["serve_\(label)_records_per_commit"] = records / commits
        details["serve_\(label)_commit_ms_mean"] = commitSeconds / commits * 1000
        let ack = (metrics["errtriage_ack_seconds_sum"] ?? 0) / max(1, metrics["errtriage_ack_seconds_count"] ?? 1)
        details["serve_\(label)_server_ack_ms_mean"] = ack * 1000
        BenchRun.note(String(format: "serve %@: %.0f commits of %.0f events on average, %.1f ms each (%.0f%% of the wall in commits); server's own ack time %.1f ms mean",
                             label, commits, records / commits, commitSeconds / commits * 1000,
                             100 * commitSeconds / max(0.001, details["serve_\(label)_wall"] ?? 1), ack * 1000))
    }

    /// The closed loop for warm-up + `seconds` on a fresh store; acknowledged events per second
    /// over the measured window.
    mutating func measureIntake(store: String, label: String, key name: String, envelopes: ServeEnvelopes,
                                settings: ServeSettings, options: [String] = []) throws -> Double {
        let (key, projectID) = try addKey(store: store, name: name)
        let server = try ServeProcess(errtriage: errtriage, store: store, log: "\(folder)/serve-\(name).log", options: options)
        defer { server.stop() }
        BenchRun.note("serve \(label): \(settings.connections) connections, closed loop, \(Self.seconds(settings.warmup)) warm-up + \(Self.seconds(settings.seconds)) (port \(server.port))")
        let load = ServeLoad(target: .init(port: server.port, projectID: projectID, key: key), envelopes: envelopes,
                             connections: settings.connections, threads: settings.clientThreads)
        // CPU is sampled at the warm-up's end: a thread that samples waits the warm-up out.
        let sampler = CPUSampler(server: server, at: ChildProcess.clock() + settings.warmup)
        let outcome = ServeLoad.blocking {
            let outcome = await load.closedLoop(seconds: settings.warmup + settings.seconds, maxRequests: settings.maxRequests)
            await load.shutdown()
            return outcome
        }
        let after = server.threadCPU(), clientAfter = Self.clientCPU()
        let from = outcome.started + settings.warmup, to = min(outcome.started + settings.warmup + settings.seconds, outcome.ended)
        let rate = outcome.rate(from: from, to: to)
        let counted = outcome.acknowledged.count(where: { $0.at >= from && $0.at <= to })
        let sample = sampler.wait()
        let machineAfter = Self.machineCPU()
        noteCPU(label, before: sample.server, after: after, clientSeconds: clientAfter - sample.client, events: counted,
                wall: ChildProcess.clock() - sample.at,
                machine: (machineAfter.busy - sample.machine.busy, machineAfter.all - sample.machine.all),
                postgres: Self.postgresCPU() - sample.postgres)
        details["serve_\(label)_wall"] = outcome.ended - outcome.started
        noteCommits(label, server.metrics())
        let hwm = server.status("VmHWM") ?? 0
        let exit = server.stop()
        BenchRun.note(String(format: "serve %@: %@; %.0f events/s over %.1f s; closed-loop latency p50 %.1f ms, p99 %.1f ms; peak RSS %d MB; SIGTERM exit %d",
                             label, outcome.summary, rate, to - from, outcome.percentile(0.5) * 1000, outcome.percentile(0.99) * 1000,
                             hwm >> 10, exit))
        details["serve_\(label)_events_per_second"] = rate
        details["serve_\(label)_closed_p99_ms"] = outcome.percentile(0.99) * 1000
        details["serve_\(label)_peak_rss_mb"] = Double(hwm) / 1024
        guard outcome.errors == 0, outcome.statuses.isEmpty else {
            throw BenchFailure("serve \(label): not every request was acknowledged: \(outcome.summary)")
        }
        guard exit == 0 else { throw BenchFailure("serve \(label): SIGTERM ended the server with \(exit), not 0 (log: \(server.logPath))") }
        return rate
    }

    /// The closed loop through wrk: a warm-up run, then the measured one; acknowledged events per
    /// second as wrk timed them. Every acknowledged event must be in the store afterwards. nil
    /// (and a note) where wrk is not installed.
    mutating func measureIntakeWrk(store: String, label: String, key name: String, envelopes: ServeEnvelopes,
                                   settings: ServeSettings, options: [String] = []) throws -> Double? {
        let (key, projectID) = try addKey(store: store, name: name)
        guard let wrk = ServeWrk(envelopes: envelopes, key: key, folder: folder) else {
            BenchRun.note("serve \(label): wrk is not installed (make setup installs it): intake measured through our own generator only")
            return nil
        }
        let server = try ServeProcess(errtriage: errtriage, store: store, log: "\(folder)/serve-\(name).log", options: options)
        defer { server.stop() }
        BenchRun.note("serve \(label) (wrk): \(settings.connections) connections on \(settings.clientThreads) threads, closed loop, \(Self.seconds(settings.warmup)) warm-up + \(Self.seconds(settings.seconds)) (port \(server.port))")
        let warm = try wrk.run(0, port: server.port, projectID: projectID, seconds: settings.warmup, connections: settings.connections,
                               threads: settings.clientThreads)
        let before = server.threadCPU(), childBefore = Self.childrenCPU(), machineBefore = Self.machineCPU(), pgBefore = Self.postgresCPU()
        let started = ChildProcess.clock()
        let measured = try wrk.run(1, port: server.port, projectID: projectID, seconds: settings.seconds, connections: settings.connections,
                                   threads: settings.clientThreads)
        let wall = ChildProcess.clock() - started
        let machineAfter = Self.machineCPU()
        noteCPU("\(label) (wrk)", before: before, after: server.threadCPU(), clientSeconds: Self.childrenCPU() - childBefore,
                events: measured.acknowledged, wall: wall, machine: (machineAfter.busy - machineBefore.busy, machineAfter.all - machineBefore.all),
                postgres: Self.postgresCPU() - pgBefore)
        let hwm = server.status("VmHWM") ?? 0
        let exit = server.stop()
        let acknowledged = warm.acknowledged + measured.acknowledged
        let stored = try Self.storedIDs(errtriage: errtriage, store: store, folder: folder).count
        let rate = Double(measured.acknowledged) / max(0.001, measured.seconds)
        BenchRun.note(String(format: "serve %@ (wrk): %d acknowledged in %.1f s (%.0f events/s), %d answered otherwise, %d socket errors; warm-up %d; store holds %d events; peak RSS %d MB; SIGTERM exit %d",
                             label, measured.acknowledged, measured.seconds, rate, warm.other + measured.other, warm.errors + measured.errors,
                             warm.acknowledged, stored, hwm >> 10, exit))
        details["serve_\(label)_wrk_events_per_second"] = rate
        guard warm.other + measured.other == 0 else { throw BenchFailure("serve \(label) (wrk): not every request was acknowledged:\n\(measured.output)") }
        guard stored >= acknowledged else { throw BenchFailure("serve \(label) (wrk): \(acknowledged) acknowledged, only \(stored) in the store") }
        guard exit == 0 else { throw BenchFailure("serve \(label) (wrk): SIGTERM ended the server with \(exit), not 0 (log: \(server.logPath))") }
        return rate
    }

    /// CPU seconds of this process's children that have ended (wrk's runs).
    static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// The open loop at `rate` on a fresh SQLite store: the p99 from each request's due time to
    /// its answer, and the server's peak memory (VmHWM) under that load.
    mutating func measureLatency(store: String, envelopes: ServeEnvelopes, settings: ServeSettings) throws {
        let (key, projectID) = try addKey(store: store, name: "latency")
        let server = try ServeProcess(errtriage: errtriage, store: store, log: "\(folder)/serve-latency.log")
        defer { server.stop() }
        BenchRun.note(String(format: "serve latency: %.0f events/s, open loop, %@ (port %d)", settings.rate, Self.seconds(settings.seconds), server.port))
        let load = ServeLoad(target: .init(port: server.port, projectID: projectID, key: key), envelopes: envelopes,
                             connections: settings.connections, threads: settings.clientThreads)
        let before = server.threadCPU(), clientBefore = Self.clientCPU(), machineBefore = Self.machineCPU()
        let outcome = ServeLoad.blocking {
            let outcome = await load.openLoop(rate: settings.rate, seconds: settings.seconds)
            await load.shutdown()
            return outcome
        }
        let machineAfter = Self.machineCPU()
        noteCPU("latency", before: before, after: server.threadCPU(), clientSeconds: Self.clientCPU() - clientBefore,
                events: outcome.acknowledged.count, wall: outcome.ended - outcome.started,
                machine: (machineAfter.busy - machineBefore.busy, machineAfter.all - machineBefore.all))
        details["serve_latency_wall"] = outcome.ended - outcome.started
        noteCommits("latency", server.metrics())
        let hwm = server.status("VmHWM") ?? 0
        let exit = server.stop()
        let p50 = outcome.percentile(0.5), p99 = outcome.percentile(0.99), worst = outcome.percentile(1)
        let achieved = Double(outcome.acknowledged.count) / max(0.001, (outcome.acknowledged.map { $0.at }.max() ?? 0) - outcome.started)
        BenchRun.note(String(format: "serve latency: %@; achieved %.0f events/s; p50 %.1f ms, p99 %.1f ms, max %.1f ms; peak RSS %d MB; SIGTERM exit %d",
                             outcome.summary, achieved, p50 * 1000, p99 * 1000, worst * 1000, hwm >> 10, exit))
        let allAnswered = outcome.errors == 0 && outcome.statuses.isEmpty
        rows.append(BenchRow(what: String(format: "serve: ack latency p99 at %.0f events/s, open loop (%d requests)", settings.rate, outcome.sent),
                             value: Self.millis(p99), baseline: String(format: "p50 %.1f ms, max %.1f ms", p50 * 1000, worst * 1000),
                             ratio: allAnswered ? "-" : "\(outcome.sent - outcome.acknowledged.count) not acknowledged",
                             goal: "<= 50 ms", holds: allAnswered && p99 <= 0.05))
        rows.append(BenchRow(what: String(format: "serve: peak RSS under that load (VmHWM)"), value: "\(hwm >> 10) MB",
                             baseline: String(format: "at full intake: %.0f MB", details["serve_SQLite_peak_rss_mb"] ?? .nan),
                             ratio: "-", goal: "<= 200 MB", holds: hwm > 0 && hwm >> 10 <= 200))
        details["serve_latency_p50_ms"] = p50 * 1000
        details["serve_latency_p99_ms"] = p99 * 1000
        details["serve_latency_max_ms"] = worst * 1000
        details["serve_latency_peak_rss_mb"] = Double(hwm) / 1024
        if exit != 0 { throw BenchFailure("serve latency: SIGTERM ended the server with \(exit), not 0") }
    }

    /// `kills` rounds on one SQLite store: serve, load, kill -9 at a moment of the round, then
    /// `check` and `export --window all` (as a user would): every id ever acknowledged must be in it.
    mutating func measureKills(store: String, envelopes: ServeEnvelopes, settings: ServeSettings) throws {
        guard settings.kills > 0 else { return }
        let (key, projectID) = try addKey(store: store, name: "kills")
        var acknowledged: [String] = []
        var lost = 0, unsound = 0, stored = 0
        for round in 0..<settings.kills {
            let server = try ServeProcess(errtriage: errtriage, store: store, log: "\(folder)/serve-kills.log")
            // Spread over the round: from a third of killAfter to all of it.
            let delay = settings.killAfter * (1.0 / 3 + 2.0 / 3 * Double(round) / Double(max(1, settings.kills - 1)))
            let load = ServeLoad(target: .init(port: server.port, projectID: projectID, key: key), envelopes: envelopes,
                                 connections: settings.connections, threads: settings.clientThreads, retry: false)
            load.number(from: round * 10_000_000)
            let stop = ServeLoad.Stop()
            let pid = server.pid
            let killer = Thread {
                usleep(UInt32(delay * 1e6))
                kill(pid, SIGKILL)
                stop.set()
            }
            killer.start()
            let outcome = ServeLoad.blocking {
                let outcome = await load.closedLoop(seconds: settings.killAfter + 10, maxRequests: .max, stop: stop)
                await load.shutdown()
                return outcome
            }
            let status = server.process.wait().status
            guard status == 128 + SIGKILL else { throw BenchFailure("kill round \(round): the server ended with \(status), not by the kill") }
            acknowledged += outcome.acknowledged.map { $0.id }
            let check = try ChildProcess.run([errtriage, "check", "--store", store])
            if check.status != 0 { unsound += 1; BenchRun.note("kill round \(round): check failed: \(check.stdout)\(check.stderr)") }
            let ids = try Self.storedIDs(errtriage: errtriage, store: store, folder: folder)
            stored = ids.count
            let missing = acknowledged.filter { !ids.contains($0) }
            lost = max(lost, missing.count)
            BenchRun.note(String(format: "kill round %d: killed after %.2f s; %@; store holds %d events, %d acknowledged so far, %d of them missing; check %@",
                                 round + 1, delay, outcome.summary, ids.count, acknowledged.count, missing.count,
                                 check.status == 0 ? "sound" : "FAILED"))
        }
        rows.append(BenchRow(what: "serve: acknowledged events lost across \(settings.kills) kill -9 mid-load (SQLite)",
                             value: "\(lost) of \(acknowledged.count)",
                             baseline: "store holds \(stored); check \(unsound == 0 ? "sound" : "UNSOUND \(unsound)x") after each",
                             ratio: "-", goal: "0", holds: lost == 0 && unsound == 0 && !acknowledged.isEmpty))
        details["serve_kills_acknowledged"] = Double(acknowledged.count)
        details["serve_kills_lost"] = Double(lost)
    }

    /// The event ids `errtriage export --window all` writes.
    static func storedIDs(errtriage: String, store: String, folder: String) throws -> Set<String> {
        let out = "\(folder)/serve-export.ndjson"
        let export = try ChildProcess.run([errtriage, "export", "--store", store, "--window", "all", "--out", out])
        guard export.status == 0 else { throw BenchFailure("errtriage export failed: \(export.stderr)") }
        defer { try? FileManager.default.removeItem(atPath: out) }
        let text = try String(contentsOfFile: out, encoding: .utf8)
        var ids = Set<String>()
        let mark = "\"event_id\":\""
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: mark) else { continue }
            ids.insert(String(line[range.upperBound...].prefix { $0 != "\"" }))
        }
        return ids
    }
}

/// Samples the server's CPU per thread and this process's CPU at a given moment, on its own thread.
final class CPUSampler: @unchecked Sendable {  // `sample` is written once, on its thread, before `done` is signalled, and read after
    struct Sample { var server: [String: Double]; var client: Double; var machine: (busy: Double, all: Double); var postgres: Double; var at: Double }
    private let done = DispatchSemaphore(value: 0)
    private var sample = Sample(server: [:], client: 0, machine: (0, 0), postgres: 0, at: 0)

    init(server: ServeProcess, at moment: Double) {
        let pid = server.pid
        let thread = Thread { [self] in
            let wait = moment - ChildProcess.clock()
            if wait > 0 { usleep(UInt32(wait * 1e6)) }
            sample = Sample(server: ServeProcess.threadCPU(pid: pid), client: BenchRun.clientCPU(), machine: BenchRun.machineCPU(),
                            postgres: BenchRun.postgresCPU(), at: ChildProcess.clock())
            done.signal()
        }
        thread.start()
    }

    func wait() -> Sample {
        done.wait()
        return sample
    }
}
