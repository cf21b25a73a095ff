import Foundation
import TriageModel

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
    }

    /// A kept payload a role points at.
    struct Holder {
        var rowID: Int64
        var ts: Int64
        /// The role it is kept for by itself (`KeptRoles.sampled`), empty when only roles keep it.
        var sample: KeptRoles
        var bytes: Int64
    }

    /// A landed event waiting to take a role: written when the roles are next written (`flushRoles`).
    struct Candidate {
        var event: Landed
        /// The role its own payload row is kept for (the day sample), empty when it has none yet.
        var written: KeptRoles
    }

    /// One role slot of an issue: the kept payload holding it in the store, and the candidate
    /// waiting to take it.
    struct SlotState {
        var slot: RoleSlot
        var held: Holder?
        var waiting: Candidate?

        /// The newer (for `first`, the older) of the two, in time and then row order.
        var current: (ts: Int64, rowID: Int64)? {
            if let w = waiting { return (w.event.ts, w.event.rowID) }
            return held.map { ($0.ts, $0.rowID) }
        }
    }

    /// What the writer knows of one issue's sample: its role slots (first, latest, then the
    /// releases' and environments'), and its kept payloads' count and bytes. A reference, so that
    /// an event's few comparisons mutate it in place.
    final class IssueSample {
        var slots: [SlotState] = [SlotState(slot: RoleSlot(role: .first, scope: "")), SlotState(slot: RoleSlot(role: .latest, scope: ""))]
        var count: Int
        var bytes: Int64
        /// What this writer changed of `count` and `bytes` that `issue` does not hold yet.
        var countChange = 0
        var bytesChange: Int64 = 0

        init(count: Int, bytes: Int64) {
            self.count = count
            self.bytes = bytes
        }

        func add(count: Int, bytes: Int64) {
            self.count += count
            self.bytes += bytes
            countChange += count
            bytesChange += bytes
        }

        /// The slot's index, made when new.
        func index(_ slot: RoleSlot) -> Int {
            switch slot.role {
            case .first: return 0
            case .latest: return 1
            default:
                if let i = slots.firstIndex(where: { $0.slot.role == slot.role && $0.slot.scope == slot.scope }) { return i }
                slots.append(SlotState(slot: slot))
                return slots.count - 1
            }
        }

        /// Gives `c` the slot when it is newer (or, for `first`, older) than what holds or waits for it.
        /// True when it took it.
        func offer(_ c: Candidate, to slot: RoleSlot) -> Bool {
            let i = index(slot)
            if let current = slots[i].current {
                let mine = (c.event.ts, c.event.rowID)
                guard slot.role == .first ? mine < current : mine > current else { return false }
            }
            slots[i].waiting = c
            return true
        }

        /// Drops the releases' and environments' slots older than the newest `SampleBounds.scopes`
        /// of each; returns the holders that lost their slot.
        func trimScopes() -> [(RoleSlot, Holder)] {
            guard slots.count > 2 + SampleBounds.scopes else { return [] }
            var dropped: [(RoleSlot, Holder)] = []
            for role in [KeptRoles.latestOfRelease, .latestOfEnvironment] {
                let scoped = slots.indices.filter { slots[$0].slot.role == role }
                guard scoped.count > SampleBounds.scopes else { continue }
                let ordered = scoped.sorted { slots[$0].current! > slots[$1].current! }
                for i in ordered.dropFirst(SampleBounds.scopes) {
                    if let held = slots[i].held { dropped.append((slots[i].slot, held)) }
                    slots[i].slot.scope = "\u{0}drop"
                }
            }
            slots.removeAll { $0.slot.scope == "\u{0}drop" }
            return dropped
        }

        var isWaiting: Bool { slots.contains { $0.waiting != nil } }

        /// Whether a payload row is held by one of the slots or waited for by one.
        func holds(_ rowID: Int64) -> Bool {
            slots.contains { $0.held?.rowID == rowID || $0.waiting?.event.rowID == rowID }
        }
    }

    /// The whole-event sample's state: what the writer keeps between batches.
    struct SampleState {
        /// Events landed per issue and day (seeded from `issue_day`): which is the day's n-th.
        var dayEvents: [Rollups.DayKey: Int] = [:]
        var issues: [Int64: IssueSample] = [:]
        /// The issues whose slots have candidates waiting, and those candidates' payload bytes.
        var waiting = Set<Int64>()
        var waitingBytes = 0
        /// The releases' and environments' slots dropped for newer ones since the roles were last
        /// written, with the payloads that held them.
        var dropped: [(issue: Int64, slot: RoleSlot, held: Holder)] = []
        /// The store's kept payloads and their bytes, once read.
        var totals: (count: Int, bytes: Int64)?
        /// When the roles were last written.
        var rolesFlushed = DispatchTime.now().uptimeNanoseconds
        /// Each source's dictionary, once trained, and the payloads gathered to train one.
        var dictionaries: [String: ZstdDictionary] = [:]
        var training: [String: [[UInt8]]] = [:]
        var trainingLoaded = Set<String>()
        var dictionariesLoaded = false

        static let dayEventsLimit = 400_000

        /// Forgets what another writer's commits may have made stale, the candidates with it (the
        /// next events of their issues offer themselves again); the dictionaries stay.
        mutating func forgetStoreReads() {
            dayEvents = [:]
            issues = [:]
            waiting = []
            waitingBytes = 0
            dropped = []
            totals = nil
        }
    }

    /// Keeps whole the events of the batch just written that the sample asks for: the day
    /// sample's at once, the role candidates held until the roles are next written
    /// (`roleFlushNanoseconds`), so that the latest event of a busy issue is written once an
    /// interval, not once a batch. Only the kept events are scrubbed and compressed, by the press.
    func keepWhole(_ db: SQLDatabase) throws {
        defer { landed.removeAll(keepingCapacity: true) }
        let rule = KeepWhole(stored: try TriageStore.meta(db, TriageStore.keepWholeKey))
        if rule == .none {
            sample.forgetStoreReads()
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
                let issue = sample.issues[e.issueID]!
                var own = rule.takesDay(n)
                if own == .dayQuota, !(try roomForSample(e, in: issue, db: db)) { own = [] }
                if !own.isEmpty {
                    pressing.append((e, own))
                    issue.add(count: 1, bytes: 0)
                    sample.totals!.count += 1
                }
                propose(Candidate(event: e, written: own), to: issue)
            }
            try submitPayloads(pressing, db: db)
        }
        let due = roleFlushNanoseconds.map { DispatchTime.now().uptimeNanoseconds - sample.rolesFlushed >= $0 } ?? true
        if due || sample.waitingBytes > SampleBounds.pendingBytes { try flushRoles(db) }
    }

    /// Reads once what the sample needs of the batch's issues and days.
    private func seed(_ db: SQLDatabase) throws {
        try seedIssues(landed.map(\.issueID), db: db)
        if sample.dayEvents.count > SampleState.dayEventsLimit { sample.dayEvents = [:] }
        var pairs = Set<Rollups.DayKey>()
        for e in landed {
            let key = Rollups.DayKey(issue: e.issueID, bucket: e.day)
            if sample.dayEvents[key] == nil { pairs.insert(key) }
        }
        guard !pairs.isEmpty else { return }
        for pair in pairs { sample.dayEvents[pair] = 0 }
        let issues = Array(Set(pairs.map(\.issue))), days = pairs.map(\.bucket)
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

    /// The samples of these issues the writer does not hold: the payloads their roles point at,
    /// and their kept payloads' count and bytes (`issue.kept_payloads`, `kept_bytes`).
    private func seedIssues(_ issueIDs: [Int64], db: SQLDatabase) throws {
        if sample.totals == nil {
            let row = try SQLRow.fetchOne(db, sql: "SELECT COALESCE(SUM(kept_payloads), 0), COALESCE(SUM(kept_bytes), 0) FROM issue")!
            sample.totals = (try row.decode(0), try row.decode(1))
        }
        var missing = Set<Int64>()
        for id in issueIDs where sample.issues[id] == nil { missing.insert(id) }
        for slice in Array(missing).slices(of: 500) {
            let marks = databaseQuestionMarks(count: slice.count)
            for row in try SQLRow.fetchAll(db, sql: "SELECT id, kept_payloads, kept_bytes FROM issue WHERE id IN (\(marks))",
                                           arguments: SQLArguments(slice)) {
                sample.issues[try row.decode(0)] = IssueSample(count: try row.decode(1), bytes: try row.decode(2))
            }
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT r.issue_id, r.role, r.scope, p.id, p.ts, p.sample, p.bytes
                FROM kept_role r JOIN kept_payload p ON p.id = r.payload_id WHERE r.issue_id IN (\(marks))
                """, arguments: SQLArguments(slice)) {
                guard let issue = sample.issues[try row.decode(0)] else { continue }
                let i = issue.index(RoleSlot(role: KeptRoles(rawValue: try row.decode(1)), scope: try row.decode(2)))
                issue.slots[i].held = Holder(rowID: try row.decode(3), ts: try row.decode(4), sample: KeptRoles(rawValue: try row.decode(5)),
                                             bytes: try row.decode(6))
            }
        }
    }

    /// Whether the issue and the store have room for one more day-sample payload; at the issue's
    /// bounds its oldest day-sample payload that no role holds or waits for makes room.
    private func roomForSample(_ e: Landed, in issue: IssueSample, db: SQLDatabase) throws -> Bool {
        guard let totals = sample.totals, totals.count < SampleBounds.perStoreCount,
              totals.bytes + Int64(e.payload.count) <= SampleBounds.perStoreBytes else { return false }
        guard issue.count >= SampleBounds.perIssueCount || issue.bytes + Int64(e.payload.count) > SampleBounds.perIssueBytes else {
            return true
        }
        let spared = issue.slots.compactMap { $0.waiting?.event.rowID } + issue.slots.compactMap { $0.held?.rowID }
        let except = spared.isEmpty ? "" : "AND p.id NOT IN (\(databaseQuestionMarks(count: spared.count)))"
        guard let row = try SQLRow.fetchOne(db, sql: """
            DELETE FROM kept_payload WHERE id = (
                SELECT p.id FROM event_row e JOIN kept_payload p ON p.id = e.id
                WHERE e.issue_id = ? AND p.sample <> 0 \(except)
                ORDER BY e.ts LIMIT 1)
            RETURNING bytes
            """, arguments: [e.issueID] + SQLArguments(spared)) else { return false }
        let freed: Int64 = try row.decode(0)
        issue.add(count: -1, bytes: -freed)
        sample.totals!.count -= 1
        sample.totals!.bytes -= freed
        return true
    }

    /// Makes the event the candidate of each role it takes from what holds or waits for it.
    private func propose(_ c: Candidate, to issue: IssueSample) {
        let e = c.event
        var took = false
        // The first: only an event as old as the issue's first (an older store's issues took
        // their first event before any was kept).
        if issue.slots[0].current != nil || e.isEarliest { took = issue.offer(c, to: RoleSlot(role: .first, scope: "")) || took }
        took = issue.offer(c, to: RoleSlot(role: .latest, scope: "")) || took
        if let release = e.release { took = issue.offer(c, to: RoleSlot(role: .latestOfRelease, scope: release)) || took }
        if let environment = e.environment { took = issue.offer(c, to: RoleSlot(role: .latestOfEnvironment, scope: environment)) || took }
        guard took else { return }
        // A candidate for a scope older than the newest few waits no more (what bounds the candidates).
        for (slot, held) in issue.trimScopes() { sample.dropped.append((e.issueID, slot, held)) }
        sample.waiting.insert(e.issueID)
        // Counted once per candidate; one that a newer one displaces is not taken off (an upper bound).
        sample.waitingBytes += e.payload.count
    }

    /// Whether role candidates wait to be written.
    public var hasPendingSample: Bool { !sample.waiting.isEmpty }

    /// Writes the roles' waiting candidates now, in a transaction of their own: what an ingest does
    /// at its end, and a server at its stop and in quiet moments.
    public func flushSample() throws(StoreError) {
        guard hasPendingSample else { return }
        flushRequested = true
        defer { flushRequested = false }
        _ = try write(batches: { nil })
    }

    /// Writes each waiting candidate's role: its payload first where the day sample did not keep
    /// it, then the pointer; a payload that no role holds any more, and that the day sample did not
    /// keep, goes.
    func flushRoles(_ db: SQLDatabase) throws {
        sample.rolesFlushed = DispatchTime.now().uptimeNanoseconds
        var pressing: [(Landed, KeptRoles)] = []
        var pointers: [(issue: Int64, slot: RoleSlot, rowID: Int64)] = []
        var released: [(issue: IssueSample, holder: Holder)] = []
        for issueID in sample.waiting {
            guard let issue = sample.issues[issueID] else { continue }
            var pressed = Set<Int64>()
            for i in issue.slots.indices {
                guard let c = issue.slots[i].waiting else { continue }
                let e = c.event
                let wasHeld = issue.slots.contains { $0.held?.rowID == e.rowID }
                if c.written.isEmpty, !wasHeld, pressed.insert(e.rowID).inserted {
                    pressing.append((e, []))
                    issue.add(count: 1, bytes: 0)
                    sample.totals?.count += 1
                }
                if let old = issue.slots[i].held { released.append((issue, old)) }
                issue.slots[i].held = Holder(rowID: e.rowID, ts: e.ts, sample: c.written, bytes: Int64(e.payload.count))
                issue.slots[i].waiting = nil
                pointers.append((issueID, issue.slots[i].slot, e.rowID))
            }
        }
        sample.waiting = []
        sample.waitingBytes = 0
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
        for d in sample.dropped {
            try db.execute(sql: "DELETE FROM kept_role WHERE issue_id = ? AND role = ? AND scope = ?",
                           arguments: [d.issue, d.slot.role.rawValue, d.slot.scope])
            if let issue = sample.issues[d.issue] { released.append((issue, d.held)) }
        }
        sample.dropped = []
        // A released payload goes when only roles kept it and none holds it now.
        var gone = Set<Int64>()
        for r in released where r.holder.sample.isEmpty && !r.issue.holds(r.holder.rowID) && !gone.contains(r.holder.rowID) {
            guard let row = try SQLRow.fetchOne(db, sql: "DELETE FROM kept_payload WHERE id = ? AND sample = 0 RETURNING bytes",
                                                arguments: [r.holder.rowID]) else { continue }
            let freed: Int64 = try row.decode(0)
            gone.insert(r.holder.rowID)
            r.issue.add(count: -1, bytes: -freed)
            sample.totals?.count -= 1
            sample.totals?.bytes -= freed
        }
    }

    /// Writes what this transaction changed of each issue's kept payloads' count and bytes.
    func writeSampleCounts(_ db: SQLDatabase) throws {
        let changed = sample.issues.filter { $0.value.countChange != 0 || $0.value.bytesChange != 0 }
        let row = "SELECT CAST(? AS BIGINT) AS id, CAST(? AS BIGINT) AS n, CAST(? AS BIGINT) AS b"
        for slice in Array(changed).slices(of: 300) {
            var arguments = SQLArguments()
            for (id, issue) in slice { arguments += [id, issue.countChange, issue.bytesChange] }
            try db.execute(sql: """
                UPDATE issue SET kept_payloads = kept_payloads + v.n, kept_bytes = kept_bytes + v.b
                FROM (\(Array(repeating: row, count: slice.count).joined(separator: " UNION ALL "))) AS v WHERE issue.id = v.id
                """, arguments: arguments)
        }
        for (_, issue) in changed {
            issue.countChange = 0
            issue.bytesChange = 0
        }
    }
}
