import TriageModel

/// Ingest on PostgreSQL: the same decisions as the row-by-row path, with the rows sent in bulk.
///
/// A round trip per event (SQLite's path, where a statement costs microseconds) would cost a
/// network round trip per event here. So each batch goes as: every event's issue found (or
/// created) in memory; the events COPYed into a staging table and inserted with one
/// `INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING`, which names the rows that were new; then
/// each new event counted in order, as the row-by-row path counts it. The rollups are flushed the
/// same way (`Rollups.flushSetBased`).
extension IngestWriter {
    struct EventKey: Hashable { var issue: Int64; var ts: Int64; var eventID: String }

    func addSetBased(_ db: SQLDatabase, session: PGSession, _ batch: Batch, counts: inout IngestCounts, rollups: inout Rollups,
                     partitions: inout Set<Int64>) throws {
        try TriageStore.writeAdoption(db, batch.adoption, counts: &counts)
        try db.connection.preparePartitions(times: batch.events.map(\.timestamp.millis), made: &partitions)

        // Each event's issue, as the row-by-row path finds it; issues new to this batch are
        // remembered until their first event lands.
        var found: [(key: String, chain: ErrorChain, state: IssueState)] = []
        found.reserveCapacity(batch.events.count)
        var met: [String: IssueState] = [:]
        for (i, raw) in batch.events.enumerated() {
            found.append(try findIssue(raw, prepared: batch.keys[i], met: &met, db: db, counts: &counts, rollups: &rollups))
        }

        // The rows, their texts as ids, in one COPY and one INSERT; RETURNING names those that were
        // not there yet.
        let columns = TriageStore.eventInsertColumns
        let termIDs = try termIDs(batch, db: db)
        try session.stage("event_stage", """
            (n BIGINT, event_id TEXT, issue_id BIGINT, ts BIGINT, app_version TEXT, free_ram BIGINT, free_disk BIGINT,
             jailbroken BIGINT, user_id TEXT, session_id TEXT, \(TriageStore.termColumns.map { "\($0)_term BIGINT" }.joined(separator: ", ")))
            """)
        try session.connection.copyIn("COPY event_stage (n, \(columns.joined(separator: ", "))) FROM STDIN") { writer in
            for (i, raw) in batch.events.enumerated() {
                try writer.row([
                    String(i), raw.eventID, String(found[i].state.id), String(raw.timestamp.millis), raw.appVersion,
                    raw.freeRAM.map { String($0) }, raw.freeDisk.map { String($0) }, raw.jailbroken.map { $0 ? "1" : "0" },
                    raw.userID, raw.sessionID,
                ] + termIDs[event: i].map { $0.map { String($0) } })
            }
        }
        var inserted = Set<EventKey>()
        for row in try SQLRow.fetchAll(db, sql: """
            INSERT INTO event_row (\(columns.joined(separator: ", ")))
            SELECT \(columns.joined(separator: ", ")) FROM event_stage ORDER BY n
            ON CONFLICT DO NOTHING
            RETURNING issue_id, ts, event_id
            """) {
            inserted.insert(EventKey(issue: row[0], ts: row[1], eventID: row[2]))
        }

        // Each new event counted in order, as the row-by-row path counts it.
        for (i, raw) in batch.events.enumerated() {
            let (key, chain, state) = found[i]
            let issue = issues[key] ?? state
            guard inserted.remove(EventKey(issue: issue.id, ts: raw.timestamp.millis, eventID: raw.eventID)) != nil else {
                counts.duplicates += 1
                continue
            }
            try land(raw, in: issue, key: key, chain: chain, db: db, counts: &counts, rollups: &rollups)
        }
        try addComplaintsSetBased(db, session: session, batch.complaints, events: batch.events, counts: &counts, rollups: &rollups)
    }

    /// The complaints of a batch in one COPY and one INSERT (RETURNING the new ones), their codes
    /// in another, with the same counts and citations as the row-by-row `addComplaints`.
    func addComplaintsSetBased(_ db: SQLDatabase, session: PGSession, _ complaints: [Complaint], events: [ErrorEvent],
                               counts: inout IngestCounts, rollups: inout Rollups) throws {
        guard !complaints.isEmpty else { return }
        let citations = try citations(db, complaints, events: events)
        try session.stage("complaint_stage", """
            (n BIGINT, complaint_id TEXT, ts BIGINT, channel TEXT, category TEXT, subject TEXT, text TEXT, user_id TEXT, codes TEXT)
            """)
        try session.connection.copyIn("COPY complaint_stage FROM STDIN") { writer in
            for (i, c) in complaints.enumerated() {
                try writer.row([String(i), c.complaintID, String(c.timestamp.millis), c.channel, c.category, c.subject, c.text,
                                c.userID, citations[i].codes.joined(separator: " ")])
            }
        }
        var added: [String: Int64] = [:]
        for row in try SQLRow.fetchAll(db, sql: """
            INSERT INTO complaint (complaint_id, ts, channel, category, subject, text, user_id, codes)
            SELECT complaint_id, ts, channel, category, subject, text, user_id, codes FROM complaint_stage ORDER BY n
            ON CONFLICT DO NOTHING RETURNING complaint_id, id
            """) {
            added[row[0]] = row[1]
        }
        // The issues the new complaints cite, in one query for those not cached.
        let cited = Set(zip(complaints, citations).filter { added[$0.0.complaintID] != nil }.flatMap(\.1.codes))
        var issueIDs: [String: Int64] = [:]
        var unknown: [String] = []
        for key in cited {
            if let cached = issues[key] { issueIDs[key] = cached.id } else { unknown.append(key) }
        }
        for slice in unknown.slices(of: 500) {
            for row in try SQLRow.fetchAll(db, sql: "SELECT key, id FROM issue WHERE key IN (\(databaseQuestionMarks(count: slice.count)))",
                                        arguments: SQLArguments(slice)) {
                issueIDs[row[0]] = row[1]
            }
        }
        var codes: [[String?]] = []
        var linked: [Int64] = []
        for (complaint, cites) in zip(complaints, citations.map(\.cites)) {
            guard let rowID = added.removeValue(forKey: complaint.complaintID) else {
                counts.complaintDuplicates += 1
                continue
            }
            counts.complaintsAdded += 1
            noteAwaiting(cites)
            var isLinked = false
            for key in Set(cites) {
                codes.append([key, String(rowID), String(complaint.timestamp.millis)])
                if let issueID = issueIDs[key] {
                    rollups.addComplaint(at: complaint.timestamp, issueID: issueID)
                    isLinked = true
                }
            }
            if isLinked { linked.append(rowID) }
        }
        if !codes.isEmpty {
            try session.connection.copyIn("COPY complaint_code (key, complaint_id, ts) FROM STDIN") { writer in
                for row in codes { try writer.row(row) }
            }
        }
        for slice in linked.slices(of: 500) {
            try db.execute(sql: "UPDATE complaint SET linked = 1 WHERE id IN (\(databaseQuestionMarks(count: slice.count)))",
                           arguments: SQLArguments(slice))
        }
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements: IN lists kept short.
    func slices(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
