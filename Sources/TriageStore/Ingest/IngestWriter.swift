import TriageModel

/// Writes batches of events and complaints, each batch in one transaction, keeping the rollups,
/// the code dictionary and the issues' first/last seen in step. Re-writing an event changes nothing.
public final class IngestWriter {
    let store: TriageStore
    var dictionary: [ShortKey.Code: FullForm.Name] = [:]
    var owners = ShortNameOwners()
    /// Complaints that re-keying an issue linked to it, for the rollups of the transaction.
    var pendingComplaints: [(Timestamp, Int64)] = []
    var issues: [String: IssueState] = [:]
    var versions = VersionOrder.Cache()
    /// The ids of texts in `term` this writer has met, at most `termCacheLimit` of them. Terms are never removed, so an id stays good
    /// after other writers' commits; a rolled-back transaction forgets them all.
    var terms: [String: Int64] = [:]
    static let termCacheLimit = 100_000
    /// The UTF-8 bytes of the texts in `terms`, at most `termCacheBytesLimit`: texts are as long as
    /// a client makes them (an event's custom keys), so the cache is bounded by size as well as count.
    var termBytes = 0
    static let termCacheBytesLimit = 32 << 20
    /// The store's revision after this writer's last commit: another writer's commit since (a
    /// mark, a merge, another ingest) makes the cached issues stale.
    var knownRevision: Int64?
    /// The events stored complaints wait for (`IngestWriter+EventComplaints.swift`); usually none.
    var awaitedEvents = Set<String>()
    /// Each alias's issue key (`issue_alias`; `IngestWriter+Aliases.swift`).
    var aliases: [String: String] = [:]
    /// The last issue the grouping before schema 14 made: those up to it may take an alias (0: none).
    var formerLastIssue: Int64 = 0
    /// The last issue the grouping from schema 14 to 20 made: those up to it may take aliases (0: none).
    var priorLastIssue: Int64 = 0
    /// The templates learned at each place (`TemplateLearner`).
    var learner = TemplateLearner()
    /// The tag keys each issue's facet rollup counts, as far as this writer has read or added them (`IngestWriter+TagKeys`).
    var tagKeys = TagKeys()
    /// Free space the disk must keep: each transaction is refused before it starts when the disk
    /// holds less (`StoreError.belowFloor`); nil or 0 writes until the disk is full.
    public var minFreeBytes: Int64?
    /// The events of the batch being written that came with their payload (`IngestWriter+WholeEvents`).
    var landed: [Landed] = []
    /// The whole-event sample between batches (`IngestWriter+WholeEvents`).
    var sample = SampleState()
    /// Scrubs and compresses the kept payloads beside the writer.
    let press = PayloadPress()
    /// How often the roles' candidates (an issue's latest event, …) are written, in nanoseconds;
    /// nil: at every transaction. A pipeline or a server writes them once an interval and when it
    /// ends (`flushSample`), so that a busy issue's latest payload is written once, not per batch.
    public var roleFlushNanoseconds: UInt64?
    /// Dictionaries trained in the transaction under way, forgotten if it rolls back.
    var trainedInTransaction: [Int64] = []
    /// The next transaction writes the roles' candidates (`flushSample`).
    var flushRequested = false

    struct IssueState {
        var id: Int64
        var chain: ErrorChain
        var firstSeen: Timestamp
        var lastSeen: Timestamp
        var firstVersion: String?
        var lastVersion: String?
        var events: Int
        var status: IssueStatus
        var resolvedVersion: String?
        var resolvedAt: Timestamp?
        var kind: EventKind?
        /// The head of the merge group this issue is a member of.
        var groupID: Int64? = nil
        var dirty = false
        var chainDirty = false
    }

    public init(store: TriageStore) throws(StoreError) {
        self.store = store
        try store.read(load)
    }

    deinit { press.stop() }

    /// Reads what the writer caches from the store afresh: the code dictionary and the short
    /// names' owners (issues are read as events name them). Good until someone else writes.
    private func load(_ db: SQLDatabase) throws {
        issues = [:]
        dictionary = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT short, code, domain, name FROM code_dictionary") {
            let code = ShortKey.Code(short: try row.decode(0), code: try row.decode(1))
            dictionary[code] = FullForm.Name(domain: try row.decode(2), name: try row.decode(3))
        }
        owners = try ShortNameOwners(db)
        learner.forget()
        tagKeys.markStale()
        awaitedEvents = try IngestWriter.awaitedEvents(db)
        try loadAliases(db)
        knownRevision = try TriageStore.storedRevision(db)
    }

    /// Events and complaints decoded together.
    public struct Batch: Sendable {
        public var events: [ErrorEvent]
        public var complaints: [Complaint]
        /// Adoption rows (active users per version and day, or sessions).
        public var adoption: [AdoptionRecord] = []
        /// Per event, filled by `prepare()`: its issue key when the chain names every short name
        /// (else nil, and the writer resolves it), and its custom keys as stored.
        var keys: [String?] = []
        var customKeys: [String?] = []
        /// Per event, filled by `prepare()`: its context facets as stored.
        var facets: [String?] = []

        public init(events: [ErrorEvent], complaints: [Complaint]) {
            self.events = events
            self.complaints = complaints
        }

        /// Leaves out the events and complaints before `cut` (the store's raw horizon); returns how many.
        mutating func dropRecords(before cut: Int64) -> Int {
            let before = events.count + complaints.count
            let keep = events.indices.filter { events[$0].timestamp.millis >= cut }
            if keep.count != events.count {
                events = keep.map { events[$0] }
                keys = keep.map { keys[$0] }
                customKeys = keep.map { customKeys[$0] }
                facets = keep.map { facets[$0] }
            }
            complaints.removeAll { $0.timestamp.millis < cut }
            return before - events.count - complaints.count
        }

        /// Adds a prepared batch's records after this prepared batch's.
        mutating func append(_ other: Batch) {
            events += other.events
            complaints += other.complaints
            adoption += other.adoption
            keys += other.keys
            customKeys += other.customKeys
            facets += other.facets
        }

        /// Does on the calling thread the per-event work that needs no store, so that a reading
        /// thread takes it off the writer's.
        public mutating func prepare() {
            // Within what one event may bring (`EventBounds`); U+0000 cannot be stored and read back
            // (`StorableText`): no record may carry it to the store.
            for i in events.indices {
                events[i].bound()
                events[i].makeStorable()
            }
            for i in complaints.indices { complaints[i].makeStorable() }
            adoption = adoption.map { $0.storable() }
            keys = events.map { e in e.chain.links.allSatisfy { !$0.short.isEmpty } ? e.chain.shortKey : nil }
            customKeys = events.map { e in e.customKeys.isEmpty ? nil : CustomKeys.encode(e.customKeys) }
            facets = events.map { e in e.facets.isEmpty ? nil : CustomKeys.encode(e.facets) }
        }
    }

    /// Writes one batch in one transaction.
    public func write(events: [ErrorEvent], complaints: [Complaint]) throws(StoreError) -> IngestCounts {
        var pending: Batch? = Batch(events: events, complaints: complaints)
        return try write(batches: { defer { pending = nil }; return pending })
    }

    /// Writes the batches `next` gives, until it gives nil, in one transaction: the rollups of
    /// all of them are summed in memory and written once, so a transaction of many batches
    /// writes each rollup row once instead of once per batch.
    public func write(batches next: () -> Batch?) throws(StoreError) -> IngestCounts {
        let snapshot = (issues, dictionary, owners, aliases)
        trainedInTransaction = []
        if let minFreeBytes { try store.checkFreeSpace(floor: minFreeBytes) }
        do {
            return try store.write { db in
                var counts = IngestCounts()
                var rollups = Rollups()
                var partitions = Set<Int64>()
                try revalidate(db)
                let closed = try TriageStore.meta(db, TriageStore.RetentionKey.closedBefore)
                let asOne = db.writes.writesBatchesAsOne
                var gathered: Batch?
                while var batch = next() {
                    if batch.keys.count != batch.events.count { batch.prepare() }
                    if let closed { counts.beforeRetention += batch.dropRecords(before: closed) }
                    if asOne {
                        if gathered == nil { gathered = batch } else { gathered!.append(batch) }
                    } else {
                        try add(db, batch, counts: &counts, rollups: &rollups, partitions: &partitions)
                        try keepWhole(db)
                    }
                }
                if let gathered {
                    try add(db, gathered, counts: &counts, rollups: &rollups, partitions: &partitions)
                    try keepWhole(db)
                }
                if flushRequested { try flushRoles(db) }
                try insertPressed(db)
                try writeSampleCounts(db)
                try finish(db, rollups: &rollups)
                return counts
            }
        } catch {
            (issues, dictionary, owners, aliases) = snapshot
            press.discard()
            sample.forgetStoreReads()
            sample.dictionaries = sample.dictionaries.filter { !trainedInTransaction.contains($0.value.id) }
            store.dictionaries.forget(trainedInTransaction)
            terms = [:]
            termBytes = 0
            learner.forget()
            tagKeys = TagKeys()
            landed = []
            pendingComplaints = []  // the transaction rolled back: forget what it cached
            knownRevision = nil
            throw error
        }
    }

    /// The ids in `term` of a batch's texts, per event in `TriageStore.termColumns`' order (nil
    /// where the event has none).
    struct TermIDs {
        var ids: [Int64?] = []
        subscript(event i: Int) -> ArraySlice<Int64?> {
            let n = TriageStore.termColumns.count
            return ids[(i * n)..<((i + 1) * n)]
        }
    }

    /// The ids of every text of a batch's events: from this writer's cache (`terms`), the rest
    /// found in `term` or added there, 500 at a time. Writers take turns, so none adds the same
    /// text between the look-up and the insert. Both engines' ingest bind or COPY these.
    func termIDs(_ batch: Batch, db: SQLDatabase) throws -> TermIDs {
        var result = TermIDs()
        result.ids.reserveCapacity(batch.events.count * TriageStore.termColumns.count)
        var missing: [String: [Int]] = [:]  // a text not cached, and where it goes
        for (i, e) in batch.events.enumerated() {
            // In `termColumns`' order.
            for text in [e.appBuild, e.platform, e.osName, e.osVersion, e.deviceModel, e.network, e.orientation, e.appState,
                         e.environment, e.message, batch.customKeys[i], e.source, e.kind?.rawValue, e.project, e.level,
                         batch.facets[i]] {
                if let text, let id = terms[text] {
                    result.ids.append(id)
                } else {
                    if let text { missing[text, default: []].append(result.ids.count) }
                    result.ids.append(nil)
                }
            }
        }
        guard !missing.isEmpty else { return result }
        var found: [String: Int64] = [:]
        var toAdd: [String] = []
        for slice in Array(missing.keys).slices(of: 500) {
            for row in try SQLRow.fetchAll(db, sql: "SELECT value, id FROM term WHERE value IN (\(databaseQuestionMarks(count: slice.count)))",
                                        arguments: SQLArguments(slice)) {
                found[try row.decode(0, as: String.self)] = try row.decode(1)
            }
            toAdd += slice.filter { found[$0] == nil }
        }
        for slice in toAdd.slices(of: 500) {
            for row in try SQLRow.fetchAll(db, sql: """
                INSERT INTO term (value) VALUES \(Array(repeating: "(?)", count: slice.count).joined(separator: ", ")) RETURNING value, id
                """, arguments: SQLArguments(slice)) {
                found[try row.decode(0, as: String.self)] = try row.decode(1)
            }
        }
        let adding = missing.keys.reduce(0) { $0 + $1.utf8.count }
        if terms.count + missing.count > IngestWriter.termCacheLimit || termBytes + adding > IngestWriter.termCacheBytesLimit {
            terms.removeAll(keepingCapacity: true)
            termBytes = 0
        }
        termBytes += adding
        for (text, places) in missing {
            let id = found[text]
            terms[text] = id
            for place in places { result.ids[place] = id }
        }
        return result
    }

    /// Drops what this writer cached when someone else wrote since its last transaction, so that
    /// two ingests (or an ingest and a mark) never write back each other's stale counts or status.
    /// Runs inside the transaction, after its lock is taken.
    private func revalidate(_ db: SQLDatabase) throws {
        let current = try TriageStore.storedRevision(db)
        if knownRevision != current {
            try load(db)
            sample.forgetStoreReads()
        }
        // The store's write raises the revision once as this transaction commits.
        knownRevision = current + 1
    }

    /// Writes one batch: each event's issue found (or made) and the event counted where it was new
    /// to the store, then the complaints. The decisions are made here for both engines; the rows
    /// go by the engine's `WritePath`, at once (SQLite) or staged and sent in bulk
    /// (PostgreSQL), in which case the events are counted in order once their rows are written.
    func add(_ db: SQLDatabase, _ batch: Batch, counts: inout IngestCounts, rollups: inout Rollups,
             partitions: inout Set<Int64>) throws {
        try TriageStore.writeAdoption(db, batch.adoption, counts: &counts)
        // Each event's issue first, so that its tags are folded past the issue's tag keys
        // (`foldTags`) before its texts reach `term`. Issues new to this batch are remembered
        // (`met`) until their first event lands.
        var batch = batch
        var met: [String: IssueState] = [:]
        var found: [(key: String, chain: ErrorChain, state: IssueState)] = []
        found.reserveCapacity(batch.events.count)
        for (i, raw) in batch.events.enumerated() {
            found.append(try findIssue(raw, prepared: batch.keys[i], met: &met, db: db, counts: &counts, rollups: &rollups))
        }
        try foldTags(&batch, issueIDs: found.map(\.state.id), db: db)
        let termIDs = try termIDs(batch, db: db)
        try db.writes.preparePartitions(times: batch.events.map(\.timestamp.millis), made: &partitions, db)
        var rows = try db.writes.eventRows(db)
        var staged: [(index: Int, key: String, chain: ErrorChain, state: IssueState)] = []
        for (i, raw) in batch.events.enumerated() {
            let (key, chain, state) = found[i]
            // An event landed earlier in the batch may have changed its issue since it was found.
            let issue = issues[key] ?? state
            switch try rows.add(raw, issueID: issue.id, terms: termIDs[event: i]) {
            case .new(let rowID): try land(raw, in: issue, key: key, chain: chain, rowID: rowID, db: db, counts: &counts, rollups: &rollups)
            case .duplicate: counts.duplicates += 1
            case .staged: staged.append((i, key, chain, issue))
            }
        }
        let inserted = try rows.finish()
        for ((i, key, chain, state), id) in zip(staged, inserted) {
            let raw = batch.events[i]
            // An event landed earlier in the batch may have changed its issue since it was found.
            let issue = issues[key] ?? state
            guard let rowID = id else {
                counts.duplicates += 1
                continue
            }
            try land(raw, in: issue, key: key, chain: chain, rowID: rowID, db: db, counts: &counts, rollups: &rollups)
        }
        try addComplaints(db, batch.complaints, events: batch.events, counts: &counts, rollups: &rollups)
    }

    /// Counts an event that was new to the store: its issue's figures, rollups, chain names, and
    /// the regression it may bring to the issue or its group. Both ingest paths land events here.
    func land(_ raw: ErrorEvent, in stored: IssueState, key: String, chain: ErrorChain, rowID: Int64, db: SQLDatabase,
              counts: inout IngestCounts, rollups: inout Rollups) throws {
        var issue = stored
        counts.eventsAdded += 1
        if !awaitedEvents.isEmpty {
            try attachAwaiting(eventID: raw.eventID, project: raw.project, key: key, issueID: issue.id, db: db, rollups: &rollups)
        }
        rollups.add(raw, issueID: issue.id)
        issue.absorb(raw, versions: &versions)
        if !issue.chain.isNamed && chain.isNamed {
            issue.chain = chain
            issue.chainDirty = true
        }
        if issue.status == .resolved, let resolvedAt = issue.resolvedAt,
           RegressionRule.regresses(eventTime: raw.timestamp, eventVersion: raw.appVersion, eventBuild: raw.appBuild,
                            resolvedAt: resolvedAt, resolvedVersion: issue.resolvedVersion,
                            versionSeenBefore: { self.versionSeen(raw.appVersion, issueID: issue.id, before: resolvedAt, db: db) }) {
            try TriageStore.recordRegression(db, issueID: issue.id, event: raw)
            issue.status = .regressed
            counts.regressions += 1
        }
        issues[key] = issue
        if let payload = raw.payload {
            landed.append(Landed(issueID: issue.id, rowID: rowID, ts: raw.timestamp.millis, eventID: raw.eventID, source: raw.source,
                                 release: raw.appVersion, environment: raw.environment, payload: payload,
                                 isEarliest: raw.timestamp.millis <= issue.firstSeen.millis))
        }
        if let head = issue.groupID {
            try regressGroup(head, member: issue, event: raw, db: db, counts: &counts, rollups: &rollups)
        }
    }

    /// Writes the summed rollups and the issues the transaction changed.
    private func finish(_ db: SQLDatabase, rollups: inout Rollups) throws {
        try rollups.flush(db)
        // The changed issues in one statement per 500: on PostgreSQL each statement is a round
        // trip, and a server's group commit changes a few dozen issues.
        let changed = issues.filter { $0.value.dirty || $0.value.chainDirty }
        let row = "SELECT CAST(? AS BIGINT) AS id, CAST(? AS BIGINT) AS first_seen, CAST(? AS BIGINT) AS last_seen, "
            + "CAST(? AS TEXT) AS first_version, CAST(? AS TEXT) AS last_version, CAST(? AS BIGINT) AS events, "
            + "CAST(? AS TEXT) AS status, CAST(? AS TEXT) AS kind"
        for slice in Array(changed.values).slices(of: 500) {
            var arguments = SQLArguments()
            for issue in slice {
                arguments += [issue.id, issue.firstSeen.millis, issue.lastSeen.millis, issue.firstVersion, issue.lastVersion,
                              issue.events, issue.status.rawValue, issue.kind?.rawValue]
            }
            try db.execute(sql: """
                UPDATE issue SET first_seen = v.first_seen, last_seen = v.last_seen, first_version = v.first_version,
                    last_version = v.last_version, events = v.events, status = v.status, kind = v.kind
                FROM (\(Array(repeating: row, count: slice.count).joined(separator: " UNION ALL "))) AS v
                WHERE issue.id = v.id
                """, arguments: arguments)
        }
        for (key, issue) in changed {
            if issue.chainDirty { try TriageStore.writeChain(db, issueID: issue.id, chain: issue.chain) }
            issues[key]?.dirty = false
            issues[key]?.chainDirty = false
        }
    }

    /// Remembers short+code → domain.name from a chain that carries both.
    func learn(_ chain: ErrorChain, db: SQLDatabase) throws {
        for link in chain.links {
            guard let domain = link.domain, let name = link.name else { continue }
            let code = ShortKey.Code(short: link.short, code: link.code)
            guard dictionary[code] == nil else { continue }
            // A failed write (a full disk) must fail the batch, whose rollback the cache follows.
            try db.execute(sql: "INSERT INTO code_dictionary (short, code, domain, name) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           arguments: [link.short, link.code, domain, name])
            dictionary[code] = FullForm.Name(domain: domain, name: name)
        }
    }

    func existingIssueID(_ key: String, db: SQLDatabase) throws -> Int64? {
        if let cached = issues[key] { return cached.id }
        return try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key])
    }

    func issueState(for key: String, chain: ErrorChain, firstSeen: Timestamp, db: SQLDatabase,
                            counts: inout IngestCounts, rollups: inout Rollups) throws -> IssueState {
        if let cached = issues[key] { return cached }
        if let row = try SQLRow.fetchOne(db, sql: """
            SELECT id, first_seen, last_seen, first_version, last_version, events, status, resolved_version, resolved_at, kind,
                   group_id
            FROM issue WHERE key = ?
            """, arguments: [key]) {
            let id: Int64 = try row.decode(0)
            let stored = try TriageStore.chain(db, issueID: id)
            return IssueState(id: id, chain: stored, firstSeen: Timestamp(millis: try row.decode(1)),
                              lastSeen: Timestamp(millis: try row.decode(2)), firstVersion: try row.decode(3),
                              lastVersion: try row.decode(4), events: try row.decode(5),
                              status: IssueStatus(rawValue: try row.decode(6)) ?? .open, resolvedVersion: try row.decode(7),
                              resolvedAt: try row.decode(8, as: Int64?.self).map { Timestamp(millis: $0) },
                              kind: try row.decode(9, as: String?.self).flatMap(EventKind.init(rawValue:)), groupID: try row.decode(10))
        }
        let id = try db.insertID(sql: "INSERT INTO issue (key, chain, first_seen, last_seen) VALUES (?, ?, ?, ?)",
                                 arguments: [key, chain.fullForm, firstSeen.millis, firstSeen.millis])
        try TriageStore.writeChain(db, issueID: id, chain: chain)
        try TriageStore.routeNewIssue(db, issueID: id, key: key, chain: chain)
        // A grouping rule that matches takes the new issue under its issue (`TriageStore+Rules`).
        let ruleHead = try TriageStore.groupNewIssue(db, issueID: id, key: key, chain: chain, at: firstSeen)
        counts.issuesCreated += 1
        // Complaints that cited this key before any event carried it now count for it.
        for t in try Int64.fetchAll(db, sql: """
            SELECT c.ts FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id WHERE k.key = ?
            """, arguments: [key]) {
            rollups.addComplaint(at: Timestamp(millis: t), issueID: id)
        }
        try db.execute(sql: "UPDATE complaint SET linked = 1 WHERE linked = 0 AND id IN (SELECT complaint_id FROM complaint_code WHERE key = ?)",
                       arguments: [key])
        return IssueState(id: id, chain: chain, firstSeen: firstSeen, lastSeen: firstSeen, firstVersion: nil,
                          lastVersion: nil, events: 0, status: .open, resolvedVersion: nil, resolvedAt: nil, kind: nil,
                          groupID: ruleHead, dirty: true)
    }

    /// A member's new event regresses its resolved group by the head's resolve, as the head's own event would.
    func regressGroup(_ headID: Int64, member: IssueState, event raw: ErrorEvent, db: SQLDatabase,
                              counts: inout IngestCounts, rollups: inout Rollups) throws {
        guard let headKey = try String.fetchOne(db, sql: "SELECT key FROM issue WHERE id = ?", arguments: [headID]) else { return }
        var head = try issueState(for: headKey, chain: member.chain, firstSeen: raw.timestamp, db: db, counts: &counts, rollups: &rollups)
        guard head.status == .resolved, let resolvedAt = head.resolvedAt,
              RegressionRule.regresses(eventTime: raw.timestamp, eventVersion: raw.appVersion, eventBuild: raw.appBuild,
                                       resolvedAt: resolvedAt, resolvedVersion: head.resolvedVersion,
                                       versionSeenBefore: {
                                           self.versionSeen(raw.appVersion, issueID: headID, before: resolvedAt, db: db)
                                               || self.versionSeen(raw.appVersion, issueID: member.id, before: resolvedAt, db: db)
                                       }) else { return }
        try TriageStore.recordRegression(db, issueID: headID, event: raw)
        head.status = .regressed
        counts.regressions += 1
        issues[headKey] = head
    }

    func versionSeen(_ version: String?, issueID: Int64, before: Timestamp, db: SQLDatabase) -> Bool {
        guard let version else { return true }
        let found = try? Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM event WHERE issue_id = ? AND app_version = ? AND ts <= ?)
            """, arguments: [issueID, version, before.millis])
        return found ?? false
    }
}

extension IngestWriter.IssueState {
    /// Whether an event's chain can be taken as this known issue's without resolving it: the
    /// issue's chain has every name, and the event's names no other domain, so the dictionary
    /// already holds every code of it (the usual case).
    func needsNoResolving(_ chain: ErrorChain) -> Bool {
        self.chain.isNamed && chain.links.elementsEqual(self.chain.links, by: { $0.domain == nil || $0.domain == $1.domain })
    }

    /// Widens first/last seen, the version range and the count by one new event.
    mutating func absorb(_ event: ErrorEvent, versions: inout VersionOrder.Cache) {
        if event.timestamp < firstSeen { firstSeen = event.timestamp }
        if event.timestamp > lastSeen { lastSeen = event.timestamp }
        // A version equal to either end changes neither (most events): no parse, no comparison.
        if let v = event.appVersion, v != firstVersion, v != lastVersion {
            if firstVersion.map({ versions.less(v, $0) }) ?? true { firstVersion = v }
            if lastVersion.map({ versions.less($0, v) }) ?? true { lastVersion = v }
        }
        events += 1
        kind = EventKind.worst(kind, event.kind)
        dirty = true
    }
}

/// Orders version strings as releases ship, falling back to text order for unreadable ones.
enum VersionOrder {
    private static func order(_ a: String, _ x: AppVersion?, _ b: String, _ y: AppVersion?) -> Bool {
        switch (x, y) {
        case let (x?, y?): x < y
        case (nil, _?): true
        case (_?, nil): false
        default: a < b
        }
    }

    /// Orders with each version string parsed once (an app ships few versions; ingest compares
    /// them for every event).
    struct Cache {
        private var parsed: [String: AppVersion?] = [:]

        mutating func less(_ a: String, _ b: String) -> Bool {
            VersionOrder.order(a, version(a), b, version(b))
        }

        private mutating func version(_ text: String) -> AppVersion? {
            if let known = parsed[text] { return known }
            if parsed.count >= 4_096 { parsed.removeAll(keepingCapacity: true) }
            let version = AppVersion(text)
            parsed[text] = version
            return version
        }
    }
}

extension ErrorChain {
    /// Every link has its domain and name.
    var isNamed: Bool { links.allSatisfy(\.isNamed) }
}
