// chain-probe: an app that reports numbered errors through ErrorChainKit, for the kill tests and
// the bench. Each report's number is its custom key `seq`; `reported N` is written (unbuffered)
// once `report` has returned, so whoever kills the probe knows which reports were on disk.
//
//   chain-probe DSN --queue DIR [--count N] [--start S] [--interval-ms MS] [--hold] [--die-after-send] [--timeout S]
//
// --hold            never send (a transport that waits for ever): kill it between write and send
// --die-after-send  SIGKILL itself as soon as the server has answered a batch, before the queue hears
// otherwise         wait until every report is acknowledged; exit 0, or 1 after --timeout seconds
import ErrorChainKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

struct ProbeError: ChainedError {
    enum Code: Int, ErrorCode { case probeFailed = 1 }
    let code = Code.probeFailed
    var underlying: (any Error)? = NetworkLayerError(code: .timeout)
}

struct NetworkLayerError: ChainedError {
    enum Code: Int, ErrorCode { case timeout = 8 }
    let code: Code
}

/// Never answers: the probe is killed while it waits.
struct HeldTransport: ReportTransport {
    func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse {
        while true { sleep(3600) }
    }
}

/// Sends, then dies before the answer reaches the queue.
struct DyingTransport: ReportTransport {
    let inner = URLSessionTransport()
    func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse {
        _ = inner.post(body, to: url, headers: headers)
        say("sent")
        kill(getpid(), SIGKILL)
        return TransportResponse(status: nil)
    }
}

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("chain-probe: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let dsn = arguments.first, !dsn.hasPrefix("--") else { fail("usage: chain-probe DSN --queue DIR [options]") }
arguments.removeFirst()
var queue: String?
var count = 10, start = 1, intervalMs = 0, timeout = 60.0
var hold = false, dieAfterSend = false
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(flag) needs a value") }
        return arguments.removeFirst()
    }
    switch flag {
    case "--queue": queue = value()
    case "--count": count = Int(value()) ?? count
    case "--start": start = Int(value()) ?? start
    case "--interval-ms": intervalMs = Int(value()) ?? intervalMs
    case "--timeout": timeout = Double(value()) ?? timeout
    case "--hold": hold = true
    case "--die-after-send": dieAfterSend = true
    default: fail("unknown option \(flag)")
    }
}
guard let queue else { fail("--queue DIR is required") }

var options = ReporterOptions()
options.queueDirectory = queue
options.linger = 0.01
options.retryBase = 0.2
options.retryCap = 2
if hold { options.transport = HeldTransport() }
if dieAfterSend { options.transport = DyingTransport() }
let reporter = ErrorReporter.shared
do {
    try reporter.configure(dsn: dsn, environment: "probe", appInfo: AppInfo(version: "1.0", build: "1"), options: options)
} catch {
    fail("\(error)")
}
for seq in start..<(start + count) {
    reporter.report(ProbeError(), additionalInfo: ["seq": String(seq)])
    say("reported \(seq)")
    if intervalMs > 0 { usleep(UInt32(intervalMs) * 1000) }
}
say("written")
if hold || dieAfterSend {
    while true { sleep(3600) }
}
if reporter.flush(timeout: timeout) {
    say("acknowledged")
    exit(0)
}
fail("not every report was acknowledged: \(reporter.status)")
