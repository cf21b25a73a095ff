import Foundation
#if canImport(FoundationNetworking)
// URLSession on Linux: the system's libcurl, HTTPS through the system's TLS library and CA bundle.
import FoundationNetworking
#endif
import NIOCore
import NIOPosix
import Presentation
import ServiceLifecycle
import Synchronization
import TriageModel
import TriageStore

/// Alerts as they happen: after commits, the store's alert rules are run (as `errtriage alerts`
/// runs them: each fires once per issue and condition, and new issues and regressions since the
/// last run come with them); what fires goes to a command's standard input as JSON and/or to a
/// chat tool's incoming webhook as `{"text": …}`.
///
/// Commits only signal; the service runs the rules at most every `minimumInterval` seconds, so a
/// burst of commits costs one run, and once more at shutdown for what was signalled last.
public final class AlertService: Service, Sendable {
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
    private let minimumInterval: Duration
    private let clock: ServeClock
    private let log: @Sendable (String) -> Void
    private let post: @Sendable (URL, [UInt8]) async throws -> Int
    private let signals: AsyncStream<Void>
    private let signalled: AsyncStream<Void>.Continuation
    /// Whether a commit signalled since the rules last ran (the stream only wakes the service).
    private let pending = Mutex(false)
    /// The store the rules run on, kept between runs (opened again after a failure).
    private let store = Mutex<TriageStore?>(nil)

    public init(targets: Targets, minimumInterval: Duration = .milliseconds(500), clock: ServeClock = .system,
                open: @escaping @Sendable () throws -> TriageStore,
                post: @escaping @Sendable (URL, [UInt8]) async throws -> Int = Webhook.post, log: @escaping @Sendable (String) -> Void) {
        self.targets = targets
        self.minimumInterval = minimumInterval
        self.clock = clock
        self.open = open
        self.post = post
        self.log = log
        (signals, signalled) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Something was committed: run the rules soon.
    public func signal() {
        pending.withLock { $0 = true }
        signalled.yield()
    }

    public func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            guard takePending() else { continue }
            await evaluate()
            try? await Task.sleep(for: minimumInterval)
        }
        // Shutting down: what was signalled since the last run is run once more.
        if takePending() { await evaluate() }
    }

    /// Whether a commit signalled since the last run; clears it.
    private func takePending() -> Bool {
        pending.withLock { pending in
            defer { pending = false }
            return pending
        }
    }

    private func evaluate() async {
        let now = clock.now()
        let outcome: Result<AlertReport, any Error> = await (try? NIOThreadPool.singleton.runIfActive { [self] in
            Result { () throws -> AlertReport in
                try store.withLock { store in
                    do {
                        if store == nil { store = try open() }
                        return try store!.runAlerts(now: now, dryRun: false)
                    } catch {
                        store = nil
                        throw error
                    }
                }
            }
        }) ?? .failure(CancellationError())
        switch outcome {
        case .success(let report):
            if !report.isEmpty { await deliver(report) }
        case .failure(let error):
            log("alerts: cannot run the rules: \((error as? StoreError)?.message ?? "\(error)")")
        }
    }

    private func deliver(_ report: AlertReport) async {
        let json = AlertJSON.report(report)
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        let summary = [count(report.firings.count, "alert"), count(report.newIssues.count, "new issue"),
                       count(report.regressions.count, "regression"), count(report.spikes.count, "spike")].joined(separator: ", ")
        if let command = targets.command {
            let input = Array((json.serialized + "\n").utf8)
            let status = (try? await NIOThreadPool.singleton.runIfActive { Self.runCommand(command, input: input) }) ?? -1
            log("alerts: \(summary) → on-alert command " + (status == 0 ? "ran" : "exited \(status)"))
        }
        if let webhook = targets.webhook {
            let text = AlertText.report(report).trimmingCharacters(in: .newlines)
            let body = JSONValue.object([("text", .string(text)), ("errtriage", json)]).serialized
            let outcome: String
            do { outcome = "answered \(try await post(webhook, Array(body.utf8)))" } catch { outcome = "failed: \(error)" }
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

/// POSTs JSON to a chat tool's incoming webhook: https, as chat tools require, through
/// Foundation's URLSession (on Linux the system's libcurl, its TLS library and CA bundle), so that
/// errtriage builds no TLS stack of its own.
public enum Webhook {
    @Sendable public static func post(_ url: URL, _ body: [UInt8]) async throws -> Int {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("errtriage", forHTTPHeaderField: "User-Agent")
        do {
            let (_, response) = try await session.upload(for: request, from: Data(body))
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            // The transport's own sentence (`Failed to connect to …`, `SSL certificate problem: …`), not the error's dump.
            throw WebhookError(description: (error as NSError).localizedDescription)
        }
    }

    struct WebhookError: Error, CustomStringConvertible {
        var description: String
    }

    /// No cache, no cookies, no credentials kept: each alert is one POST.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 30
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()
}
