import Foundation
import TriageModel

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

    /// The roles that point at an event and move to newer (for `first`, older) ones.
    static let pointers: KeptRoles = [.first, .latest, .latestOfRelease, .latestOfEnvironment]
    /// The roles an event is kept for by itself.
    static let sampled: KeptRoles = [.dayQuota, .every]
    /// The pointer roles as schema 17's released index names them (never changes).
    static let passedOn: KeptRoles = [.first, .latest, .latestOfRelease, .latestOfEnvironment]

    /// The roles' names, for people and JSON.
    public var names: [String] {
        [(KeptRoles.first, "first"), (.latest, "latest"), (.latestOfRelease, "latest of release"),
         (.latestOfEnvironment, "latest of environment"), (.dayQuota, "day sample"), (.every, "every")]
            .filter { contains($0.0) }.map(\.1)
    }
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
    /// Payloads that wait to take a role (`IngestWriter.pendingRoles`), in bytes: past it they are written at once.
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

/// A role an event can hold in an issue: the role and its release or environment ('' for the others).
struct RoleSlot: Hashable {
    var role: KeptRoles
    var scope: String
}

extension IngestWriter {
    /// An event this transaction stored with its payload: a candidate to keep whole.
    struct Landed {
        var issueID: Int64
        var rowID: Int64
        var ts: Int64
        var eventID: String
        var source: String
        var release: String?
        var environment: String?
        var payload: [UInt8]
        /// No event of the issue seen before it is older: it may be the issue's first.
        var isEarliest: Bool
        var day: Int64 { Timestamp(millis: ts).day }
        /// Newer than `other` in the role's order: time, then the row (the later stored).
        func isNewer(than ts: Int64, _ rowID: Int64) -> Bool { (self.ts, self.rowID) > (ts, rowID) }
    }

    /// A kept payload a role points at.
    struct Holder {
        var rowID: Int64
        var ts: Int64
        /// The role it is kept for by itself (`KeptRoles.sampled`), empty when only pointers keep it.
        var sample: KeptRoles
        var bytes: Int64
    }

    /// A landed event waiting to take a role: written when the roles are next flushed.
    struct Candidate {
        var event: Landed
        /// Its own payload row is written (it is in the day sample).
        var written: KeptRoles
    }

    /// What the writer knows of an issue's sample: the payloads its roles point at, and the count
    /// and bytes of its kept payloads.
    struct SampleBook {
        var holders: [RoleSlot: Holder] = [:]
        var count = 0
        var bytes: Int64 = 0

        /// Only the `SampleBounds.scopes` newest releases' and environments' slots of `holders`.
        static func newestScopes(_ holders: [RoleSlot: Holder]) -> [RoleSlot: Holder] {
            var kept = holders
            for role in [KeptRoles.latestOfRelease, .latestOfEnvironment] {
                let scoped = holders.filter { $0.key.role == role }.sorted { ($0.value.ts, $0.value.rowID) > ($1.value.ts, $1.value.rowID) }
                for (slot, _) in scoped.dropFirst(SampleBounds.scopes) { kept[slot] = nil }
            }
            return kept
        }

        /// `pending` without the candidates of releases and environments older than the newest
        /// `SampleBounds.scopes` ones this issue holds or waits for: what bounds the candidates' memory.
        func trimmedScopes(_ pending: [RoleSlot: Candidate]) -> [RoleSlot: Candidate] {
            var kept = pending
            for role in [KeptRoles.latestOfRelease, .latestOfEnvironment] {
                let slots = Set(holders.keys.filter { $0.role == role } + pending.keys.filter { $0.role == role })
                guard slots.count > SampleBounds.scopes else { continue }
                let ordered = slots.sorted { current($0, pending: pending)! > current($1, pending: pending)! }
                for slot in ordered.dropFirst(SampleBounds.scopes) { kept[slot] = nil }
            }
            return kept
        }

        /// The holder of a role slot, or the candidate waiting for it, whichever is newer.
        func current(_ slot: RoleSlot, pending: [RoleSlot: Candidate]?) -> (ts: Int64, rowID: Int64)? {
            if let c = pending?[slot] { return (c.event.ts, c.event.rowID) }
            return holders[slot].map { ($0.ts, $0.rowID) }
        }
    }

    /// The whole-event sample's state: what the writer keeps between batches.
    struct SampleState {
        /// Events landed per issue and day (seeded from `issue_day`): which is the day's n-th.
        var dayEvents: [Rollups.DayKey: Int] = [:]
        var books: [Int64: SampleBook] = [:]
        /// The store's kept payloads and their bytes, once read.
        var totals: (count: Int, bytes: Int64)?
        /// Role candidates by issue and slot, and their payloads' bytes.
        var pendingRoles: [Int64: [RoleSlot: Candidate]] = [:]
        var pendingBytes = 0
        /// When the roles were last written.
        var rolesFlushed = DispatchTime.now().uptimeNanoseconds
        /// Each source's dictionary, once trained, and the payloads gathered to train one.
        var dictionaries: [String: ZstdDictionary] = [:]
        var training: [String: [[UInt8]]] = [:]
        var trainingLoaded = Set<String>()
        var dictionariesLoaded = false

        static let dayEventsLimit = 400_000

        /// Forgets what another writer's commits (or a rollback) may have made stale; the
        /// candidates and the trained dictionaries stay.
        mutating func forgetStoreReads() {
            dayEvents = [:]
            books = [:]
            totals = nil
        }
    }

    /// Keeps whole the events of the batch just written that the sample asks for: the day sample's
    /// written at once, the role candidates held until the roles are next written
    /// (`roleFlushNanoseconds`), so that the latest event of a busy issue is written once an
    /// interval, not once a batch. Only kept events are scrubbed and compressed.
    func keepWhole(_ db: SQLDatabase) throws {
        defer { landed.removeAll(keepingCapacity: true) }
        let rule = KeepWhole(stored: try TriageStore.meta(db, TriageStore.keepWholeKey))
        if rule == .none {
            sample.pendingRoles = [:]
            sample.pendingBytes = 0
            return
        }
        try insertPressed(db, waiting: false)
        if !landed.isEmpty {
            try seed(db)
            var pressing: [(Landed, KeptRoles)] = []
            for e in landed {
                let key = Rollups.DayKey(issue: e.issueID, bucket: e.day)
                let n = (sample.dayEvents[key] ?? 0) + 1
                sample.dayEvents[key] = n
                var own = rule.takesDay(n)
                if own == .dayQuota, !(try roomForSample(e, db: db)) { own = [] }
                if !own.isEmpty {
                    pressing.append((e, own))
                    sample.books[e.issueID]!.count += 1
                    sample.books[e.issueID]!.bytes += Int64(e.payload.count)
                    sample.totals!.count += 1
                    sample.totals!.bytes += Int64(e.payload.count)
                }
                propose(e, written: own)
            }
            try submitPayloads(pressing, db: db)
        }
        let due = roleFlushNanoseconds.map { DispatchTime.now().uptimeNanoseconds - sample.rolesFlushed >= $0 } ?? true
        if due || sample.pendingBytes > SampleBounds.pendingBytes { try flushRoles(db) }
    }

    /// Reads once what the sample needs of the batch's issues and days.
    private func seed(_ db: SQLDatabase) throws {
        if sample.totals == nil {
            let row = try SQLRow.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM kept_payload")!
            sample.totals = (try row.decode(0), try row.decode(1))
        }
        try seedBooks(Array(Set(landed.map(\.issueID))), db: db)
        if sample.dayEvents.count > SampleState.dayEventsLimit { sample.dayEvents = [:] }
        let pairs = Set(landed.map { Rollups.DayKey(issue: $0.issueID, bucket: $0.day) }).filter { sample.dayEvents[$0] == nil }
        guard !pairs.isEmpty else { return }
        for pair in pairs { sample.dayEvents[pair] = 0 }
        let issues = Array(Set(pairs.map(\.issue))), days = Set(pairs.map(\.bucket))
        for slice in issues.slices(of: 500) {
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, day, events FROM issue_day
                WHERE issue_id IN (\(databaseQuestionMarks(count: slice.count))) AND day BETWEEN ? AND ?
                """, arguments: SQLArguments(slice) + [days.min()!, days.max()!]) {
                let key = Rollups.DayKey(issue: try row.decode(0), bucket: try row.decode(1))
                if pairs.contains(key) { sample.dayEvents[key] = try row.decode(2) }
            }
        }
    }

    /// The books of these issues that the writer does not hold: the payloads their roles point at,
    /// and their kept payloads' count and bytes.
    private func seedBooks(_ issueIDs: [Int64], db: SQLDatabase) throws {
        if sample.totals == nil {
            let row = try SQLRow.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM kept_payload")!
            sample.totals = (try row.decode(0), try row.decode(1))
        }
        for slice in issueIDs.filter({ sample.books[$0] == nil }).slices(of: 500) {
            let marks = databaseQuestionMarks(count: slice.count)
            for id in slice { sample.books[id] = SampleBook() }
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT r.issue_id, r.role, r.scope, p.id, p.ts, p.sample, p.bytes
                FROM kept_role r JOIN kept_payload p ON p.id = r.payload_id WHERE r.issue_id IN (\(marks))
                """, arguments: SQLArguments(slice)) {
                let slot = RoleSlot(role: KeptRoles(rawValue: try row.decode(1)), scope: try row.decode(2))
                sample.books[try row.decode(0)]!.holders[slot] = Holder(rowID: try row.decode(3), ts: try row.decode(4),
                                                                         sample: KeptRoles(rawValue: try row.decode(5)), bytes: try row.decode(6))
            }
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, COUNT(*), COALESCE(SUM(bytes), 0) FROM kept_payload WHERE issue_id IN (\(marks)) GROUP BY issue_id
                """, arguments: SQLArguments(slice)) {
                sample.books[try row.decode(0)]!.count = try row.decode(1)
                sample.books[try row.decode(0)]!.bytes = try row.decode(2)
            }
        }
    }

    /// Whether the issue and the store have room for one more day-sample payload; at the issue's
    /// bounds its oldest day-sample payload that no role holds makes room.
    private func roomForSample(_ e: Landed, db: SQLDatabase) throws -> Bool {
        guard let totals = sample.totals, totals.count < SampleBounds.perStoreCount,
              totals.bytes + Int64(e.payload.count) <= SampleBounds.perStoreBytes else { return false }
        let book = sample.books[e.issueID]!
        guard book.count >= SampleBounds.perIssueCount || book.bytes + Int64(e.payload.count) > SampleBounds.perIssueBytes else {
            return true
        }
        // Not one a role holds, nor one a candidate waiting for a role is.
        let waiting = (sample.pendingRoles[e.issueID] ?? [:]).values.map(\.event.rowID)
        guard let row = try SQLRow.fetchOne(db, sql: """
            DELETE FROM kept_payload WHERE id = (
                SELECT p.id FROM kept_payload p WHERE p.issue_id = ? AND p.sample <> 0
                  AND NOT EXISTS (SELECT 1 FROM kept_role r WHERE r.payload_id = p.id)
                  \(waiting.isEmpty ? "" : "AND p.id NOT IN (\(databaseQuestionMarks(count: waiting.count)))")
                ORDER BY p.ts LIMIT 1)
            RETURNING bytes
            """, arguments: [e.issueID] + SQLArguments(waiting)) else { return false }
        let freed: Int64 = try row.decode(0)
        sample.books[e.issueID]!.count -= 1
        sample.books[e.issueID]!.bytes -= freed
        sample.totals!.count -= 1
        sample.totals!.bytes -= freed
        return true
    }

    /// Makes the event the candidate of each role it takes from the one holding (or waiting for) it.
    private func propose(_ e: Landed, written: KeptRoles) {
        let book = sample.books[e.issueID]!
        var pending = sample.pendingRoles[e.issueID] ?? [:]
        var took = false
        func offer(_ slot: RoleSlot, older: Bool = false) {
            if let current = book.current(slot, pending: pending) {
                let wins = older ? (e.ts, e.rowID) < current : e.isNewer(than: current.ts, current.rowID)
                guard wins else { return }
            }
            pending[slot] = Candidate(event: e, written: written)
            took = true
        }
        let first = RoleSlot(role: .first, scope: "")
        // The first: only an event as old as the issue's first (an older store's issues took
        // their first event before any was kept).
        if book.current(first, pending: pending) != nil {
            offer(first, older: true)
        } else if e.isEarliest {
            offer(first, older: true)
        }
        offer(RoleSlot(role: .latest, scope: ""))
        if let release = e.release { offer(RoleSlot(role: .latestOfRelease, scope: release)) }
        if let environment = e.environment { offer(RoleSlot(role: .latestOfEnvironment, scope: environment)) }
        guard took else { return }
        pending = book.trimmedScopes(pending)
        // Counted once per candidate; one that a newer one displaces is not taken off (an upper bound).
        sample.pendingBytes += e.payload.count
        sample.pendingRoles[e.issueID] = pending
    }

    /// Whether role candidates wait to be written.
    public var hasPendingSample: Bool { !sample.pendingRoles.isEmpty }

    /// Writes the roles' waiting candidates now, in a transaction of their own: what an ingest does
    /// at its end, and a server at its stop and in quiet moments.
    public func flushSample() throws(StoreError) {
        guard hasPendingSample else { return }
        flushRequested = true
        defer { flushRequested = false }
        _ = try write(batches: { nil })
    }

    /// Writes each waiting candidate's role: its payload first where the day sample did not keep it,
    /// then the pointer; a payload no role holds any more and the day sample did not keep goes.
    func flushRoles(_ db: SQLDatabase) throws {
        sample.rolesFlushed = DispatchTime.now().uptimeNanoseconds
        guard !sample.pendingRoles.isEmpty else { return }
        let waiting = sample.pendingRoles
        sample.pendingRoles = [:]
        sample.pendingBytes = 0
        try seedBooks(Array(waiting.keys), db: db)
        var pressing: [(Landed, KeptRoles)] = []
        var pressed = Set<Int64>()
        var pointers: [(issue: Int64, slot: RoleSlot, rowID: Int64)] = []
        var dropped: [(issue: Int64, slot: RoleSlot)] = []
        var released: [(issue: Int64, holder: Holder)] = []
        for (issueID, slots) in waiting {
            var book = sample.books[issueID]!
            let before = book.holders
            for (slot, c) in slots {
                book.holders[slot] = Holder(rowID: c.event.rowID, ts: c.event.ts, sample: c.written, bytes: Int64(c.event.payload.count))
            }
            book.holders = SampleBook.newestScopes(book.holders)
            let heldBefore = Set(before.values.map(\.rowID))
            for (slot, holder) in book.holders where before[slot]?.rowID != holder.rowID {
                pointers.append((issueID, slot, holder.rowID))
                guard let c = slots[slot], c.written.isEmpty, !heldBefore.contains(holder.rowID), pressed.insert(holder.rowID).inserted else { continue }
                pressing.append((c.event, []))
                book.count += 1
                book.bytes += holder.bytes
                sample.totals?.count += 1
                sample.totals?.bytes += holder.bytes
            }
            for (slot, old) in before where book.holders[slot]?.rowID != old.rowID {
                if book.holders[slot] == nil { dropped.append((issueID, slot)) }
                released.append((issueID, old))
            }
            sample.books[issueID] = book
        }
        try submitPayloads(pressing, db: db)
        for slice in pointers.slices(of: 200) {
            var arguments = SQLArguments()
            for p in slice { arguments += [p.issue, p.slot.role.rawValue, p.slot.scope, p.rowID] }
            try db.execute(sql: """
                INSERT INTO kept_role (issue_id, role, scope, payload_id)
                VALUES \(Array(repeating: "(?, ?, ?, ?)", count: slice.count).joined(separator: ", "))
                ON CONFLICT (issue_id, role, scope) DO UPDATE SET payload_id = excluded.payload_id
                """, arguments: arguments)
        }
        for d in dropped {
            try db.execute(sql: "DELETE FROM kept_role WHERE issue_id = ? AND role = ? AND scope = ?",
                           arguments: [d.issue, d.slot.role.rawValue, d.slot.scope])
        }
        // A released payload goes when only roles kept it and none holds it now.
        var gone = Set<Int64>()
        for r in released where r.holder.sample.isEmpty && !gone.contains(r.holder.rowID) {
            guard sample.books[r.issue]!.holders.values.first(where: { $0.rowID == r.holder.rowID }) == nil else { continue }
            try db.execute(sql: "DELETE FROM kept_payload WHERE id = ? AND sample = 0", arguments: [r.holder.rowID])
            guard db.changesCount > 0 else { continue }
            gone.insert(r.holder.rowID)
            sample.books[r.issue]!.count -= 1
            sample.books[r.issue]!.bytes -= r.holder.bytes
            sample.totals?.count -= 1
            sample.totals?.bytes -= r.holder.bytes
        }
    }

    /// Hands kept payloads to the press (`PayloadPress`), each with its source's dictionary; they
    /// are inserted before the transaction commits (`insertPressed`).
    private func submitPayloads(_ kept: [(Landed, KeptRoles)], db: SQLDatabase) throws {
        guard !kept.isEmpty else { return }
        try loadDictionaries(db)
        press.submit(kept.map { PayloadPress.Job(event: $0.0, roles: $0.1, dictionary: sample.dictionaries[$0.0.source]) })
    }

    /// Takes the pressed payloads back (all of them, or with `waiting: false` those done so far)
    /// and inserts them (each an event's, under its row's id); what was pressed without a
    /// dictionary joins its source's training, and once a source has payloads enough a dictionary
    /// is trained on them for the payloads after.
    func insertPressed(_ db: SQLDatabase, waiting: Bool = true) throws {
        let pressed = waiting ? press.collect() : press.take()
        guard !pressed.isEmpty else { return }
        for slice in pressed.slices(of: 100) {
            var arguments = SQLArguments()
            for p in slice {
                let e = p.job.event
                arguments.values += [.integer(e.rowID), .integer(e.issueID), .integer(e.ts), .integer(KeptEventKey.hash(e.eventID)),
                                     .integer(p.job.roles.rawValue), .integer(p.job.dictionary?.id ?? -1), .integer(Int64(p.bytes)),
                                     .blob(p.frame)]
            }
            try db.execute(sql: """
                INSERT INTO kept_payload (id, issue_id, ts, event_key, sample, dict, bytes, payload)
                VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: slice.count).joined(separator: ", "))
                ON CONFLICT DO NOTHING
                """, arguments: arguments)
        }
        for p in pressed {
            guard let clean = p.clean else { continue }
            try train(p.job.event.source, adding: clean, db: db)
        }
    }

    /// The store's dictionaries, read once.
    private func loadDictionaries(_ db: SQLDatabase) throws {
        guard !sample.dictionariesLoaded else { return }
        for row in try SQLRow.fetchAll(db, sql: "SELECT id, source FROM payload_dictionary ORDER BY id") {
            let source: String = try row.decode(1)
            sample.dictionaries[source] = try store.dictionaries.dictionary(id: try row.decode(0), db: db)
        }
        sample.dictionariesLoaded = true
    }

    /// Adds a payload pressed without a dictionary to what its source's dictionary is trained on
    /// (at first the store's own such payloads of the source); once they are enough, trains the
    /// dictionary and stores it, and the source's later payloads are compressed with it.
    private func train(_ source: String, adding clean: [UInt8], db: SQLDatabase) throws {
        guard sample.dictionaries[source] == nil else { return }
        if sample.trainingLoaded.insert(source).inserted {
            var gathered: [[UInt8]] = []
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT p.payload, p.bytes FROM kept_payload p
                JOIN event_row e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.id = p.id
                WHERE p.dict = -1 AND e.source_term = (SELECT id FROM term WHERE value = ?)
                LIMIT \(PayloadDictionaries.trainingCount)
                """, arguments: [source]) {
                if let payload = PayloadZstd.decompress(try row.decode(0), size: try row.decode(1), dictionary: nil) { gathered.append(payload) }
            }
            sample.training[source] = gathered
        }
        sample.training[source, default: []].append(clean)
        let gathered = sample.training[source]!
        guard PayloadDictionaries.enoughToTrain(gathered) else { return }
        sample.training[source] = []
        // Too alike or too few after all: as many again are gathered before the next try.
        guard let bytes = PayloadZstd.train(on: gathered, capacity: PayloadDictionaries.capacity) else { return }
        var arguments = SQLArguments()
        arguments.values = [.text(source), .blob(bytes)]
        let id = try db.insertID(sql: """
            INSERT INTO payload_dictionary (id, source, dictionary) VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM payload_dictionary), ?, ?)
            """, arguments: arguments)
        sample.dictionaries[source] = try store.dictionaries.remember(id: id, bytes: bytes)
        trainedInTransaction.append(id)
    }
}
