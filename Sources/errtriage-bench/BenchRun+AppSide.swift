import ChildProcess
import ErrorChainKit
import Foundation
#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// ErrorChainKit's goals (issue 39): `report(_:)` on the caller's thread next to a bare append of
/// the same line to a file, and reports across SIGKILLs of the reporting app at random moments.
extension BenchRun {
    mutating func measureAppSide(kills: Int) throws {
        try measureReportCall()
        if kills > 0 { try measureAppKills(kills) }
    }

    /// The caller's cost of `report(_:)` (the chain, the facts, the line, one write to the queue,
    /// a signal to the sender, which drains meanwhile to a transport that acknowledges at once)
    /// against `write(2)` of the line it writes to a file opened for appending: medians of
    /// 20,000 calls each, in alternating rounds.
    mutating func measureReportCall() throws {
        BenchRun.note("ErrorChainKit: report(_:) against a bare file append")
        let transport = AcknowledgingTransport()
        let reporter = ErrorReporter()
        var options = ReporterOptions()
        options.queueDirectory = folder + "/app-queue"
        options.transport = transport
        options.log = { BenchRun.note("ErrorChainKit: \($0)") }
        try reporter.configure(dsn: "http://bench@127.0.0.1:9/1", environment: "production",
                               appInfo: AppInfo(version: "2.4.0", build: "412"), options: options)
        reporter.userID = "u0727"
        let error = BenchLayer(domain: "UserError", code: 14, name: "connectionIssue", underlying:
            BenchLayer(domain: "LogicError", code: 43, name: "loginFailed", underlying:
                BenchLayer(domain: "APIError", code: 7, name: "getTokenFailed", underlying:
                    NSError(domain: NSURLErrorDomain, code: -1009, userInfo: [NSLocalizedDescriptionKey: "The Internet connection appears to be offline."]))))
        let info = ["screen": "login", "attempt": "2"]
        for _ in 0..<2_000 { reporter.report(error, additionalInfo: info) }
        guard reporter.flush(timeout: 30), let line = transport.lastLine else { throw BenchFailure("ErrorChainKit's warm-up reports were not sent") }

        let path = folder + "/app-baseline.ndjson"
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(fd) }
        var reports: [Double] = [], appends: [Double] = []
        reports.reserveCapacity(20_000)
        appends.reserveCapacity(20_000)
        for _ in 0..<10 {
            for _ in 0..<2_000 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                appends.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            for _ in 0..<2_000 {
                let start = DispatchTime.now().uptimeNanoseconds
                reporter.report(error, additionalInfo: info)
                reports.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        let delivered = reporter.flush(timeout: 60)
        let status = reporter.status
        let report = Self.median(reports), append = Self.median(appends)
        let p99 = { (values: [Double]) in values.sorted()[values.count * 99 / 100] }
        rows.append(BenchRow(what: "ErrorChainKit report(_:) on the caller's thread, median of 20,000",
                             value: Self.micros(report), baseline: "bare file append " + Self.micros(append),
                             ratio: Self.times(report / append), goal: "<= 50 µs", holds: report <= 50e-6))
        rows.append(BenchRow(what: "  the same, 99th percentile", value: Self.micros(p99(reports)),
                             baseline: "bare file append " + Self.micros(p99(appends)), ratio: Self.times(p99(reports) / p99(appends)),
                             goal: "-", holds: nil))
        rows.append(BenchRow(what: "  all 22,000 reports sent while the caller reported", value: delivered ? "yes" : "NO",
                             baseline: "-", ratio: "-", goal: "-", holds: nil))
        details["app_report_median_us"] = report * 1e6
        details["app_report_p99_us"] = p99(reports) * 1e6
        details["app_append_median_us"] = append * 1e6
        details["app_append_p99_us"] = p99(appends) * 1e6
        details["app_report_line_bytes"] = Double(line.count)
        details["app_report_dropped"] = Double(status.droppedTotal)
        details["app_requests"] = Double(transport.requests)
    }

    /// chain-probe reports numbered errors to `errtriage serve` and is killed with SIGKILL at a
    /// random moment, `kills` times; a last launch sends what is left. Every report whose
    /// `report` returned must be stored once: lost ones and duplicated ones are counted.
    mutating func measureAppKills(_ kills: Int) throws {
        BenchRun.note("ErrorChainKit: \(kills) SIGKILLs of a reporting app")
        let probe = URL(fileURLWithPath: ChildProcess.selfPath).deletingLastPathComponent().appendingPathComponent("chain-probe").path
        guard FileManager.default.isExecutableFile(atPath: probe) else {
            throw BenchFailure("no chain-probe at \(probe): build it (swift build -c release --product chain-probe)")
        }
        let store = folder + "/app-kills.sqlite"
        try? FileManager.default.removeItem(atPath: store)
        let server = try ServeProcess(errtriage: errtriage, store: store, log: folder + "/app-serve.log")
        defer { server.stop() }
        let (key, project) = try addKey(store: store, name: "app")
        let dsn = "http://\(key)@127.0.0.1:\(server.port)/\(project)"
        let queue = folder + "/app-kill-queue"
        try? FileManager.default.removeItem(atPath: queue)
        var generator = SystemRandomNumberGenerator()
        var reported: [Int] = []
        for round in 0..<kills {
            let child = try ChildProcess([probe, dsn, "--queue", queue, "--count", "400", "--start", String(round * 1000),
                                          "--interval-ms", "1"], output: .capture)
            usleep(UInt32.random(in: 20_000...400_000, using: &generator))
            child.signal(SIGKILL)
            reported += child.wait().stdout.split(separator: "\n").compactMap { $0.hasPrefix("reported ") ? Int($0.dropFirst(9)) : nil }
        }
        let drain = try ChildProcess.run([probe, dsn, "--queue", queue, "--count", "0", "--timeout", "60"], output: .capture)
        guard drain.status == 0 else { throw BenchFailure("the last launch of chain-probe failed: \(drain.stderr)") }
        let export = try ChildProcess.run([errtriage, "export", "--store", store, "--window", "all"], output: .capture)
        guard export.status == 0 else { throw BenchFailure("errtriage export failed: \(export.stderr)") }
        var stored: [Int: Int] = [:]
        for line in export.stdout.split(separator: "\n") {
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let seq = (event["keys"] as? [String: String])?["seq"].flatMap(Int.init) else { continue }
            stored[seq, default: 0] += 1
        }
        let lost = reported.filter { stored[$0] == nil }.count
        let duplicated = stored.values.reduce(0) { $0 + max(0, $1 - 1) }
        rows.append(BenchRow(what: "ErrorChainKit reports across \(kills) SIGKILLs of the app at random moments",
                             value: "\(lost) lost, \(duplicated) duplicated of \(reported.count)", baseline: "-", ratio: "-",
                             goal: "0 lost, 0 duplicated", holds: lost == 0 && duplicated == 0 && !reported.isEmpty))
        details["app_kills"] = Double(kills)
        details["app_kills_reported"] = Double(reported.count)
        details["app_kills_stored"] = Double(stored.count)
        details["app_kills_lost"] = Double(lost)
        details["app_kills_duplicated"] = Double(duplicated)
    }

    static func micros(_ s: Double) -> String { String(format: "%.1f µs", s * 1e6) }
}

/// A layer of the bench's chain.
private struct BenchLayer: ChainedError {
    struct Code: ErrorCode { var rawValue: Int }
    let domain: String
    let code: Code
    let codeName: String
    var underlying: (any Error)?

    init(domain: String, code: Int, name: String, underlying: (any Error)?) {
        self.domain = domain
        self.code = Code(rawValue: code)
        self.codeName = name
        self.underlying = underlying
    }
}

/// Acknowledges every batch at once and keeps the last line it saw.
private final class AcknowledgingTransport: ReportTransport, Sendable {
    private let state = Mutex<(last: [UInt8]?, count: Int)>((nil, 0))

    func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse {
        let line = body.split(separator: 0x0A).last.map { Array($0) + [0x0A] }
        state.withLock { $0 = (line, $0.count + 1) }
        return TransportResponse(status: 200)
    }

    var lastLine: [UInt8]? { state.withLock { $0.last } }
    var requests: Int { state.withLock { $0.count } }
}
