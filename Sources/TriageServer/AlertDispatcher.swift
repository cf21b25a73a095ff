import AsyncHTTPClient
import Foundation
import NIOCore
import Presentation
import TriageModel
import TriageStore

/// Alerts as they happen: after commits, the store's alert rules are run (as `errtriage alerts`
/// runs them: each fires once per issue and condition, and new issues and regressions since the
/// last run come with them); what fires goes to a command's standard input as JSON and/or to a
/// chat tool's incoming webhook as `{"text": …}`.
///
/// Commits only signal; one thread runs the rules, at most every `minimumInterval` seconds, so a
/// burst of commits costs one run.
public final class AlertDispatcher: @unchecked Sendable {
    public struct Targets: Sendable {
        /// Run with `/bin/sh -c`, the alert's JSON on standard input.
        public var command: String?
        /// POSTed `{"text": …, "errtriage": {the alert's JSON}}`.
        public var webhook: URL?
        public init(command: String? = nil, webhook: URL? = nil) {
            self.command = command
            self.webhook = webhook
        }
        public var isEmpty: Bool { command == nil && webhook == nil }
    }

    private let open: @Sendable () throws -> TriageStore
    private let targets: Targets
    private let minimumInterval: Double
    private let log: @Sendable (String) -> Void
    private let post: @Sendable (URL, [UInt8]) async throws -> Int
    private let condition = NSCondition()
    private var signalled = false
    private var stopping = false
    private var finished = false
    private var store: TriageStore?

    public init(targets: Targets, minimumInterval: Double = 0.5, open: @escaping @Sendable () throws -> TriageStore,
                post: @escaping @Sendable (URL, [UInt8]) async throws -> Int, log: @escaping @Sendable (String) -> Void) {
        self.targets = targets
        self.minimumInterval = minimumInterval
        self.open = open
        self.post = post
        self.log = log
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "errtriage alerts"
        thread.start()
    }

    /// Something was committed: run the rules soon.
    public func signal() {
        condition.lock()
        signalled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs what is signalled once more, then stops.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while !signalled && !stopping { condition.wait() }
            let work = signalled
            signalled = false
            let last = stopping
            condition.unlock()
            if work { evaluate() }
            if last { break }
            Thread.sleep(forTimeInterval: minimumInterval)
        }
        store = nil
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func evaluate() {
        let report: AlertReport
        do {
            if store == nil { store = try open() }
            report = try store!.runAlerts(now: Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)), dryRun: false)
        } catch {
            store = nil
            log("alerts: cannot run the rules: \((error as? StoreError)?.message ?? "\(error)")")
            return
        }
        guard !report.isEmpty else { return }
        deliver(report)
    }

    private func deliver(_ report: AlertReport) {
        let json = AlertJSON.report(report)
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        let summary = [count(report.firings.count, "alert"), count(report.newIssues.count, "new issue"),
                       count(report.regressions.count, "regression"), count(report.spikes.count, "spike")].joined(separator: ", ")
        if let command = targets.command {
            let status = Self.runCommand(command, input: Array((json.serialized + "\n").utf8))
            log("alerts: \(summary) → on-alert command " + (status == 0 ? "ran" : "exited \(status)"))
        }
        if let webhook = targets.webhook {
            let text = AlertText.report(report).trimmingCharacters(in: .newlines)
            let body = JSONValue.object([("text", .string(text)), ("errtriage", json)]).serialized
            let post = self.post
            let outcome: String
            do { outcome = "answered \(try blocking { try await post(webhook, Array(body.utf8)) })" } catch { outcome = "failed: \(error)" }
            log("alerts: \(summary) → webhook \(outcome)")
        }
    }

    /// Runs `/bin/sh -c command` with `input` on its standard input; its exit status.
    static func runCommand(_ command: String, input: [UInt8]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        do { try process.run() } catch { return -1 }
        pipe.fileHandleForWriting.write(Data(input))
        try? pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// POSTs JSON to a chat tool's incoming webhook.
enum Webhook {
    @Sendable static func post(_ url: URL, _ body: [UInt8]) async throws -> Int {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "errtriage")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        return Int(response.status.code)
    }
}
