/// One connection inside one transaction, on either engine: what every query and write of the
/// store is written against. The SQL is written once, in the dialect both engines run (`?`
/// placeholders, `ON CONFLICT`, `RETURNING`, `COALESCE`); what the engines do differently is
/// behind two seams, each implemented once per engine, so no code here asks which engine it runs
/// on: `SQLConnection` runs SQL (`SQLite/GRDBConnection.swift`, `Postgres/PGSession+Connection.swift`)
/// and `WritePath` writes rows in bulk (`SQLite/RowByRowWrites.swift`, `Postgres/BulkWrites.swift`);
/// the few facts of each engine's SQL are its `SQLDialect`.
final class SQLDatabase {
    let connection: any SQLConnection
    /// How the engine writes ingest's and copy's rows.
    let writes: any WritePath

    init(_ connection: any SQLConnection, writes: any WritePath) {
        self.connection = connection
        self.writes = writes
    }

    /// The facts of the engine's SQL the shared queries adapt to.
    var dialect: SQLDialect { connection.dialect }

    /// Rows changed by the last write statement.
    var changesCount: Int { connection.changesCount }

    func execute(sql: String, arguments: SQLArguments = []) throws {
        try connection.execute(sql: sql, arguments: arguments)
    }

    /// Runs an INSERT and returns the `id` of the row it added.
    func insertID(sql: String, arguments: SQLArguments = []) throws -> Int64 {
        guard let row = try rows(sql: sql + " RETURNING id", arguments: arguments).first, let id = Int64.from(row.values[0]) else {
            throw StoreError("the INSERT added no row")
        }
        return id
    }

    func rows(sql: String, arguments: SQLArguments = []) throws -> [SQLRow] {
        try connection.rows(sql: sql, arguments: arguments)
    }

    /// Runs a query whose every column is an integer (NULL reads as 0) and hands each row's values
    /// to `body` in one reused buffer, without building a `SQLRow` per row: the rollup reads of a
    /// list (tens of thousands of day and hour buckets) spent most of their time building rows.
    func forEachIntegers(sql: String, arguments: SQLArguments = [], columns: Int,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: columns)
        defer { buffer.deallocate() }
        try connection.forEachIntegers(sql: sql, arguments: arguments, into: buffer, body)
    }

    /// The number of columns `sql` returns, without running it to the end.
    func columnCount(sql: String) throws -> Int { try connection.columnCount(sql: sql) }

    /// The schema version the store records (SQLite's `user_version`, PostgreSQL's `meta.schema`).
    func schemaVersion() throws -> Int { try Int.fetchOne(self, sql: dialect.schemaVersionQuery) ?? 0 }

    func setSchemaVersion(_ version: Int) throws { try execute(sql: dialect.schemaVersionUpdate(version)) }

    /// Sets the connection up for `check`'s reads over every event.
    func beginCheck() throws {
        for sql in dialect.checkSetup { try execute(sql: sql) }
    }

    /// Sets the connection back after `check`.
    func endCheck() {
        for sql in dialect.checkTeardown { try? execute(sql: sql) }
    }

    /// Whether a row refers to one that is missing, where the engine lets that happen.
    func hasDanglingReferences() throws -> Bool {
        guard let query = dialect.danglingReferencesQuery else { return false }
        return try rows(sql: query).first != nil
    }
}

/// What an engine's connection does: run SQL. Eight requirements, of about the size of
/// fluent-kit's `Database`; everything else is written above it, once.
protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// Rows changed by the last write statement.
    var changesCount: Int { get }
    func execute(sql: String, arguments: SQLArguments) throws
    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow]
    /// Each row's integers into `buffer` (as many as it holds), then `body`.
    func forEachIntegers(sql: String, arguments: SQLArguments, into buffer: UnsafeMutableBufferPointer<Int64>,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws
    func columnCount(sql: String) throws -> Int
    /// Rows read one at a time, while other statements run on the connection.
    func cursor(sql: String, arguments: SQLArguments) throws -> any RowSource
    /// A statement prepared once and run many times with values bound one by one (`BoundStatement`).
    func statement(sql: String) throws -> any StatementDriver
}

/// The facts of an engine's SQL that the shared queries adapt to.
struct SQLDialect {
    /// Written before a column to keep the planner off its index (SQLite's unary `+`); empty where
    /// the planner picks by its statistics and the hint would only spoil its estimate.
    var indexAvoidance: String
    /// The most issue ids a rollup read names in an `IN` list before it reads every issue's rows
    /// and keeps the listed ones in Swift (on PostgreSQL a long list costs a linear search per row).
    var maxIDsInList: Int
    /// The query that reads the schema version the store records.
    var schemaVersionQuery: String
    /// The statement that records a schema version.
    var schemaVersionUpdate: (Int) -> String
    /// Statements run before `check`'s reads over every event, and after them.
    var checkSetup: [String] = []
    var checkTeardown: [String] = []
    /// A query that returns a row when a row refers to one that is missing; nil where the engine
    /// checks every reference as it writes (SQLite's foreign keys are checked as rows are written
    /// only when switched on).
    var danglingReferencesQuery: String? = nil
}

/// Rows of a query read one at a time.
protocol RowSource: AnyObject {
    func next() throws -> SQLRow?
}

/// A prepared statement's engine side: values bound in order, then run.
protocol StatementDriver: AnyObject {
    func bind(_ value: Int64)
    func bind(_ value: String)
    func bindNull()
    /// Runs a statement that returns no rows; the parameters are then bound afresh.
    func execute() throws
    /// Runs a query for the first column of its first row, as an integer (nil: no row, or NULL).
    func fetchInt64() throws -> Int64?
}

/// Rows read one at a time: the export streams millions of events through it.
final class SQLRowCursor {
    private let source: any RowSource

    init(_ db: SQLDatabase, sql: String, arguments: SQLArguments) throws {
        source = try db.connection.cursor(sql: sql, arguments: arguments)
    }

    func next() throws -> SQLRow? { try source.next() }
}

extension SQLRow {
    static func fetchAll(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> [SQLRow] {
        try db.rows(sql: sql, arguments: arguments)
    }

    static func fetchOne(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> SQLRow? {
        try db.rows(sql: sql, arguments: arguments).first
    }

    static func fetchCursor(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> SQLRowCursor {
        try SQLRowCursor(db, sql: sql, arguments: arguments)
    }
}

extension SQLConvertible {
    /// The first column of the first row; nil when there is no row or its value is NULL.
    static func fetchOne(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> Self? {
        guard let row = try db.rows(sql: sql, arguments: arguments).first else { return nil }
        return try convert(row)
    }

    /// The first column of every row (NULLs left out, as GRDB does for non-optional types).
    static func fetchAll(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> [Self] {
        try db.rows(sql: sql, arguments: arguments).compactMap { row throws(StoreError) in try convert(row) }
    }

    /// The first column's value; nil for NULL, an error naming the column where it is not a `Self`.
    private static func convert(_ row: SQLRow) throws(StoreError) -> Self? {
        if case .null = row.values[0] { return nil }
        return try row.decode(0)
    }
}
