import TriageModel

/// Complaints about one event (`Complaint.eventID`: a Sentry user report or feedback) are attached
/// to the issue of the stored event with that id: the complaint cites that issue's key, as if its
/// words did, so it shows in the issue's complaints, counts in its rollups and in the
/// by-complaints ranking, and follows the key when short names move.
///
/// The event is looked up when the complaint is written, in both ingest paths: events of a batch
/// are written before its complaints, so an envelope's event and its report in one batch (or one
/// request) attach at once, as does the usual order (the event first, the report later). Events
/// carry no index by id, so the look-up reads the events of every issue over the days around the
/// report (`lookBehind` before its time, `lookAhead` after, or the time of the batch's own event
/// with that id): an index range per issue.
///
/// A complaint whose event is not stored (yet) is kept unattached (it shows among the complaints
/// that cite no issue) and cites `event:ID` meanwhile; the writer keeps those ids in memory
/// (`awaitedEvents`), and an event that lands with one of them takes its complaints to its issue
/// then. A report whose event never comes stays unattached.
extension IngestWriter {
    /// How a complaint cites an event that is not stored yet: this prefix and the event id (never a short key).
    static let awaitingPrefix = "event:"
    /// How long before a report its event may have happened and still be found.
    static let lookBehind = 7 * Timestamp.millisPerDay
    /// How long after a report's time its event may be stamped (clocks disagree).
    static let lookAhead = Timestamp.millisPerDay

    /// What one complaint is written with: `codes` for the row (its own keys and its event's
    /// issue's), `cites` for its citations (those, or `event:ID` while the event is not stored).
    struct Citations {
        var codes: [String]
        var cites: [String]
    }

    /// The citations of each complaint of a batch, in order; `events` are the batch's own events.
    func citations(_ db: SQLDatabase, _ complaints: [Complaint], events: [ErrorEvent]) throws -> [Citations] {
        let wanted = Set(complaints.compactMap(\.eventID))
        var keys: [String: String] = [:]
        if !wanted.isEmpty {
            var anchors: [String: Int64] = [:]
            for complaint in complaints {
                if let id = complaint.eventID { anchors[id] = min(anchors[id] ?? .max, complaint.timestamp.millis) }
            }
            for event in events where wanted.contains(event.eventID) { anchors[event.eventID] = event.timestamp.millis }
            keys = try issueKeys(db, anchors: anchors)
        }
        return complaints.map { complaint in
            var result = Citations(codes: complaint.codes, cites: complaint.codes)
            guard let id = complaint.eventID else { return result }
            if let key = keys[id] {
                if !result.codes.contains(key) { result.codes.append(key) }
                result.cites = result.codes
            } else {
                result.cites.append(IngestWriter.awaitingPrefix + id)
            }
            return result
        }
    }

    /// The issue key of each stored event of `anchors` (event id → a time near the event), looked
    /// up over the days around each time, the times taken in groups a window apart.
    private func issueKeys(_ db: SQLDatabase, anchors: [String: Int64]) throws -> [String: String] {
        var found: [String: String] = [:]
        let ordered = anchors.sorted { $0.value < $1.value }
        var start = 0
        while start < ordered.count {
            var end = start + 1
            while end < ordered.count, end - start < 500, ordered[end].value - ordered[start].value <= IngestWriter.lookBehind { end += 1 }
            let group = ordered[start..<end]
            // Issue by issue, an index range of `event_by_issue_time` each (CROSS JOIN keeps that order on SQLite).
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT e.event_id, i.key FROM issue i CROSS JOIN event_row e
                WHERE e.issue_id = i.id AND e.ts BETWEEN ? AND ? AND e.event_id IN (\(databaseQuestionMarks(count: group.count)))
                ORDER BY e.id
                """, arguments: [group.first!.value - IngestWriter.lookBehind, group.last!.value + IngestWriter.lookAhead]
                                + SQLArguments(group.map(\.key))) {
                let id: String = try row.decode(0)
                if found[id] == nil { found[id] = (try row.decode(1)) }
            }
            start = end
        }
        return found
    }

    /// The ids of the events that stored complaints wait for, read afresh with the writer's cache.
    static func awaitedEvents(_ db: SQLDatabase) throws -> Set<String> {
        let prefix = awaitingPrefix
        let next = String(prefix.dropLast()) + String(UnicodeScalar(prefix.unicodeScalars.last!.value + 1)!)
        return Set(try String.fetchAll(db, sql: "SELECT DISTINCT key FROM complaint_code WHERE key >= ? AND key < ?",
                                       arguments: [prefix, next]).map { String($0.dropFirst(prefix.count)) })
    }

    /// A complaint was stored citing `cites`: remember the event it waits for, if any.
    func noteAwaiting(_ cites: [String]) {
        for cite in cites where cite.hasPrefix(IngestWriter.awaitingPrefix) {
            awaitedEvents.insert(String(cite.dropFirst(IngestWriter.awaitingPrefix.count)))
        }
    }

    /// An event some stored complaints waited for has landed in issue `key`: they now cite it.
    func attachAwaiting(eventID: String, key: String, issueID: Int64, db: SQLDatabase, rollups: inout Rollups) throws {
        let waiting = IngestWriter.awaitingPrefix + eventID
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT c.id, c.ts, c.codes FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id WHERE k.key = ?
            """, arguments: [waiting]) {
            let complaintID: Int64 = (try row.decode(0)), ts: Int64 = (try row.decode(1)), codes: String = try row.decode(2)
            let inserted = try SQLRow.fetchOne(db, sql: """
                INSERT INTO complaint_code (key, complaint_id, ts) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING complaint_id
                """, arguments: [key, complaintID, ts])
            guard inserted != nil else { continue }  // its words cited the key already
            rollups.addComplaint(at: Timestamp(millis: ts), issueID: issueID)
            let all = codes.split(separator: " ").map(String.init) + [key]
            try db.execute(sql: "UPDATE complaint SET linked = 1, codes = ? WHERE id = ?", arguments: [all.joined(separator: " "), complaintID])
        }
        try db.execute(sql: "DELETE FROM complaint_code WHERE key = ?", arguments: [waiting])
        awaitedEvents.remove(eventID)
    }
}
