/// PostgreSQL's side of `SQLConnection`: the session's connection, with ingest and copy in bulk
/// (COPY) and the month partitions of the events.
extension PGSession: SQLConnection {
    var dialect: SQLDialect { SQLDialect(indexAvoidance: "", maxIDsInList: 32) }

    var changesCount: Int { lastChanges }

    func execute(sql: String, arguments: SQLArguments) throws { try run(sql, arguments) }

    func insertID(sql: String, arguments: SQLArguments) throws -> Int64 {
        let rows = try run(sql + " RETURNING id", arguments)
        guard let first = rows.first, let id = Int64.from(first.values[0]) else {
            throw PGError("\(target): the INSERT added no row")
        }
        return id
    }

    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow] { try run(sql, arguments) }

    func forEachIntegers(sql: String, arguments: SQLArguments, into buffer: UnsafeMutableBufferPointer<Int64>,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        try forEachIntegers(sql, arguments, columns: buffer.count, body)
    }

    func columnCount(sql: String) throws -> Int { try columns(of: sql) }

    func cursor(sql: String, arguments: SQLArguments) throws -> any RowSource {
        let name = cursorName()
        try run("DECLARE \(name) NO SCROLL CURSOR FOR " + sql, arguments)
        return PGRowSource(session: self, name: name)
    }

    func statement(sql: String) throws -> any StatementDriver { PGStatement(session: self, sql: sql) }

    func schemaVersion() throws -> Int { try Int.fetchOne(SQLDatabase(self), sql: "SELECT value FROM meta WHERE key = 'schema'") ?? 0 }

    func setSchemaVersion(_ version: Int) throws {
        try run("UPDATE meta SET value = ? WHERE key = 'schema'", [version])
    }

    var ingestPath: any IngestWritePath { BulkWrites(session: self) }

    func preparePartitions(times: [Int64], made: inout Set<Int64>) throws {
        for millis in times {
            let part = PGSchema.partition(holding: millis)
            guard made.insert(part.from).inserted else { continue }
            try run("""
                CREATE TABLE IF NOT EXISTS \(part.name) PARTITION OF event_row FOR VALUES FROM (\(part.from)) TO (\(part.to))
                """, [])
        }
    }

    func insertCopied(table: String, columns: [String], rows: [[SQLValue]]) throws {
        let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try connection.copyIn("COPY \(table) (\(quoted)) FROM STDIN") { writer in
            for row in rows { try writer.row(row.map(\.postgresText)) }
        }
    }

    func finishCopy() throws {
        // Identity columns go on from the highest id copied.
        for table in PGSchema.identityTables {
            try run("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM \(table)", [])
        }
        try run("SELECT setval('event_id_seq', COALESCE(MAX(id), 0) + 1, false) FROM event_row", [])
    }

    func beginCheck() throws {}

    func endCheck() {}

    /// The server checks every reference as it writes.
    func hasDanglingReferences() throws -> Bool { false }
}

/// Rows of a server-side cursor, fetched 2,000 at a time.
final class PGRowSource: RowSource {
    private let session: PGSession
    private let name: String
    private var buffered: [SQLRow] = []
    private var position = 0
    private var finished = false

    init(session: PGSession, name: String) {
        self.session = session
        self.name = name
    }

    func next() throws -> SQLRow? {
        if position == buffered.count {
            guard !finished else { return nil }
            buffered = try session.run("FETCH FORWARD 2000 FROM \(name)", [])
            position = 0
            if buffered.count < 2000 {
                finished = true
                try session.run("CLOSE \(name)", [])
            }
            guard !buffered.isEmpty else { return nil }
        }
        defer { position += 1 }
        return buffered[position]
    }
}

/// A statement prepared once per connection, its values sent as text.
final class PGStatement: StatementDriver {
    private let session: PGSession
    private let sql: String
    private var values: [String?] = []

    init(session: PGSession, sql: String) {
        self.session = session
        self.sql = sql
    }

    func bind(_ value: Int64) { values.append(String(value)) }
    func bind(_ value: String) { values.append(value) }
    func bindNull() { values.append(nil) }

    func execute() throws {
        defer { values.removeAll(keepingCapacity: true) }
        try session.runPrepared(sql, values)
    }

    func fetchInt64() throws -> Int64? {
        defer { values.removeAll(keepingCapacity: true) }
        return try session.runPrepared(sql, values).first.flatMap { Int64?.from($0.values[0]) ?? nil }
    }
}
