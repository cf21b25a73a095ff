import TriageModel

/// SQLite's write path, where a statement costs microseconds: each event inserted as it is met,
/// with one statement prepared once and values bound one by one; each complaint and citation by
/// its own statement; a copy's rows by multi-row INSERTs.
struct RowByRowWrites: WritePath {
    var writesBatchesAsOne: Bool { false }

    func eventRows(_ db: SQLDatabase) throws -> any EventRows { try Events(db) }

    func insertComplaints(_ complaints: [Complaint], codes: [[String]], _ db: SQLDatabase) throws -> [Int64?] {
        try zip(complaints, codes).map { complaint, codes in
            try Int64.fetchOne(db, sql: """
                INSERT INTO complaint (complaint_id, ts, channel, category, subject, text, user_id, codes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id
                """, arguments: [complaint.complaintID, complaint.timestamp.millis, complaint.channel, complaint.category,
                                 complaint.subject, complaint.text, complaint.userID, codes.joined(separator: " ")])
        }
    }

    func insertComplaintCodes(_ rows: [ComplaintCode], _ db: SQLDatabase) throws {
        for row in rows {
            try db.execute(sql: "INSERT INTO complaint_code (key, complaint_id, ts) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                           arguments: [row.key, row.complaintID, row.ts])
        }
    }

    func flush(_ rollups: inout Rollups, _ db: SQLDatabase) throws { try rollups.flushRowByRow(db) }

    /// One table holds every event.
    func preparePartitions(times: [Int64], made: inout Set<Int64>, _ db: SQLDatabase) throws {}

    func insertCopied(table: String, columns: [String], rows: [[SQLValue]], _ db: SQLDatabase) throws {
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let marks = "(" + databaseQuestionMarks(count: columns.count) + ")"
        let perStatement = max(1, 900 / max(1, columns.count))
        var start = 0
        while start < rows.count {
            let slice = rows[start..<min(rows.count, start + perStatement)]
            var arguments = SQLArguments()
            for row in slice { arguments.values += row }
            try db.execute(sql: "INSERT INTO \(table) (\(quoted)) VALUES " + Array(repeating: marks, count: slice.count).joined(separator: ", "),
                           arguments: arguments)
            start += perStatement
        }
    }

    /// SQLite's ids go on from the highest row by themselves.
    func finishCopy(_ db: SQLDatabase) throws {}

    /// Each event inserted at once; the id it returns says it was new (none: a duplicate).
    struct Events: EventRows {
        let db: SQLDatabase
        var insert: BoundStatement

        init(_ db: SQLDatabase) throws {
            self.db = db
            let columns = TriageStore.eventInsertColumns
            insert = try BoundStatement(db, sql: """
                INSERT INTO event_row (\(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count)))
                ON CONFLICT DO NOTHING RETURNING id
                """)
        }

        mutating func add(_ raw: ErrorEvent, issueID: Int64, terms: ArraySlice<Int64?>) throws -> EventRowOutcome {
            // One bind per column, in `eventInsertColumns`' order (no array of values per event).
            insert.bind(raw.eventID)
            insert.bind(issueID)
            insert.bind(raw.timestamp.millis)
            insert.bind(raw.appVersion)
            insert.bind(raw.freeRAM)
            insert.bind(raw.freeDisk)
            insert.bind(raw.jailbroken)
            insert.bind(raw.userID)
            insert.bind(raw.sessionID)
            for id in terms { insert.bind(id) }
            return try insert.fetchInt64().map(EventRowOutcome.new) ?? .duplicate
        }

        mutating func finish() throws -> [Int64?] { [] }
    }
}
