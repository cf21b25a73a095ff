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
        try blocking { try await self.run(onListening: onListening) }
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
                let minute = stats.takeMinute()
                log(IntakeStats.line(minute, queueDepth: committer.depth))
                // The dashboards on this store say what was refused (their status line); a quiet
                // minute after one that refused clears it once.
                let rejected = minute.rejectedByName
                guard !rejected.isEmpty || recorded.value else { continue }
                let at = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
                do {
                    try reader.use { try $0.recordIntakeRejections(IntakeRejections(at: at, byReason: rejected)) }
                    recorded.value = !rejected.isEmpty
                } catch {
                    log("cannot record the minute's refusals in the store: \((error as? StoreError)?.message ?? "\(error)")")
                }
            }
        }
        let upkeep = Upkeep(location: location, log: log)
        defer {
            ticker.cancel()
            upkeep.stop()
            committer.close()
            alertDispatcher?.stop()
            log("stopped: " + IntakeStats.line(stats.takeMinute(), queueDepth: committer.depth))
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
