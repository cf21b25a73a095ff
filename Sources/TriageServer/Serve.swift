import AsyncHTTPClient
import Foundation
import NIOCore
import TriageIngest
import TriageModel
import TriageStore

/// `errtriage serve` whole: the store opened for each of its users (the group commit's writer,
/// the keys and `/healthz`, the alerts), the HTTP server, the minute's log line, and the order of
/// shutting down (stop accepting, answer what is in flight, commit, stop the alerts).
public final class Serve: Sendable {
    public let configuration: ServeConfiguration
    public let location: String
    let alerts: AlertDispatcher.Targets
    let logInterval: Double
    let log: @Sendable (String) -> Void

    public init(location: String, configuration: ServeConfiguration, alerts: AlertDispatcher.Targets,
                logIntervalSeconds: Double = 60, log: @escaping @Sendable (String) -> Void) {
        self.location = location
        self.configuration = configuration
        self.alerts = alerts
        self.logInterval = logIntervalSeconds
        self.log = log
    }

    /// Runs until SIGTERM or SIGINT. Throws when the store cannot be opened at the start.
    public func run(onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        let location = self.location
        let log = self.log
        // The store is opened once up front, so a wrong location fails now rather than at the first request.
        let reader = ReadingStore(location: location)
        _ = try reader.use { $0 }
        let stats = IntakeStats()
        let alertDispatcher = alerts.isEmpty ? nil : AlertDispatcher(
            targets: alerts, open: { try TriageStore.open(location, for: .writing) },
            post: Webhook.post, log: log)
        let failures = FailureLog(log: log)
        let committer = GroupCommitter(
            open: { try TriageStore.open(location, for: .writing) },
            onCommit: { commit in
                stats.committed(seconds: commit.seconds)
                failures.recovered()
                alertDispatcher?.signal()
            },
            onFailure: { error in
                stats.failedCommit()
                failures.failed(error.message)
            })
        let keys = KeyRing { try reader.use { try $0.intakeKeys() } }
        try? keys.reload()
        let server = IntakeServer(configuration: configuration, committer: committer, keys: keys, stats: stats,
                                  health: { reader.problem() }, log: log)
        let ticker = Task.detached { [logInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(logInterval * 1000)))
                if Task.isCancelled { break }
                log(stats.minuteLine(queueDepth: committer.depth))
            }
        }
        defer {
            ticker.cancel()
            committer.close()
            alertDispatcher?.stop()
            log("stopped: " + stats.minuteLine(queueDepth: committer.depth))
        }
        try await server.run(onListening: onListening)
    }
}

/// A store for reading (the keys, `/healthz`), opened again after it failed, used by one caller at a time.
final class ReadingStore: @unchecked Sendable {
    let location: String
    private let lock = NSLock()
    private var store: TriageStore?

    init(location: String) { self.location = location }

    func use<T>(_ body: (TriageStore) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            if store == nil { store = try TriageStore.open(location, for: .writing) }
            return try body(store!)
        } catch {
            store = nil
            throw error
        }
    }

    /// Nil when the store answers.
    func problem() -> String? {
        do {
            _ = try use { try $0.revision() }
            return nil
        } catch let error as StoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}

/// One log line per fault: the first failure of a run of them, and the recovery.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var failing = false
    private var count = 0
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    func failed(_ message: String) {
        lock.lock()
        let first = !failing
        failing = true
        count += 1
        lock.unlock()
        if first { log("fault: the store failed a commit (\(message)); answering 503 until it recovers") }
    }

    func recovered() {
        lock.lock()
        let was = failing
        let n = count
        failing = false
        count = 0
        lock.unlock()
        if was { log("recovered: the store commits again (\(n) commit\(n == 1 ? "" : "s") failed meanwhile, each answered 503)") }
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
