import Foundation
import TriageModel

extension KeptRoles {
    /// The roles that point at an event and move to newer (for `first`, older) ones.
    static let pointers: KeptRoles = [.first, .latest, .latestOfRelease, .latestOfEnvironment]
    /// The roles an event is kept for by itself.
    static let sampled: KeptRoles = [.dayQuota, .every]
    /// The pointer roles as schema 17's released index names them (never changes).
    static let passedOn: KeptRoles = [.first, .latest, .latestOfRelease, .latestOfEnvironment]
}

extension TriageStore {
    /// The meta key of the day sample's size per issue and day (`KeepWhole`); absent: `KeepWhole.defaultPerDay`.
    static let keepWholeKey = "keep_whole_per_day"
}

/// Which events the store keeps whole: each issue's first and latest event, the latest of its
/// five newest releases and environments, and a day sample that thins as a day grows busy — the
/// 1st, 2nd, 4th, 8th… event of an issue's day, at most `perDay` of them — or every event, or none.
public enum KeepWhole: Equatable, Sendable {
    case perDay(Int)
    case all
    /// No event is kept whole (only the counts).
    case none

    public static let defaultPerDay = 20

    /// `all`, `none` or a number of events a day.
    public init?(_ text: String) {
        if text == "all" { self = .all; return }
        if text == "none" { self = .none; return }
        guard let n = Int(text), n >= 0 else { return nil }
        self = .perDay(n)
    }

    var stored: Int64 {
        switch self {
        case .perDay(let n): Int64(n)
        case .all: -1
        case .none: -2
        }
    }

    init(stored: Int64?) {
        self = stored.map { $0 == -2 ? .none : $0 < 0 ? .all : .perDay(Int($0)) } ?? .perDay(KeepWhole.defaultPerDay)
    }

    /// The role the `n`-th event (from 1) of an issue's day is kept for by itself, if any: every
    /// event under `all`; under `perDay(q)` the powers of two, at most `q` a day. A quiet issue's
    /// day is kept nearly whole, a busy one's in a few events spread over the day.
    func takesDay(_ n: Int) -> KeptRoles {
        switch self {
        case .all: return .every
        case .none: return []
        case .perDay(let q):
            guard n > 0, n & (n - 1) == 0, n.trailingZeroBitCount < q else { return [] }
            return .dayQuota
        }
    }
}

/// The bounds of the sample, whatever the data: a store of a million small issues or one issue
/// with a new release on every event keeps a sample of a known size.
enum SampleBounds {
    /// Day-sample payloads an issue keeps at most: past it, each newly sampled event takes the
    /// place of the issue's oldest one (the roles' payloads are never taken).
    static let perIssueCount = 1_000
    /// Their bytes before compression, at most, per issue.
    static let perIssueBytes: Int64 = 8 << 20
    /// The store's kept payloads at most: past either bound, no more day samples are taken until
    /// retention frees room (the roles go on moving).
    static let perStoreCount = 2_000_000
    static let perStoreBytes: Int64 = 4 << 30
    /// The releases, and the environments, whose latest event an issue keeps: the newest ones.
    static let scopes = 5
    /// Payloads that wait to take a role (`SampleState.waiting`), in bytes: past it they are written at once.
    static let pendingBytes = 64 << 20
}

extension TriageStore {
    /// How many events the store keeps whole.
    public func keepWhole() throws(StoreError) -> KeepWhole {
        try read { db in KeepWhole(stored: try TriageStore.meta(db, TriageStore.keepWholeKey)) }
    }

    /// Sets how many events the store keeps whole from now on (`ingest --keep-whole`).
    public func setKeepWhole(_ rule: KeepWhole) throws(StoreError) {
        try write { db in try TriageStore.setMeta(db, TriageStore.keepWholeKey, rule.stored) }
    }
}

