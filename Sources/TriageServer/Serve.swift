import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TriageIngest
import TriageModel
import TriageStore

/// `errtriage serve` whole: the store opened for each of its users (the group commit's writer,
/// the keys and `/healthz`, the alerts, the upkeep), and the services of one `ServiceGroup` —
/// the alerts, the writer, the upkeep, the minute's log line and the HTTP server — which stops
/// them on SIGTERM or SIGINT in the reverse order: stop accepting and answer what is in flight,
/// stop the log and the upkeep, commit what is queued, run the alerts once more.
public final class Serve: Sendable {
    public let configuration: ServeConfiguration
    public let location: String
    let alerts: AlertService.Targets
    let logInterval: Duration
    let clock: ServeClock
    let log: @Sendable (String) -> Void

    public init(location: String, configuration: ServeConfiguration, alerts: AlertService.Targets,
                logIntervalSeconds: Double = 60, clock: ServeClock = .system, log: @escaping @Sendable (String) -> Void) {
        self.location = location
        self.configuration = configuration
        self.alerts = alerts
        self.logInterval = .milliseconds(Int64(logIntervalSeconds * 1000))
        self.clock = clock
        self.log = log
    }

    /// Runs until SIGTERM or SIGINT. Throws when the store cannot be opened at the start.
    public func run(onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        InFlightBudget.returnLargeBuffersToTheSystem()
        let location = self.location
        let log = self.log
        var configuration = self.configuration
        configuration.storeName = ServeConfiguration.storeName(of: location)
        // The store is opened once up front, so a wrong location fails now rather than at the first request.
        let reader = ReadingStore(location: location)
        _ = try reader.use { $0 }
        let stats = IntakeStats()
        let alertService = alerts.isEmpty ? nil : AlertService(
            targets: alerts, clock: clock, open: { try TriageStore.open(location, for: .writing) }, log: log)
        let failures = FailureLog(log: log)
        let floor = configuration.minFreeBytes
        let committer = GroupCommitter(
            open: { try TriageStore.open(location, for: .writing) },
            beforeCommit: { store in try store.checkFreeSpace(floor: floor) },
            onCommit: { commit in
                stats.committed(seconds: commit.seconds)
                failures.recovered()
                alertService?.signal()
            },
            onFailure: { error in
                stats.failedCommit()
                failures.failed(error.message)
            })
        let keys = KeyRing(clock: clock, load: { try reader.use { try $0.intakeKeys() } }, onFailure: { error in
            log("keys: cannot read them from the store (\((error as? StoreError)?.message ?? "\(error)")); the keys read before stay in use")
        })
        try? keys.reload()
        let server = IntakeServer(configuration: configuration, committer: committer, keys: keys, stats: stats, clock: clock,
                                  health: { reader.problem() ?? committer.failing.map { "commits fail: \($0.message)" } })
        var services: [any Service] = []
        if let alertService { services.append(alertService) }
        services += [CommitService(committer: committer), UpkeepService(location: location, clock: clock, log: log),
                     MinuteLog(stats: stats, committer: committer, reader: reader, clock: clock, interval: logInterval, log: log),
                     server.application(onListening: onListening)]
        var logger = Logger(label: "errtriage.serve")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        log("stopped: " + IntakeStats.line(stats.takeMinute(), queueDepth: committer.depth))
    }
}

/// A store for reading (the keys, `/healthz`), opened again after it failed, used by one caller at a time.
final class ReadingStore: Sendable {
    let location: String
    private let store = Mutex<TriageStore?>(nil)

    init(location: String) { self.location = location }

    func use<T>(_ body: (TriageStore) throws -> T) throws -> T {
        try store.withLock { store in
            do {
                if store == nil { store = try TriageStore.open(location, for: .writing) }
                return try body(store!)
            } catch {
                store = nil
                throw error
            }
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
final class FailureLog: Sendable {
    private let state = Mutex((failing: false, count: 0))
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }

    func failed(_ message: String) {
        let first = state.withLock { state in
            defer { state = (true, state.count + 1) }
            return !state.failing
        }
        if first { log("fault: the store failed a commit (\(message)); answering 503 until it recovers") }
    }

    func recovered() {
        let (was, n) = state.withLock { state in
            defer { state = (false, 0) }
            return state
        }
        if was { log("recovered: the store commits again (\(n) commit\(n == 1 ? "" : "s") failed meanwhile, each answered 503)") }
    }
}
