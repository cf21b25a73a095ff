/// PostgreSQL's side of `SQLConnection`: the session's connection runs the SQL; bulk writes are
/// `BulkWrites`.
extension PGSession: SQLConnection {
    var dialect: SQLDialect {
        // The server checks every reference as it writes: no dangling-reference query.
        SQLDialect(indexAvoidance: "", maxIDsInList: 32,
                   schemaVersionQuery: "SELECT value FROM meta WHERE key = 'schema'",
                   schemaVersionUpdate: { "UPDATE meta SET value = \($0) WHERE key = 'schema'" })
    }

    /// The store's view of this session in a transaction: its SQL, and its bulk writes.
    var database: SQLDatabase { SQLDatabase(self, writes: BulkWrites(session: self)) }

    var changesCount: Int { lastChanges }

    func execute(sql: String, arguments: SQLArguments) throws { try run(sql, arguments) }

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
