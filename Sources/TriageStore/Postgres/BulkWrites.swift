import TriageModel

/// PostgreSQL's write path, where each statement costs a network round trip: a batch's
/// events COPYed into a staging table and inserted with one `INSERT … SELECT … ON CONFLICT DO
/// NOTHING RETURNING`, which names the rows that were new (`IngestWriter.add` then counts each in
/// order, as the row-by-row path does); the complaints and their citations the same way; the
/// rollups flushed by `Rollups.flushSetBased`; a copy's rows by COPY; the events' month
/// partitions made as times need them.
struct BulkWrites: WritePath {
    let session: PGSession

    var writesBatchesAsOne: Bool { true }

    func eventRows(_ db: SQLDatabase) throws -> any EventRows { Events(session: session, db: db) }

    func insertComplaints(_ complaints: [Complaint], codes: [[String]], _ db: SQLDatabase) throws -> [Int64?] {
        try session.stage("complaint_stage", """
            (n BIGINT, complaint_id TEXT, ts BIGINT, channel TEXT, category TEXT, subject TEXT, text TEXT, user_id TEXT, codes TEXT)
            """)
        try session.connection.copyIn("COPY complaint_stage FROM STDIN") { writer in
            for (i, c) in complaints.enumerated() {
                try writer.row([String(i), c.complaintID, String(c.timestamp.millis), c.channel, c.category, c.subject, c.text,
                                c.userID, codes[i].joined(separator: " ")])
            }
        }
        var added: [String: Int64] = [:]
        for row in try SQLRow.fetchAll(db, sql: """
            INSERT INTO complaint (complaint_id, ts, channel, category, subject, text, user_id, codes)
            SELECT complaint_id, ts, channel, category, subject, text, user_id, codes FROM complaint_stage ORDER BY n
            ON CONFLICT DO NOTHING RETURNING complaint_id, id
            """) {
            added[try row.decode(0, as: String.self)] = try row.decode(1)
        }
        // The first of a complaint id in the list was inserted (ORDER BY n); a later one is a duplicate.
        return complaints.map { added.removeValue(forKey: $0.complaintID) }
    }

    func insertComplaintCodes(_ rows: [ComplaintCode], _ db: SQLDatabase) throws {
        guard !rows.isEmpty else { return }
        try session.connection.copyIn("COPY complaint_code (key, complaint_id, ts) FROM STDIN") { writer in
            for row in rows { try writer.row([row.key, String(row.complaintID), String(row.ts)]) }
        }
    }

    func flush(_ rollups: inout Rollups, _ db: SQLDatabase) throws { try rollups.flushSetBased(db, session: session) }

    func preparePartitions(times: [Int64], made: inout Set<Int64>, _ db: SQLDatabase) throws {
        for millis in times {
            let part = PGSchema.partition(holding: millis)
            guard made.insert(part.from).inserted else { continue }
            try session.run("""
                CREATE TABLE IF NOT EXISTS \(part.name) PARTITION OF event_row FOR VALUES FROM (\(part.from)) TO (\(part.to))
                """, [])
        }
    }

    func insertCopied(table: String, columns: [String], rows: [[SQLValue]], _ db: SQLDatabase) throws {
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try session.connection.copyIn("COPY \(table) (\(quoted)) FROM STDIN") { writer in
            for row in rows { try writer.row(row.map(\.postgresText)) }
        }
    }

    func finishCopy(_ db: SQLDatabase) throws {
        // Identity columns go on from the highest id copied.
        for table in PGSchema.identityTables {
            try session.run("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM \(table)", [])
        }
        try session.run("SELECT setval('event_id_seq', COALESCE(MAX(id), 0) + 1, false) FROM event_row", [])
    }

    /// A batch's events staged in memory in COPY's binary format, then sent in one COPY and
    /// inserted with one `INSERT … SELECT … ON CONFLICT DO NOTHING`, each row's id the batch's
    /// first id (taken from `event_id_seq` for the whole batch at once) plus its place in the
    /// batch, so that the ids the INSERT returns name the rows that were new by place: integers
    /// read in place, no row of texts and no key hashed per event.
    struct Events: EventRows {
        let session: PGSession
        let db: SQLDatabase
        var rows = PGBinaryRows(reserving: 1 << 20)

        init(session: PGSession, db: SQLDatabase) {
            self.session = session
            self.db = db
        }

        /// The staging table's columns: the place in the batch, then `eventInsertColumns`.
        static let stageColumns = """
            (n BIGINT, event_id TEXT, issue_id BIGINT, ts BIGINT, app_version TEXT, free_ram BIGINT, free_disk BIGINT,
             jailbroken BIGINT, user_id TEXT, session_id TEXT, \(TriageStore.termColumns.map { "\($0)_term BIGINT" }.joined(separator: ", ")))
            """

        mutating func add(_ raw: ErrorEvent, issueID: Int64, terms: ArraySlice<Int64?>) throws -> EventRowOutcome {
            // In `stageColumns`' order.
            rows.row(fields: 1 + TriageStore.eventInsertColumns.count)
            rows.integer(rows.count - 1)
            rows.text(raw.eventID)
            rows.integer(issueID)
            rows.integer(raw.timestamp.millis)
            rows.text(raw.appVersion)
            rows.integer(raw.freeRAM)
            rows.integer(raw.freeDisk)
            rows.integer(raw.jailbroken.map { $0 ? 1 : 0 })
            rows.text(raw.userID)
            rows.text(raw.sessionID)
            for id in terms { rows.integer(id) }
            return .staged
        }

        mutating func finish() throws -> [Int64?] {
            let count = rows.count
            guard count > 0 else { return [] }
            let columns = TriageStore.eventInsertColumns.joined(separator: ", ")
            try session.stage("event_stage", Events.stageColumns)
            try session.connection.copyIn("COPY event_stage FROM STDIN WITH (FORMAT binary)", binary: rows)
            // The batch's ids in one step: writers take turns (`takeWriterLock`), and every row of
            // `event_row` is written by one, so no other takes an id between the two calls.
            guard let last = try Int64.fetchOne(db, sql: "SELECT setval('event_id_seq', nextval('event_id_seq') + \(count - 1))") else {
                throw StoreError("event_id_seq gave no id")
            }
            let first = last - Int64(count) + 1
            var ids = [Int64?](repeating: nil, count: count)
            // In the batch's order: of two rows with one key, the first is stored, as row by row.
            try db.forEachIntegers(sql: """
                INSERT INTO event_row (id, \(columns)) SELECT n + \(first), \(columns) FROM event_stage ORDER BY n
                ON CONFLICT DO NOTHING RETURNING id
                """, columns: 1) { row in ids[Int(row[0] - first)] = row[0] }
            return ids
        }
    }
}
