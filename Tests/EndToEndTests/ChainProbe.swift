import ChildProcess
import Foundation
import Testing

/// chain-probe, the reporting app of the kill tests: started against a running `errtriage serve`,
/// and what reached the store, by each report's number (`keys.seq`).
enum ChainProbe {
    /// The binary `swift build` made.
    static var binary: String {
        ProcessInfo.processInfo.environment["CHAIN_PROBE_BIN"] ?? CLI.packageRoot.appendingPathComponent(".build/debug/chain-probe").path
    }

    /// Starts the probe; its output is captured.
    static func start(_ dsn: String, queue: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess([binary, dsn, "--queue", queue] + arguments, output: .capture)
    }

    /// Sends what is left in the queue and waits for the server to acknowledge it all (a new launch).
    static func drain(_ dsn: String, queue: String) throws -> ChildProcess.Result {
        try ChildProcess.run([binary, dsn, "--queue", queue, "--count", "0", "--timeout", "60"])
    }

    /// Waits until the probe has written `line` (true), or ended, or 30 s passed.
    static func wait(_ probe: ChildProcess, for line: String) -> Bool {
        let deadline = ChildProcess.clock() + 30
        while ChildProcess.clock() < deadline {
            if probe.stdoutSoFar.split(separator: "\n").contains(Substring(line)) { return true }
            guard probe.isRunning else { return probe.stdoutSoFar.split(separator: "\n").contains(Substring(line)) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// The numbers the probe said it reported (`report` had returned: the report was on disk).
    static func reported(_ output: String) -> [Int] {
        output.split(separator: "\n").compactMap { $0.hasPrefix("reported ") ? Int($0.dropFirst(9)) : nil }
    }

    /// How many events the store holds for each report number.
    static func stored(_ cli: CLI) throws -> [Int: Int] {
        let export = try cli.run(["export", "--window", "all"])
        try #require(export.status == 0, "\(export.stderr)")
        var counts: [Int: Int] = [:]
        for line in export.stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let seq = try #require((event["keys"] as? [String: String])?["seq"].flatMap(Int.init), "\(line)")
            counts[seq, default: 0] += 1
        }
        return counts
    }
}
