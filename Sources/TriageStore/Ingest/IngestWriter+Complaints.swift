import TriageModel

/// Complaints, written once for both engines: the decisions here, the rows by the engine's
/// `WritePath`.
extension IngestWriter {
    /// Adds the complaints (a duplicate id is skipped), each counted for every known issue it cites
    /// (its words' keys and its event's issue, `citations`); `events` are the batch's. A citation
    /// of an event not stored yet (`awaitingPrefix`) counts for no issue until the event lands.
    func addComplaints(_ db: SQLDatabase, _ complaints: [Complaint], events: [ErrorEvent], counts: inout IngestCounts,
                       rollups: inout Rollups) throws {
        guard !complaints.isEmpty else { return }
        let path = db.writes
        let citations = try citations(db, complaints, events: events, rollups: rollups)
        let rowIDs = try path.insertComplaints(complaints, codes: citations.map(\.codes), db)
        var cited = Set<String>()
        for (rowID, citation) in zip(rowIDs, citations) where rowID != nil {
            cited.formUnion(citation.cites.lazy.filter { !$0.hasPrefix(IngestWriter.awaitingPrefix) })
        }
        let issueIDs = try knownIssueIDs(cited, db: db)
        var codes: [ComplaintCode] = []
        var linked: [Int64] = []
        for ((complaint, citation), rowID) in zip(zip(complaints, citations), rowIDs) {
            guard let rowID else {
                counts.complaintDuplicates += 1
                continue
            }
            counts.complaintsAdded += 1
            noteAwaiting(citation.cites)
            var isLinked = false
            for key in Set(citation.cites) {
                codes.append(ComplaintCode(key: key, complaintID: rowID, ts: complaint.timestamp.millis))
                if let issueID = issueIDs[key] {
                    rollups.addComplaint(at: complaint.timestamp, issueID: issueID)
                    isLinked = true
                }
            }
            if isLinked { linked.append(rowID) }
        }
        try path.insertComplaintCodes(codes, db)
        for slice in linked.slices(of: 500) {
            try db.execute(sql: "UPDATE complaint SET linked = 1 WHERE id IN (\(databaseQuestionMarks(count: slice.count)))",
                           arguments: SQLArguments(slice))
        }
    }

    /// The ids of the issues that have these keys: from this writer's cache, the rest in one query per 500.
    func knownIssueIDs(_ keys: Set<String>, db: SQLDatabase) throws -> [String: Int64] {
        var found: [String: Int64] = [:]
        var unknown: [String] = []
        for key in keys {
            if let cached = issues[key] { found[key] = cached.id } else { unknown.append(key) }
        }
        for slice in unknown.slices(of: 500) {
            for row in try SQLRow.fetchAll(db, sql: "SELECT key, id FROM issue WHERE key IN (\(databaseQuestionMarks(count: slice.count)))",
                                           arguments: SQLArguments(slice)) {
                found[try row.decode(0, as: String.self)] = try row.decode(1)
            }
        }
        return found
    }
}
