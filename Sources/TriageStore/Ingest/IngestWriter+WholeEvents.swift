import TriageModel

/// The sample roles a kept payload holds (`event_payload.roles`): a payload with none left is deleted.
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
    /// One of the issue's first events of a day, up to the store's quota a day.
    public static let dayQuota = KeptRoles(rawValue: 16)
    /// Kept because the store keeps every event whole (`--keep-whole all`).
    public static let every = KeptRoles(rawValue: 32)

    /// The roles one newer event takes from another.
    static let passedOn: KeptRoles = [.first, .latest, .latestOfRelease, .latestOfEnvironment]

    /// The roles' names, for people and JSON.
    public var names: [String] {
        [(KeptRoles.first, "first"), (.latest, "latest"), (.latestOfRelease, "latest of release"),
         (.latestOfEnvironment, "latest of environment"), (.dayQuota, "day sample"), (.every, "every")]
            .filter { contains($0.0) }.map(\.1)
    }
}

extension TriageStore {
    /// The meta key of the events a day per issue kept whole beyond the first and latest ones
    /// (`KeepWhole`); absent: `KeepWhole.defaultPerDay`.
    static let keepWholeKey = "keep_whole_per_day"
}

/// How many events of an issue the store keeps whole: beside its first, its latest and the latest
/// of each release and environment, up to `perDay` a day, or every one.
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

extension IngestWriter {
    /// An event this transaction stored with its payload: a candidate to keep whole.
    struct Landed {
        var issueID: Int64
        var key: String
        var ts: Int64
        var eventID: String
        var source: String
        var release: String?
        var environment: String?
        var payload: [UInt8]
        var day: Int64 { Timestamp(millis: ts).day }
    }

    /// A stored payload that holds a role a newer event may take.
    private struct Holder {
        var ts: Int64
        var eventID: String
        var release: String?
        var environment: String?
        var roles: KeptRoles
    }

    /// Keeps whole the events of the batch just written that the sample asks for, takes their
    /// roles from older payloads, and deletes the payloads left with none. Only the kept events
    /// are scrubbed and compressed.
    func keepWhole(_ db: SQLDatabase) throws {
        guard !landed.isEmpty else { return }
        defer { landed.removeAll(keepingCapacity: true) }
        let rule = KeepWhole(stored: try TriageStore.meta(db, TriageStore.keepWholeKey))
        if rule == .none { return }
        let byIssue = Dictionary(grouping: landed, by: \.issueID)
        let issueIDs = Array(byIssue.keys)
        var holders: [Int64: [Holder]] = [:]
        var dayCounts: [Int64: [Int64: Int]] = [:]
        for slice in issueIDs.slices(of: 500) {
            let marks = databaseQuestionMarks(count: slice.count)
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, ts, event_id, release, environment, roles FROM event_payload
                WHERE issue_id IN (\(marks)) AND (roles & \(KeptRoles.passedOn.rawValue)) <> 0
                """, arguments: SQLArguments(slice)) {
                holders[(try row.decode(0)), default: []].append(Holder(ts: (try row.decode(1)), eventID: (try row.decode(2)), release: (try row.decode(3)), environment: (try row.decode(4)),
                                                           roles: KeptRoles(rawValue: (try row.decode(5)))))
            }
            if case .perDay = rule {
                let days = Set(slice.flatMap { byIssue[$0]!.map(\.day) })
                // The days' time range too, so that each issue's payloads are read from the key's
                // range of those days, not all of them (an issue keeps up to 20 a day for months).
                let from = days.min()! * Timestamp.millisPerDay, to = (days.max()! + 1) * Timestamp.millisPerDay - 1
                for row in try SQLRow.fetchAll(db, sql: """
                    SELECT issue_id, day, COUNT(*) FROM event_payload
                    WHERE issue_id IN (\(marks)) AND ts BETWEEN ? AND ? AND day IN (\(databaseQuestionMarks(count: days.count)))
                      AND (roles & \(KeptRoles.dayQuota.rawValue)) <> 0
                    GROUP BY issue_id, day
                    """, arguments: SQLArguments(slice) + [from, to] + SQLArguments(Array(days))) {
                    dayCounts[(try row.decode(0)), default: [:]][(try row.decode(1))] = try row.decode(2)
                }
            }
        }
        var kept: [(Landed, KeptRoles)] = []
        var taken: [(issueID: Int64, ts: Int64, eventID: String, roles: KeptRoles)] = []
        for (issueID, events) in byIssue {
            let ordered = events.sorted { ($0.ts, $0.eventID) < ($1.ts, $1.eventID) }
            var roles = [KeptRoles](repeating: [], count: ordered.count)
            var held = holders[issueID] ?? []
            /// Gives `role` to the candidate at `index` when it is newer (or, for `first`, older)
            /// than the payload holding it among `among`; that one loses it.
            func contest(_ role: KeptRoles, _ index: Int, among: (Holder) -> Bool, older: Bool = false) {
                let c = ordered[index]
                if let h = held.firstIndex(where: { $0.roles.contains(role) && among($0) }) {
                    let wins = older ? c.ts < held[h].ts : (c.ts, c.eventID) > (held[h].ts, held[h].eventID)
                    guard wins else { return }
                    held[h].roles.remove(role)
                    taken.append((issueID, held[h].ts, held[h].eventID, role))
                }
                roles[index].insert(role)
            }
            // The first: only an event as old as the issue's first (an older store's issues took
            // their first event before any was kept).
            if let firstSeen = issues[ordered[0].key]?.firstSeen.millis,
               ordered[0].ts <= firstSeen || held.contains(where: { $0.roles.contains(.first) }) {
                contest(.first, 0, among: { _ in true }, older: true)
            }
            contest(.latest, ordered.count - 1, among: { _ in true })
            var lastOfRelease: [String: Int] = [:], lastOfEnvironment: [String: Int] = [:]
            for (i, e) in ordered.enumerated() {
                if let r = e.release { lastOfRelease[r] = i }
                if let v = e.environment { lastOfEnvironment[v] = i }
            }
            for (release, i) in lastOfRelease { contest(.latestOfRelease, i, among: { $0.release == release }) }
            for (environment, i) in lastOfEnvironment { contest(.latestOfEnvironment, i, among: { $0.environment == environment }) }
            switch rule {
            case .all:
                for i in roles.indices { roles[i].insert(.every) }
            case .none:
                break
            case .perDay(let quota):
                for (i, e) in ordered.enumerated() where dayCounts[issueID, default: [:]][e.day, default: 0] < quota {
                    dayCounts[issueID, default: [:]][e.day, default: 0] += 1
                    roles[i].insert(.dayQuota)
                }
            }
            for (i, e) in ordered.enumerated() where !roles[i].isEmpty { kept.append((e, roles[i])) }
        }
        for t in taken {
            try db.execute(sql: "UPDATE event_payload SET roles = roles & ? WHERE issue_id = ? AND ts = ? AND event_id = ?",
                           arguments: [63 & ~t.roles.rawValue, t.issueID, t.ts, t.eventID])
        }
        if !taken.isEmpty {
            for slice in Array(Set(taken.map(\.issueID))).slices(of: 500) {
                try db.execute(sql: "DELETE FROM event_payload WHERE roles = 0 AND issue_id IN (\(databaseQuestionMarks(count: slice.count)))",
                               arguments: SQLArguments(slice))
            }
        }
        for slice in kept.slices(of: 100) {
            var arguments = SQLArguments()
            var rows = 0
            for (e, roles) in slice {
                // A payload whose secrets cannot be found (not one JSON value) is not kept.
                guard let clean = PayloadScrubber.scrub(e.payload) else { continue }
                arguments += [e.issueID, e.ts, e.eventID, e.source, e.release, e.environment, e.day, roles.rawValue, clean.count]
                arguments.values.append(.blob(PayloadCodec.compress(clean, source: e.source)))
                rows += 1
            }
            guard rows > 0 else { continue }
            try db.execute(sql: """
                INSERT INTO event_payload (issue_id, ts, event_id, source, release, environment, day, roles, bytes, payload)
                VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", "))
                ON CONFLICT DO NOTHING
                """, arguments: arguments)
        }
    }
}
