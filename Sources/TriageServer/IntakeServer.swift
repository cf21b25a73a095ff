import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// How `errtriage serve` listens and what it lets in.
public struct ServeConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8000
    public var limits = BodyLimits()
    /// Events per second per key.
    public var rateLimit = RateLimit(perSecond: 1_000, burst: 10_000)
    public var maxConnections = 1_024
    /// A connection with nothing to read or write this long is closed.
    public var idleTimeoutSeconds = 30
    /// A request's body must have come whole within this time (slow clients are answered 408).
    public var bodyTimeoutSeconds = 30
    /// How long a 503 asks clients to wait.
    public var retryAfterSeconds = 5
    /// Free space the store's disk must keep: below it, commits are refused (503) until space is back.
    public var minFreeBytes: Int64 = TriageStore.defaultMinFreeBytes
    /// How long a 503 for a disk at its floor asks clients to wait.
    public var retryAfterFloorSeconds = 60
    public init() {}
}

/// The HTTP side of `errtriage serve`: Sentry's intake protocol, the ELK reporter, native NDJSON,
/// `/healthz` and `/metrics`. A request is answered 200 only after what it carried is committed.
public final class IntakeServer: Sendable {
    public let configuration: ServeConfiguration
    let committer: GroupCommitter
    let keys: KeyRing
    let limiter: RateLimiter
    public let stats: IntakeStats
    /// Nil when the store answers; else why not (for `/healthz`).
    let health: @Sendable () -> String?
    let log: @Sendable (String) -> Void

    public init(configuration: ServeConfiguration, committer: GroupCommitter, keys: KeyRing, stats: IntakeStats,
                health: @escaping @Sendable () -> String?, log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.committer = committer
        self.keys = keys
        self.limiter = RateLimiter(configuration.rateLimit)
        self.stats = stats
        self.health = health
        self.log = log
    }

    /// The routes, for the application and for tests.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("healthz") { [self] _, _ -> Response in
            if let problem = health() {
                return Self.text(.serviceUnavailable, "store unreachable: \(problem)\n", retryAfter: configuration.retryAfterSeconds)
            }
            return Self.text(.ok, "ok\n")
        }
        router.get("metrics") { [self] _, _ -> Response in
            stats.queue(depth: committer.depth)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: stats.exposition())))
        }
        for (path, endpoint) in [("envelope", IntakeEndpoint.envelope), ("store", .store), ("elk", .elk), ("events", .events)] {
            router.post("api/:project/\(path)") { [self] request, context in
                await handle(request, context: context, endpoint: endpoint)
            }
        }
        return router
    }

    /// Runs until SIGTERM or SIGINT; then stops accepting, answers what is in flight, commits what
    /// was accepted and returns. `onListening` gets the address bound (a port of 0 picks one).
    public func run(onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        var logger = Logger(label: "errtriage.serve")
        logger.logLevel = .critical
        let app = Application(
            router: router(),
            server: .http1(configuration: .init(idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "errtriage",
                                 availableConnectionsDelegate: .maximum(configuration.maxConnections, logger: logger)),
            onServerRunning: { channel in
                let address = channel.localAddress
                onListening(address?.ipAddress ?? "?", address?.port ?? 0)
            },
            logger: logger)
        try await app.runService()  // graceful shutdown on SIGTERM and SIGINT
    }

    // MARK: - One request

    func handle(_ request: Request, context: BasicRequestContext, endpoint: IntakeEndpoint) async -> Response {
        let retryAfter = configuration.retryAfterSeconds
        guard let projectID = context.parameters.get("project").flatMap({ Int($0) }), projectID >= 0 else {
            return reject(.notFound, .notFound, "no such project: the path must be /api/PROJECT_ID/\(endpoint.rawValue)")
        }
        var key = Self.key(of: request)
        var verdict: KeyVerdict? = nil
        if let key { verdict = await keys.verify(key: key, projectID: projectID) }
        if let verdict, let refusal = refusal(verdict) { return refusal }
        if let key, let wait = limiter.isExhausted(key: key) { return rateLimited(wait) }

        let sent: [UInt8]
        do {
            sent = try await Self.collect(request.body, limit: configuration.limits.maxBodyBytes,
                                          timeout: .seconds(configuration.bodyTimeoutSeconds))
        } catch is BodyTimeout {
            return reject(.requestTimeout, .timeout, "the body did not arrive within \(configuration.bodyTimeoutSeconds) s", close: true)
        } catch is NIOTooManyBytesError {
            return reject(.contentTooLarge, .tooLarge, "body over the limit of \(configuration.limits.maxBodyBytes) bytes", close: true)
        } catch {
            return reject(.badRequest, .malformed, "the body could not be read", close: true)
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let body: [UInt8]
        do {
            body = try BodyDecoder.decode(sent, contentEncoding: request.headers[.contentEncoding], limits: configuration.limits)
        } catch {
            switch error {
            case .tooLarge(let reason): return reject(.contentTooLarge, .tooLarge, reason)
            case .malformed(let reason): return reject(.badRequest, .malformed, reason)
            case .unsupportedEncoding(let reason): return reject(.unsupportedMediaType, .unsupported, reason)
            }
        }
        // A browser-style envelope may name its key only in its header's DSN.
        if key == nil, endpoint == .envelope, let dsnKey = Self.keyInEnvelopeHeader(body) {
            key = dsnKey
            verdict = await keys.verify(key: dsnKey, projectID: projectID)
        }
        guard let key, case .accepted(let intakeKey)? = verdict else {
            return refusal(verdict ?? .missing) ?? reject(.unauthorized, .unauthorized, "no key")
        }
        let intake: IntakeBatch
        do {
            intake = try Intake.decode(body, endpoint: endpoint, project: intakeKey.project)
        } catch {
            switch error {
            case .malformed(let reason): return reject(.badRequest, .malformed, reason)
            }
        }
        if let wait = limiter.admit(key: key, cost: max(1, intake.records)) { return rateLimited(wait) }
        if intake.records > 0 {
            do {
                try await committer.submit(intake.batch)
            } catch {
                return reject(.serviceUnavailable, .unavailable, "the store cannot take events now (\(error.message)); retry later",
                              retryAfter: error.isBelowFloor ? configuration.retryAfterFloorSeconds : retryAfter)
            }
        }
        stats.acknowledged(seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        if let first = intake.rejects.first {
            // The good items were kept; the answer names the first refused one.
            let oversized = intake.hasOversized
            stats.rejected(oversized ? .tooLarge : .malformed, count: intake.rejects.count)
            if intake.records > 0 { stats.accepted(records: intake.records, skipped: intake.skipped) }
            let more = intake.rejects.count > 1 ? " (and \(intake.rejects.count - 1) more)" : ""
            let kept = intake.records > 0 ? "; \(intake.records) other record\(intake.records == 1 ? " was" : "s were") kept" : ""
            return Self.json(oversized ? .contentTooLarge : .badRequest,
                             [("detail", .string("line \(first.line): \(Self.oneLine(first.reason))\(more)\(kept)"))])
        }
        stats.accepted(records: intake.records, skipped: intake.skipped)
        return Self.json(.ok, [("id", .string(intake.eventID ?? Self.newEventID()))])
    }

    func refusal(_ verdict: KeyVerdict) -> Response? {
        switch verdict {
        case .accepted: nil
        case .missing: reject(.unauthorized, .unauthorized, "no key: send X-Sentry-Auth with sentry_key=KEY, or ?sentry_key=KEY")
        case .unknown: reject(.unauthorized, .unauthorized, "unknown key: add one with errtriage key add NAME")
        case .revoked: reject(.forbidden, .forbidden, "this key was revoked")
        case .wrongProject: reject(.forbidden, .forbidden, "this key belongs to another project")
        }
    }

    func rateLimited(_ wait: Int) -> Response {
        stats.rejected(.rateLimited)
        var response = Self.json(.tooManyRequests, [("detail", .string("rate limit of \(configuration.rateLimit) per key reached; retry after \(wait) s"))])
        response.headers[.retryAfter] = String(wait)
        response.headers[HTTPField.Name("X-Sentry-Rate-Limits")!] = "\(wait)::key"
        return response
    }

    func reject(_ status: HTTPResponse.Status, _ reason: RejectionReason, _ detail: String, retryAfter: Int? = nil, close: Bool = false) -> Response {
        stats.rejected(reason)
        var response = Self.json(status, [("detail", .string(Self.oneLine(detail)))])
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if close { response.headers[.connection] = "close" }
        return response
    }

    // MARK: - Helpers

    struct BodyTimeout: Error {}

    /// The body, whole, within `limit` bytes and `timeout`: checked as each part arrives (a client
    /// that sends nothing at all is closed by the connection's idle timeout), so a request costs
    /// no timer of its own.
    static func collect(_ body: RequestBody, limit: Int, timeout: Duration) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        for try await part in body {
            guard bytes.count + part.readableBytes <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
            bytes.append(contentsOf: part.readableBytesView)
            if ContinuousClock.now > deadline { throw BodyTimeout() }
        }
        return bytes
    }

    /// The key a request names: `X-Sentry-Auth`'s `sentry_key`, or the query's `sentry_key` (or
    /// `token`, the listener convention of ELK-style reporters).
    static func key(of request: Request) -> String? {
        if let auth = request.headers[HTTPField.Name("X-Sentry-Auth")!] ?? request.headers[.authorization],
           let key = sentryKey(inAuth: auth) {
            return key
        }
        let query = request.uri.queryParameters
        if let key = query.get("sentry_key"), !key.isEmpty { return key }
        if let token = query.get("token"), !token.isEmpty { return token }
        return nil
    }

    /// `Sentry sentry_version=7, sentry_client=x/1, sentry_key=KEY` → KEY.
    static func sentryKey(inAuth header: String) -> String? {
        var text = Substring(header)
        if text.lowercased().hasPrefix("sentry ") { text = text.dropFirst(7) }
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingSpaces == "sentry_key" {
                let key = pair[1].trimmingSpaces
                return key.isEmpty ? nil : String(key)
            }
        }
        return nil
    }

    /// The public key of the DSN in an envelope's header line, if it has one.
    static func keyInEnvelopeHeader(_ body: [UInt8]) -> String? {
        guard let first = body.split(separator: 0x0A, maxSplits: 1).first,
              let header = try? JSONParser.parse(Array(first)), let dsn = header["dsn"]?.nonEmptyText,
              let url = URL(string: dsn), let user = url.user, !user.isEmpty else { return nil }
        return user
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.prefix(300))
    }

    static func newEventID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    static func json(_ status: HTTPResponse.Status, _ members: [(String, JSONValue)]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(members).serialized + "\n")))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String, retryAfter: Int? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
