import ChildProcess
import CZlib
import Foundation
import LoopbackHTTP

/// `errtriage serve` under the hostile traffic of issue 40, each goal beside its baseline measured
/// in the same run on one server (loopback only, bounded in count and time):
/// - the ack latency of small requests while 1,000-record requests commit, against the same open
///   loop alone: a large commit holds others no longer than a few of its own commits;
/// - `/healthz` while 64 keyless 1 MiB gzip bombs arrive, against `/healthz` on an idle server;
/// - the server's peak memory with four 400,000-event bodies at once, against its budget.
extension BenchRun {
    mutating func measureHostile(envelopes: ServeEnvelopes, settings: ServeSettings) throws {
        let store = "\(folder)/serve-hostile.sqlite"
        let (key, projectID) = try addKey(store: store, name: "hostile")
        let server = try ServeProcess(errtriage: errtriage, store: store, log: "\(folder)/serve-hostile.log")
        defer { _ = server.stop() }
        let target = ServeLoad.Target(port: server.port, projectID: projectID, key: key)
        let rate = 200.0
        let seconds = min(settings.seconds, 10)

        // The open loop alone, then with a client posting 1,000-record requests back to back.
        func openLoop(withLarge: Bool) throws -> (p99: Double, large: Int) {
            let load = ServeLoad(target: target, envelopes: envelopes, connections: 16, threads: 1)
            return ServeLoad.blocking {
                let heavy = Task<Int, Never> {
                    guard withLarge else { return 0 }
                    var sent = 0
                    let deadline = ChildProcess.clock() + seconds
                    while ChildProcess.clock() < deadline && sent < 400 {
                        let body = Array((0..<1_000).map { #"{"event_id":"L\#(sent)-\#($0)","timestamp":"2026-11-24T10:00:00Z","codes":"US14-NE8"}"# }
                            .joined(separator: "\n").utf8)
                        _ = try? await Self.post(target, path: "events", key: key, body: body)
                        sent += 1
                    }
                    return sent
                }
                let outcome = await load.openLoop(rate: rate, seconds: seconds)
                await load.shutdown()
                return (outcome.percentile(0.99), await heavy.value)
            }
        }
        let alone = try openLoop(withLarge: false)
        let commitsBefore = server.metrics()
        let loaded = try openLoop(withLarge: true)
        let commits = server.metrics()
        let commitCount = (commits["errtriage_commits_total"] ?? 0) - (commitsBefore["errtriage_commits_total"] ?? 0)
        let commitSum = (commits["errtriage_commit_seconds_sum"] ?? 0) - (commitsBefore["errtriage_commit_seconds_sum"] ?? 0)
        let meanCommit = commitCount > 0 ? commitSum / commitCount : .nan
        BenchRun.note(String(format: "serve hostile: p99 %.1f ms alone, %.1f ms beside %d requests of 1,000 records; %.0f commits, %.1f ms each on average",
                             alone.p99 * 1000, loaded.p99 * 1000, loaded.large, commitCount, meanCommit * 1000))
        rows.append(BenchRow(what: String(format: "serve: ack p99 at %.0f events/s beside 1,000-record requests (%d of them)", rate, loaded.large),
                             value: Self.millis(loaded.p99), baseline: "alone: " + Self.millis(alone.p99),
                             ratio: Self.times(loaded.p99 / alone.p99), goal: "<= 250 ms (a few 2,000-record commits)",
                             holds: loaded.p99 <= 0.25))

        // /healthz idle, then while 64 keyless bombs arrive.
        let bomb = try Self.gzipBomb(megabytes: 1024)
        func health(during bombs: Bool) throws -> Double {
            ServeLoad.blocking {
                let flood = Task<Int, Never> {
                    guard bombs else { return 0 }
                    return await withTaskGroup(of: Int.self) { group in
                        for n in 0..<64 {
                            group.addTask {
                                let path = n % 2 == 0 ? "envelope/" : "store/"
                                return (try? await Self.post(target, path: path, key: nil, body: bomb, encoding: "gzip")) ?? 0
                            }
                        }
                        return await group.reduce(0) { $0 + ($1 == 401 ? 1 : 0) }
                    }
                }
                var worst = 0.0
                for _ in 0..<20 {
                    let asked = ChildProcess.clock()
                    _ = try? await LoopbackConnection.send(LoopbackRequest(.GET, "/healthz"), port: target.port)
                    worst = max(worst, ChildProcess.clock() - asked)
                    try? await Task.sleep(for: .milliseconds(10))
                }
                let refused = await flood.value
                if bombs && refused != 64 { BenchRun.note("serve hostile: only \(refused) of 64 keyless bombs were answered 401") }
                return worst
            }
        }
        let idle = try health(during: false)
        let flooded = try health(during: true)
        rows.append(BenchRow(what: "serve: /healthz at worst while 64 keyless 1 MiB gzip bombs arrive", value: Self.millis(flooded),
                             baseline: "idle: " + Self.millis(idle), ratio: Self.times(flooded / idle), goal: "<= 100 ms", holds: flooded <= 0.1))

        // Four 400,000-event bodies at once, on a server of its own: its peak memory.
        let big = "\(folder)/serve-hostile-big.sqlite"
        let (bigKey, bigProject) = try addKey(store: big, name: "big")
        let bigServer = try ServeProcess(errtriage: errtriage, store: big, log: "\(folder)/serve-hostile-big.log")
        var lines = ""
        lines.reserveCapacity(400_000 * 80)
        for n in 0..<400_000 { lines += #"{"event_id":"b\#(n)","timestamp":"2026-11-24T10:00:00Z","codes":"US14-NE8"}"# + "\n" }
        let body = try Self.gzip(Array(lines.utf8))
        let bigTarget = ServeLoad.Target(port: bigServer.port, projectID: bigProject, key: bigKey)
        let statuses = ServeLoad.blocking {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { (try? await Self.post(bigTarget, path: "events", key: bigKey, body: body, encoding: "gzip")) ?? 0 } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        let hwm = bigServer.status("VmHWM") ?? 0
        _ = bigServer.stop()
        BenchRun.note("serve hostile: four 400,000-event bodies (\(body.count >> 10) KiB gzip each) answered \(statuses.sorted()); peak RSS \(hwm >> 10) MB")
        rows.append(BenchRow(what: "serve: peak RSS with four 400,000-event gzip bodies at once", value: "\(hwm >> 10) MB",
                             baseline: "refused: \(statuses.sorted())", ratio: "-", goal: "<= 512 MB", holds: hwm > 0 && hwm >> 10 <= 512))
    }

    /// POSTs to the intake; the status.
    static func post(_ target: ServeLoad.Target, path: String, key: String?, body: [UInt8], encoding: String? = nil) async throws -> Int {
        var headers: [(String, String)] = []
        if let key { headers.append(("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=\(key)")) }
        if let encoding { headers.append(("Content-Encoding", encoding)) }
        let request = LoopbackRequest(.POST, "/api/\(target.projectID)/\(path)", headers: headers, body: body)
        return try await LoopbackConnection.send(request, port: target.port, timeout: 60).status
    }

    /// Spaces, `megabytes` MiB of them, gzip-compressed as one stream.
    static func gzipBomb(megabytes: Int) throws -> [UInt8] {
        try gzip([UInt8](repeating: 0x20, count: 1 << 20), times: megabytes)
    }

    static func gzip(_ bytes: [UInt8], times: Int = 1) throws -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw BenchFailure("zlib did not start")
        }
        defer { deflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = bytes
        for round in 0..<times {
            let flush = round == times - 1 ? Z_FINISH : Z_NO_FLUSH
            var status: Int32 = Z_OK
            input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                repeat {
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        status = deflate(&stream, flush)
                        return out.count - Int(stream.avail_out)
                    }
                    output += chunk[0..<produced]
                } while stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END)
            }
        }
        return output
    }
}
