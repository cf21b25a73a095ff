/// An event the store keeps whole: which it is, why it is kept, and (when asked for) its payload
/// as stored (scrubbed of secrets, decompressed).
public struct KeptEvent: Hashable, Sendable {
    public var eventID: String
    public var issueKey: String
    public var timestamp: Timestamp
    /// The importer that read it: `native`, `crashlytics`, `sentry`, `elk`.
    public var source: String
    public var release: String?
    public var environment: String?
    public var roles: KeptRoles
    /// The payload's size as stored, before compression.
    public var bytes: Int
    /// The payload; empty in a list of kept events.
    public var payload: [UInt8]

    public init(eventID: String, issueKey: String, timestamp: Timestamp, source: String, release: String?, environment: String?,
                roles: KeptRoles, bytes: Int, payload: [UInt8] = []) {
        self.eventID = eventID
        self.issueKey = issueKey
        self.timestamp = timestamp
        self.source = source
        self.release = release
        self.environment = environment
        self.roles = roles
        self.bytes = bytes
        self.payload = payload
    }
}

/// The sample roles a kept event holds: the roles that point at it (`kept_role`) and the role it
/// is kept for by itself (`kept_payload.sample`).
public struct KeptRoles: OptionSet, Hashable, Sendable {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The issue's first event.
    public static let first = KeptRoles(rawValue: 1)
    /// The issue's latest event.
    public static let latest = KeptRoles(rawValue: 2)
    /// The issue's latest event of its release.
    public static let latestOfRelease = KeptRoles(rawValue: 4)
    /// The issue's latest event of its environment.
    public static let latestOfEnvironment = KeptRoles(rawValue: 8)
    /// In the issue's day sample (`KeepWhole.takesDay`).
    public static let dayQuota = KeptRoles(rawValue: 16)
    /// Kept because the store keeps every event whole (`--keep-whole all`).
    public static let every = KeptRoles(rawValue: 32)

    /// The roles' names, for people and JSON.
    public var names: [String] {
        [(KeptRoles.first, "first"), (.latest, "latest"), (.latestOfRelease, "latest of release"),
         (.latestOfEnvironment, "latest of environment"), (.dayQuota, "day sample"), (.every, "every")]
            .filter { contains($0.0) }.map(\.1)
    }
}
