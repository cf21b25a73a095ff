import HTTPTypes
import Hummingbird
import TriageImport

/// The key, checked before any work is done for a request: from `X-Sentry-Auth` (or
/// `Authorization`), the query's `sentry_key` (or `token`), or, for an envelope that names it
/// nowhere else, its header's DSN — for which the body is read and decoded no further than its
/// first line. A request without a good key is refused (401 or 403) before its body is decoded;
/// one with a good key goes on as a `KeyedContext`.
struct KeyMiddleware: RouterMiddleware {
    let keys: KeyRing
    let configuration: ServeConfiguration
    /// Told of a connection that showed a good key, which it then keeps over keyless ones.
    var connections: ConnectionGuard? = nil
    /// How much of a body's decoded first line is read for an envelope header's DSN.
    static let headerCap = 16 << 10

    func handle(_ request: Request, context: ReservedContext, next: (Request, ReservedContext) async throws -> Response) async throws -> Response {
        var context = context
        guard let endpoint = IntakeEndpoint(path: request.uri.path),
              let projectID = context.parameters.get("project").flatMap({ Int($0) }), projectID >= 0 else {
            throw Refusal(.notFound, .notFound, "no such project: the path must be /api/PROJECT_ID/ENDPOINT (envelope/, store/, elk or events)")
        }
        var verdict = KeyVerdict.missing
        var sent: [UInt8]?
        if let key = Self.key(of: request) {
            verdict = await keys.verify(key: key, projectID: projectID)
        } else if endpoint == .envelope {
            // The body is read as it arrives, and its first line decoded as soon as it is there:
            // without a good key in it, the rest is never read.
            let encoding = request.headers[.contentEncoding]
            // The start is decoded again as it grows, each time at twice the size: the work stays
            // within twice the start's, however finely the body arrives.
            var inspectAt = 0
            sent = try await BodyCollector.collect(
                request, channel: context.channel, limit: configuration.limits.maxBodyBytes, timeout: .seconds(configuration.bodyTimeoutSeconds),
                reservation: context.reservation
            ) { sofar, complete in
                guard complete || sofar.count >= inspectAt else { return false }
                inspectAt = max(2 * sofar.count, 1024)
                switch BodyDecoder.firstLine(sofar, contentEncoding: encoding, complete: complete, cap: Self.headerCap) {
                case .needMore: return false
                case .none: throw Self.refusal(store: configuration.storeName, .missing)
                case .line(let line):
                    guard let key = EnvelopeHeader(line: line)?.publicKey else { throw Self.refusal(store: configuration.storeName, .missing) }
                    verdict = await keys.verify(key: key, projectID: projectID)
                    if case .accepted = verdict { return true }
                    throw Self.refusal(store: configuration.storeName, verdict)
                }
            }
        }
        guard case .accepted(let key) = verdict else { throw Self.refusal(store: configuration.storeName, verdict) }
        connections?.keyed(context.channel)
        context.keyed = .init(endpoint: endpoint, projectID: projectID, key: key, sent: sent)
        return try await next(request, context)
    }

    /// What a request without a good key is answered; the connection is closed, as its body
    /// may not have been read.
    static func refusal(store: String, _ verdict: KeyVerdict) -> Refusal {
        switch verdict {
        case .accepted, .missing:
            Refusal(.unauthorized, .noKey, "no key: send X-Sentry-Auth with sentry_key=KEY, or ?sentry_key=KEY", close: true)
        case .unknown:
            Refusal(.unauthorized, .unknownKey, "unknown key: not a key of the store this server uses (\(store)); add one there with errtriage key add NAME --store and that store", close: true)
        case .revoked: Refusal(.forbidden, .revokedKey, "this key was revoked", close: true)
        case .wrongProject: Refusal(.forbidden, .wrongProject, "this key belongs to another project", close: true)
        }
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
}
