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

    /// `run` for a caller that is not async (a command): blocks until the server has stopped.
    public func runBlocking(onListening: @escaping @Sendable (String, Int) -> Void) throws {
        final class Outcome: @unchecked Sendable { var error: (any Error)? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await self.run(onListening: onListening) } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error { throw error }
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
        let floor = configuration.minFreeBytes
        let committer = GroupCommitter(
            open: { try TriageStore.open(location, for: .writing) },
            beforeCommit: { store in try store.checkFreeSpace(floor: floor) },
            onCommit: { commit in
                stats.committed(seconds: commit.seconds)
                failures.recovered()
                alertDispatcher?.signal()
            },
            onFailure: { error in
                stats.failedCommit()
                failures.failed(error.message)
            })
        let keys = KeyRing(load: { try reader.use { try $0.intakeKeys() } }, onFailure: { error in
            log("keys: cannot read them from the store (\((error as? StoreError)?.message ?? "\(error)")); the keys read before stay in use")
        })
        try? keys.reload()
        let server = IntakeServer(configuration: configuration, committer: committer, keys: keys, stats: stats,
                                  health: { reader.problem() }, log: log)
        let recorded = Recorded()
        let ticker = Task.detached { [logInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int64(logInterval * 1000)))
                if Task.isCancelled { break }
                log(stats.minuteLine(queueDepth: committer.depth) { rejected in
                    // The dashboards on this store say what was refused (their status line).
                    guard !rejected.isEmpty || recorded.value else { return }
                    let at = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
                    do {
                        try reader.use { try $0.recordIntakeRejections(IntakeRejections(at: at, byReason: rejected)) }
                        recorded.value = !rejected.isEmpty
                    } catch {
                        log("cannot record the minute's refusals in the store: \((error as? StoreError)?.message ?? "\(error)")")
                    }
                })
            }
        }
        let upkeep = Upkeep(location: location, log: log)
        defer {
            ticker.cancel()
            upkeep.stop()
            committer.close()
            alertDispatcher?.stop()
            log("stopped: " + stats.minuteLine(queueDepth: committer.depth))
        }
        try await server.run(onListening: onListening)
    }
}

/// What `ingest` does after its files, done by a server every hour on a thread of its own: mutes
/// whose condition came due are lifted, and the store's retention (`errtriage retention set 90d`) is
/// applied when due (at most once a day; a prune deletes in short transactions, so intake waits a
/// moment at most).
final class Upkeep: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false

    init(location: String, log: @escaping @Sendable (String) -> Void, everySeconds: Double = 3_600) {
        let thread = Thread { [unowned self] in
            while true {
                do {
                    let store = try TriageStore.open(location, for: .writing)
                    let now = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
                    for key in try store.applyDueMutes(now: now) { log("\(key): muted → open (its mute condition is met)") }
                    if let pruned = try store.applyRetentionIfDue(now: now) {
                        log("retention: \(pruned.eventsDeleted) events and \(pruned.complaintsDeleted) complaints pruned"
                            + (pruned.eventsSince.map { "; raw events kept from \($0.iso8601)" } ?? ""))
                    }
                } catch {
                    log("upkeep: \((error as? StoreError)?.message ?? "\(error)")")
                }
                self.condition.lock()
                if !self.stopping { _ = self.condition.wait(until: Date(timeIntervalSinceNow: everySeconds)) }
                let stop = self.stopping
                self.condition.unlock()
                if stop { break }
            }
            self.condition.lock()
            self.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        thread.name = "errtriage upkeep"
        thread.start()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
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

/// Whether the last minute recorded refusals (a quiet minute after one clears them once).
final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return flag }
        set { lock.lock(); flag = newValue; lock.unlock() }
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
