import TriageModel

/// Sentry's release health as SDKs send it (`session` and `sessions` envelope items), read as
/// adoption: the sessions of installations in an app version, from which the store counts each
/// version's active users per day (distinct installations), as it does for Firebase's sessions.
///
/// - `session` (one app session, sent again at each update): `sid`, `did` (the user or device),
///   `started`, `status`, `attrs.release`. It is a session `sid` of installation `did`, or of its
///   own `sid` when no `did` is given (an anonymous session is one user), on the day it started.
///   Every update of a session carries the same `sid`, and the store keeps a session id once, so
///   updates never count twice.
/// - `sessions` (aggregates, what server SDKs send for request-mode sessions): `attrs.release` and
///   `aggregates[{started, did?, exited, errored, abnormal, crashed}]`. A bucket with a `did` is
///   that user active on the bucket's day: one session per user, version and day (the counts only
///   say how many sessions, and users are what the store counts), so a bucket sent again or
///   flushed twice counts once. A bucket without `did` tells how many sessions ran but not whose:
///   it is no user, as Sentry's own release health counts users by `did` only, and is not stored.
///
/// The version is the release's, as the event decoder reads it (`myapp@1.2.3+45` → `1.2.3`); a
/// release without a number is kept as written. `attrs.environment` is not kept: adoption has none.
public enum SentrySessions {
    /// One `session` item's session.
    public static func session(_ v: JSONValue) throws(LineRejection) -> AdoptionRecord {
        guard let sid = try optionalText(v["sid"], field: "sid") else { throw LineRejection("missing sid") }
        let version = try version(v)
        let started = try timestamp(v["started"], field: "started")
        let installation = try optionalText(v["did"], field: "did") ?? sid
        return .session(id: SentryDecoder.canonicalID(sid), at: started, version: version, installation: installation)
    }

    /// One `sessions` item's users: one session per bucket that names its user.
    public static func aggregates(_ v: JSONValue) throws(LineRejection) -> [AdoptionRecord] {
        let version = try version(v)
        guard let buckets = v["aggregates"], buckets != .null else { throw LineRejection("missing aggregates") }
        guard case .array(let items) = buckets else { throw LineRejection("aggregates must be an array, found \(buckets.kindName)") }
        var records: [AdoptionRecord] = []
        for (i, bucket) in items.enumerated() {
            guard case .object = bucket else { throw LineRejection("aggregates[\(i)] must be an object, found \(bucket.kindName)") }
            let started = try timestamp(bucket["started"], field: "aggregates[\(i)].started")
            var sessions: Int64 = 0
            for status in ["exited", "errored", "abnormal", "crashed"] {
                guard let n = try count(bucket[status], field: "aggregates[\(i)].\(status)") else { continue }
                // Each count is at most `maxCount`, so four of them cannot overflow; saturating all the same.
                sessions = sessions.addingReportingOverflow(n).overflow ? .max : sessions + n
            }
            guard sessions > 0, let did = try optionalText(bucket["did"], field: "aggregates[\(i)].did") else { continue }
            let id = "sentry-sessions-" + StableHash.hex([version, did, String(started.day)].joined(separator: "\u{1F}"))
            records.append(.session(id: id, at: started, version: version, installation: did))
        }
        return records
    }

    /// The most a session count may be: Sentry's own counters are unsigned 32-bit integers
    /// (Relay's `SessionAggregateItem`), so a bucket's `exited`, `errored`, `abnormal` or
    /// `crashed` beyond it is refused, as a negative one is, with the item.
    public static let maxCount: Int64 = Int64(UInt32.max)

    /// A bucket's count: nil when absent; a number from 0 to `maxCount`, else the item is refused.
    static func count(_ value: JSONValue?, field: String) throws(LineRejection) -> Int64? {
        guard let n = try optionalInt(value, field: field) else { return nil }
        guard n >= 0 else { throw LineRejection("\(field) must not be negative") }
        guard n <= maxCount else { throw LineRejection("\(field) must be at most \(maxCount) (Sentry's limit), found \(n)") }
        return n
    }

    /// The app version of `attrs.release`.
    static func version(_ v: JSONValue) throws(LineRejection) -> String {
        guard let attrs = v["attrs"], attrs != .null else { throw LineRejection("missing attrs.release") }
        guard case .object = attrs else { throw LineRejection("attrs must be an object, found \(attrs.kindName)") }
        guard let release = try optionalText(attrs["release"], field: "attrs.release") else { throw LineRejection("missing attrs.release") }
        return AppVersion(release)?.display ?? release
    }
}
