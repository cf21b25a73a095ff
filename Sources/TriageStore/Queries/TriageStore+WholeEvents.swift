import TriageModel

extension TriageStore {
    /// A kept event's columns (`kept`), over `keptFrom`: its payload row, its event and its issue.
    /// Its roles are its own (`sample`) and those that point at it.
    static let keptColumns = """
        e.event_id, i.key, p.ts, e.source, e.app_version, e.environment,
        p.sample + CAST((SELECT COALESCE(SUM(r.role), 0) FROM kept_role r WHERE r.payload_id = p.id) AS BIGINT), p.bytes
        """
    /// The payload row joined to its event through the event's own key (`event_by_issue_time` on both engines).
    static let keptFrom = """
        kept_payload p JOIN event e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.id = p.id JOIN issue i ON i.id = p.issue_id
        """
    /// The kept payloads of the issues `issues` names (SQL giving their ids), found through their
    /// events' own index (`event_by_issue_time`) newest first: `kept_payload` has no index by issue.
    static func keptOfIssues(_ issues: String) -> String {
        """
        event_row r JOIN kept_payload p ON p.id = r.id
        JOIN event e ON e.issue_id = r.issue_id AND e.ts = r.ts AND e.id = r.id JOIN issue i ON i.id = r.issue_id
        WHERE r.issue_id IN (\(issues))
        """
    }

    /// The ids of the issue keyed by the first argument and of the issues merged into it (keyed by the second: the same key).
    static let issueAndMembers = "SELECT id FROM issue WHERE key = ? UNION SELECT m.id FROM issue m JOIN issue h ON h.id = m.group_id WHERE h.key = ?"

    static func kept(_ row: SQLRow) throws(StoreError) -> KeptEvent {
        KeptEvent(eventID: try row.decode(0), issueKey: try row.decode(1), timestamp: Timestamp(millis: try row.decode(2)),
                  source: try row.decode(3), release: try row.decode(4), environment: try row.decode(5),
                  roles: KeptRoles(rawValue: try row.decode(6)), bytes: try row.decode(7))
    }

    /// A row of `keptColumns` and the payload's `dict` and compressed bytes after them, decompressed.
    func keptWithPayload(_ row: SQLRow, db: SQLDatabase) throws -> KeptEvent {
        var event = try TriageStore.kept(row)
        let dict: Int64 = try row.decode(8), stored: [UInt8] = try row.decode(9)
        let payload: [UInt8]? = switch dict {
        case 0: PayloadCodec.decompress(stored, size: event.bytes)
        case -1: PayloadZstd.decompress(stored, size: event.bytes, dictionary: nil)
        default: PayloadZstd.decompress(stored, size: event.bytes, dictionary: try dictionaries.dictionary(id: dict, db: db))
        }
        guard let payload else {
            throw StoreError("the kept payload of event \(event.eventID) does not decompress: the store is damaged (errtriage check)")
        }
        event.payload = payload
        return event
    }

    /// The kept event with this id (the latest, should two issues hold one id), with its payload;
    /// nil when the store keeps no event of that id whole.
    public func keptEvent(id: String) throws(StoreError) -> KeptEvent? {
        try read { db in
            // The key is read from `kept_payload_by_time` alone, the whole of it (the time bound
            // is there to let the index be read as a range on both engines).
            guard let row = try SQLRow.fetchOne(db, sql: """
                SELECT \(TriageStore.keptColumns), p.dict, p.payload FROM \(TriageStore.keptFrom)
                WHERE p.id IN (SELECT id FROM kept_payload WHERE ts >= ? AND event_key = ?) AND e.event_id = ?
                ORDER BY p.ts DESC LIMIT 1
                """, arguments: [Int64.min, KeptEventKey.hash(id), id]) else { return nil }
            return try keptWithPayload(row, db: db)
        }
    }

    /// The newest event of an issue (and of the issues merged into it) kept whole, with its payload,
    /// in one read; nil when none is kept.
    public func latestKeptEvent(issueKey: String) throws(StoreError) -> KeptEvent? {
        try read { db in
            guard let row = try SQLRow.fetchOne(db, sql: """
                SELECT \(TriageStore.keptColumns), p.dict, p.payload FROM \(TriageStore.keptOfIssues(TriageStore.issueAndMembers))
                ORDER BY r.ts DESC, r.id DESC LIMIT 1
                """, arguments: [issueKey, issueKey]) else { return nil }
            return try keptWithPayload(row, db: db)
        }
    }

    /// The events of an issue (and of the issues merged into it) kept whole, newest first, without payloads.
    public func keptEvents(issueKey: String, limit: Int = 200) throws(StoreError) -> [KeptEvent] {
        try read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT \(TriageStore.keptColumns) FROM \(TriageStore.keptOfIssues(TriageStore.issueAndMembers))
                ORDER BY r.ts DESC, r.id DESC LIMIT ?
                """, arguments: [issueKey, issueKey, limit]).map(TriageStore.kept)
        }
    }

    /// How many events the store keeps whole, and their payloads' bytes before and after compression.
    public func keptTotals() throws(StoreError) -> (events: Int, bytes: Int64, stored: Int64) {
        try read { db in
            let row = try SQLRow.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(bytes), 0), COALESCE(SUM(LENGTH(payload)), 0) FROM kept_payload
                """)!
            return ((try row.decode(0)), (try row.decode(1)), (try row.decode(2)))
        }
    }
}

extension TriageStore {
    /// Every kept event of a window (of one issue, and the issues merged into it, when `key` is
    /// given), oldest first, each with its payload: `export --whole`.
    public func exportKeptEvents(window: TimeWindow, now: Timestamp, key: String?, _ each: (KeptEvent) throws -> Void) throws(StoreError) {
        try read { db in
            let buckets = try Buckets(db, window: window, now: now)
            var sql = """
                SELECT \(TriageStore.keptColumns), p.dict, p.payload FROM \(TriageStore.keptFrom)
                WHERE p.ts BETWEEN ? AND ?
                """
            var arguments: SQLArguments = [buckets.millis.lowerBound, buckets.millis.upperBound]
            if let key {
                guard try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) != nil else {
                    throw StoreError.unknownKey(key)
                }
                sql += " AND (i.key = ? OR i.group_id = (SELECT id FROM issue WHERE key = ?))"
                arguments += [key, key]
            }
            let cursor = try SQLRow.fetchCursor(db, sql: sql + " ORDER BY p.ts, e.event_id", arguments: arguments)
            while let row = try cursor.next() {
                try each(try keptWithPayload(row, db: db))
            }
        }
    }
}
