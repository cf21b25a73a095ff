import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// The HTTP side of `errtriage serve`: Sentry's intake protocol, the ELK reporter, native NDJSON,
/// `/healthz` and `/metrics`. A request to an intake endpoint passes one stage per concern —
/// its answer and memory (`AnswerMiddleware`), its key (`KeyMiddleware`), its key's rate limit
/// (`RateLimitMiddleware`), its body (`BodyMiddleware`) — then `IntakeHandler`, which answers
/// 200 only after what it carried is committed. Each stage runs on the context of what the ones
/// before it found (`IntakeContext.swift`), so none can run before them.
public final class IntakeServer: Sendable {
    public let configuration: ServeConfiguration
    let committer: GroupCommitter
    let keys: KeyRing
    let limiter: RateLimiter
    let budget: InFlightBudget
    /// The open connections: counted, timed, and the idle ones closed to make room (`ConnectionGuard`).
    public let connections: ConnectionGuard
    let clock: ServeClock
    public let stats: IntakeStats
    /// Nil when the store answers and takes commits; else why not (for `/healthz`).
    let health: @Sendable () -> String?

    public init(configuration: ServeConfiguration, committer: GroupCommitter, keys: KeyRing, stats: IntakeStats,
                clock: ServeClock = .system, health: @escaping @Sendable () -> String?) {
        self.configuration = configuration
        self.committer = committer
        self.keys = keys
        self.limiter = RateLimiter(configuration.rateLimit, clock: clock)
        self.budget = InFlightBudget(limit: configuration.maxInFlightBytes)
        var limits = ConnectionGuard.Limits()
        limits.maxConnections = configuration.maxConnections
        limits.maxPerAddress = configuration.maxConnectionsPerAddress
        limits.idleTimeout = .seconds(Int64(configuration.idleTimeoutSeconds))
        limits.headTimeout = .seconds(Int64(min(configuration.headTimeoutSeconds, configuration.idleTimeoutSeconds)))
        limits.bodyBackstop = .seconds(Int64(configuration.bodyTimeoutSeconds + 5))
        self.connections = ConnectionGuard(limits: limits)
        self.clock = clock
        self.stats = stats
        self.health = health
    }

    /// The thread `/healthz` asks the store on: one for the process, apart from the pool that
    /// inflates and decodes bodies, so a load of large requests never makes it wait.
    static let healthPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        return pool
    }()

    /// The routes, for the application and for tests.
    public func router() -> Router<IntakeContext> {
        let router = Router(context: IntakeContext.self)
        router.get("healthz") { [self] _, _ -> Response in
            // The store's answer is waited for on a thread of its own, never on the server's
            // threads, nor behind the bodies the shared pool is inflating and decoding.
            if let problem = try await Self.healthPool.runIfActive({ [health] in health() }) {
                return Answer.text(.serviceUnavailable, "degraded: \(problem)\n", retryAfter: configuration.retryAfterSeconds)
            }
            return Answer.text(.ok, "ok\n")
        }
        router.get("metrics") { [self] _, _ -> Response in
            stats.queue(depth: committer.depth)
            stats.memory(inFlight: budget.bytes)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: stats.exposition())))
        }
        let rateLimit = RateLimitMiddleware(limiter: limiter, limit: configuration.rateLimit)
        let handler = IntakeHandler(configuration: configuration, committer: committer, rateLimit: rateLimit, stats: stats, clock: clock)
        // The stages, each group on the context the one before it made.
        let answered = router.group("api/:project")
            .add(middleware: AnswerMiddleware(stats: stats, budget: budget))
        // Another method than POST on an intake endpoint is refused (405) before the key.
        for endpoint in IntakeEndpoint.allCases {
            for method in Refusal.notPost {
                answered.on(RouterPath(endpoint.rawValue), method: method) { request, _ -> Response in
                    throw Refusal.methodNotAllowed(request.method)
                }
            }
        }
        let keyed = answered.group(context: ReservedContext.self)
            .add(middleware: KeyMiddleware(keys: keys, configuration: configuration, connections: connections))
            .group(context: KeyedContext.self)
        let read = keyed
            .add(middleware: rateLimit)
            .add(middleware: BodyMiddleware(configuration: configuration, clock: clock))
            .group(context: BodyContext.self)
        for endpoint in IntakeEndpoint.allCases {
            read.post(RouterPath(endpoint.rawValue)) { request, context in try await handler.handle(request, context: context) }
        }
        return router
    }

    /// The application: the routes on HTTP/1 with the connection rules (`HTTP1ConnectionRules`),
    /// run as a service of `Serve`'s group (graceful shutdown: stop accepting, answer what is in
    /// flight). `onListening` gets the address bound (a port of 0 picks one).
    ///
    /// Connections are accepted as they come and counted by `connections`, which closes idle
    /// ones to make room and times every phase (the idle timeout is its, not the HTTP channel's);
    /// the accept loop pauses only past twice `--max-connections`, a backstop for connections
    /// closing more slowly than they come.
    public func application(onListening: @escaping @Sendable (String, Int) -> Void) -> some ApplicationProtocol {
        var logger = Logger(label: "errtriage.serve")
        logger.logLevel = .critical
        ConnectionGuard.raiseOpenFileLimit(to: 2 * configuration.maxConnections + 256)
        let http1 = HTTP1Channel.Configuration(idleTimeout: nil)
        return Application(
            router: router(),
            server: HTTP1ConnectionRules.server(configuration: http1, connections: connections),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "errtriage",
                                 availableConnectionsDelegate: .maximum(2 * configuration.maxConnections, logger: logger)),
            onServerRunning: { channel in
                let address = channel.localAddress
                onListening(address?.ipAddress ?? "?", address?.port ?? 0)
            },
            logger: logger)
    }
}
