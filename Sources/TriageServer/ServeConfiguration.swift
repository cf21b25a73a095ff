import TriageStore

/// How `errtriage serve` listens and what it lets in.
public struct ServeConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8000
    public var limits = BodyLimits()
    /// Events per second per key: every record a request carries is charged.
    public var rateLimit = RateLimit(perSecond: 1_000)
    /// Records (events, complaints, sessions) one request may carry; a body with more is refused
    /// whole (413) before the rest of it is read. Sentry SDKs send one event a request.
    public var maxRecordsPerRequest = 1_000
    /// Request bodies held in memory at once, as sent and inflated: a request that would take the
    /// server past it is answered 503 with `Retry-After`, so concurrent large bodies cannot.
    public var maxInFlightBytes = 128 << 20
    /// Connections open at once, and from one client address: past either, a new connection
    /// takes the place of the oldest idle one (keyless first), else it is closed (`ConnectionGuard`).
    public var maxConnections = 1_024
    public var maxConnectionsPerAddress = 256
    /// A request's head must come whole within this time once it begins, however it trickles.
    public var headTimeoutSeconds = 10
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
    /// How answers name the store this server uses (an unknown key's 401): its file's name, or a
    /// team store's database name — never a path or a URI, which a client has no need to see.
    public var storeName = "errtriage.sqlite"
    public init() {}

    /// The name answers give a store at `location`: the last part of a file's path, or of a
    /// `postgres://` URI's path (its database), without a query.
    public static func storeName(of location: String) -> String {
        let path = location.split(separator: "?", maxSplits: 1).first.map(String.init) ?? location
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return location.hasPrefix("postgres") ? "team store \(last)" : last
    }
}
