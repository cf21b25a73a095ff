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
///
/// A complaint sent with a project's key (`Complaint.project`) attaches to an event of that
/// project only: another project's event with the same id is not its event, and while it waits
/// it cites `event:@PROJECT:ID` (project names hold no `@` or `:`), which only an event of that
/// project takes. The codes its words cite count for issues that have events of that project.
extension IngestWriter {
    /// How a complaint cites an event that is not stored yet: this prefix and the event id (never a
    /// short key), or for a project's complaint `@PROJECT:` and the id (`awaiting(_:project:)`).
    static let awaitingPrefix = "event:"

    /// What a complaint waiting for event `id` cites: the event of `project` only, where it has one.
    static func awaiting(_ id: String, project: String?) -> String {
        awaitingPrefix + awaitedName(id, project: project)
    }

    /// The name `awaitedEvents` keeps for a complaint waiting for event `id` of `project`.
    static func awaitedName(_ id: String, project: String?) -> String {
        project.map { "@\($0):\(id)" } ?? id
    }
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
    func citations(_ db: SQLDatabase, _ complaints: [Complaint], events: [ErrorEvent], rollups: Rollups) throws -> [Citations] {
        let wanted = Set(complaints.compactMap(\.eventID))
        var keys: [String: [StoredEvent]] = [:]
        if !wanted.isEmpty {
            var anchors: [String: Int64] = [:]
            for complaint in complaints {
                if let id = complaint.eventID { anchors[id] = min(anchors[id] ?? .max, complaint.timestamp.millis) }
            }
            for event in events where wanted.contains(event.eventID) { anchors[event.eventID] = event.timestamp.millis }
            keys = try issueKeys(db, anchors: anchors)
        }
        let projectIssues = try issuesOfProjects(db, complaints, rollups: rollups)
        return complaints.map { complaint in
            var codes = complaint.codes
            if let project = complaint.project {
                let own = projectIssues[project] ?? []
                codes = codes.filter(own.contains)
            }
            var result = Citations(codes: codes, cites: codes)
            guard let id = complaint.eventID else { return result }
            // A project's complaint takes that project's event; one sent without a key, any.
            if let key = keys[id]?.first(where: { complaint.project == nil || $0.project == complaint.project })?.key {
                if !result.codes.contains(key) { result.codes.append(key) }
                result.cites = result.codes
            } else {
                result.cites.append(IngestWriter.awaiting(id, project: complaint.project))
            }
            return result
        }
    }

    /// A stored event's issue key and project.
    struct StoredEvent {
        var key: String
        var project: String?
    }

    /// The keys, among those the project's complaints cite in their words, of issues with events
    /// of that project (by the project rollup, and this batch's `rollups`), by project.
    private func issuesOfProjects(_ db: SQLDatabase, _ complaints: [Complaint], rollups: Rollups) throws -> [String: Set<String>] {
        var cited: [String: Set<String>] = [:]
        for complaint in complaints where !complaint.codes.isEmpty {
            if let project = complaint.project { cited[project, default: []].formUnion(complaint.codes) }
        }
        guard !cited.isEmpty else { return [:] }
        let ids = try knownIssueIDs(cited.values.reduce(into: Set<String>()) { $0.formUnion($1) }, db: db)
        var found: [String: Set<String>] = [:]
        for (project, keys) in cited {
            var own = Set<Int64>()
            for key in rollups.dims.keys where key.dim == .project && key.value == project { own.insert(key.issue) }
            let wanted = keys.compactMap { ids[$0] }
            for slice in wanted.slices(of: 500) {
                own.formUnion(try Int64.fetchAll(db, sql: """
                    SELECT DISTINCT issue_id FROM issue_day_dim
                    WHERE dim = ? AND value = ? AND issue_id IN (\(databaseQuestionMarks(count: slice.count)))
                    """, arguments: [Dimension.project.rawValue, project] + SQLArguments(slice)))
            }
            found[project] = Set(keys.filter { ids[$0].map(own.contains) ?? false })
        }
        return found
    }

    /// The issue key and project of each stored event of `anchors` (event id → a time near the
    /// event), looked up over the days around each time, the times taken in groups a window apart.
    private func issueKeys(_ db: SQLDatabase, anchors: [String: Int64]) throws -> [String: [StoredEvent]] {
        var found: [String: [StoredEvent]] = [:]
        let ordered = anchors.sorted { $0.value < $1.value }
        var start = 0
        while start < ordered.count {
            var end = start + 1
            while end < ordered.count, end - start < 500, ordered[end].value - ordered[start].value <= IngestWriter.lookBehind { end += 1 }
            let group = ordered[start..<end]
            // Issue by issue, an index range of `event_by_issue_time` each (CROSS JOIN keeps that order on SQLite).
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT e.event_id, i.key, p.value FROM issue i CROSS JOIN event_row e LEFT JOIN term p ON p.id = e.project_term
                WHERE e.issue_id = i.id AND e.ts BETWEEN ? AND ? AND e.event_id IN (\(databaseQuestionMarks(count: group.count)))
                ORDER BY e.id
                """, arguments: [group.first!.value - IngestWriter.lookBehind, group.last!.value + IngestWriter.lookAhead]
                                + SQLArguments(group.map(\.key))) {
                let id: String = try row.decode(0)
                found[id, default: []].append(StoredEvent(key: try row.decode(1), project: try row.decode(2)))
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

    /// An event of `project` has landed in issue `key`: the complaints that waited for it (sent
    /// without a key, or with that project's) now cite it.
    func attachAwaiting(eventID: String, project: String?, key: String, issueID: Int64, db: SQLDatabase, rollups: inout Rollups) throws {
        for name in [IngestWriter.awaitedName(eventID, project: nil)] + (project.map { [IngestWriter.awaitedName(eventID, project: $0)] } ?? [])
            where awaitedEvents.contains(name) {
            try attach(waiting: IngestWriter.awaitingPrefix + name, key: key, issueID: issueID, db: db, rollups: &rollups)
            awaitedEvents.remove(name)
        }
    }

    private func attach(waiting: String, key: String, issueID: Int64, db: SQLDatabase, rollups: inout Rollups) throws {
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
    }
}
