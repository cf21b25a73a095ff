import GRDB
import GRDBSQLite

/// One connection inside one transaction, on either engine: what every query and write of the
/// store is written against. The SQL is written once, in the dialect both engines run (`?`
/// placeholders, `ON CONFLICT`, `RETURNING`, `COALESCE`); PostgreSQL's session turns `?` into `$n`.
final class Database {
    enum Backend {
        case sqlite(GRDB.Database)
        case postgres(PGSession)
    }

    let backend: Backend

    init(_ backend: Backend) { self.backend = backend }

    var isPostgres: Bool {
        if case .postgres = backend { return true }
        return false
    }

    /// Rows changed by the last write statement.
    var changesCount: Int {
        switch backend {
        case .sqlite(let db): db.changesCount
        case .postgres(let session): session.lastChanges
        }
    }

    func execute(sql: String, arguments: StatementArguments = []) throws {
        switch backend {
        case .sqlite(let db):
            try db.execute(sql: sql, arguments: arguments.grdb)
        case .postgres(let session):
            try session.run(sql, arguments)
        }
    }

    /// Runs an INSERT and returns the `id` of the row it added.
    func insertID(sql: String, arguments: StatementArguments = []) throws -> Int64 {
        switch backend {
        case .sqlite(let db):
            try db.execute(sql: sql, arguments: arguments.grdb)
            return db.lastInsertedRowID
        case .postgres(let session):
            let rows = try session.run(sql + " RETURNING id", arguments)
            guard let first = rows.first, let id = Int64.from(first.values[0]) else {
                throw PGError("\(session.target): the INSERT added no row")
            }
            return id
        }
    }

    func rows(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        switch backend {
        case .sqlite(let db):
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments.grdb)
            let columns = Row.ColumnNames(statement.columnNames)
            var rows: [Row] = []
            try SQLiteSteps.each(statement, in: db) { rows.append(Row(columns: columns, values: SQLiteSteps.values(of: $0))) }
            return rows
        case .postgres(let session):
            return try session.run(sql, arguments)
        }
    }

    /// Runs a query whose every column is an integer (NULL reads as 0) and hands each row's values
    /// to `body` in one reused buffer, without building a `Row` per row: the rollup reads of a
    /// list (tens of thousands of day and hour buckets) spent most of their time building rows.
    func forEachIntegers(sql: String, arguments: StatementArguments = [], columns: Int,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: columns)
        defer { buffer.deallocate() }
        switch backend {
        case .sqlite(let db):
            // Stepped with SQLite's own calls: GRDB's row values cost a retain and a release each.
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments(arguments.grdb)
            try SQLiteSteps.each(statement, in: db) { handle in
                for i in 0..<columns { buffer[i] = sqlite3_column_int64(handle, Int32(i)) }
                try body(UnsafeBufferPointer(buffer))
            }
        case .postgres(let session):
            try session.forEachIntegers(sql, arguments, columns: columns, body)
        }
    }

    /// The number of columns `sql` returns, without running it to the end.
    func columnCount(sql: String) throws -> Int {
        switch backend {
        case .sqlite(let db): return try db.makeStatement(sql: sql).columnCount
        case .postgres(let session): return try session.columns(of: sql)
        }
    }
}

/// A SQLite statement stepped with SQLite's own calls and its values read straight into
/// `SQLValue`s: GRDB's rows copy every value into a `DatabaseValue` first, and a list's reads
/// spent most of their time there.
enum SQLiteSteps {
    /// Steps `statement` (its arguments set) to its end, handing each row to `body`; resets it after.
    static func each(_ statement: GRDB.Statement, in db: GRDB.Database, _ body: (OpaquePointer) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while let row = try step(statement, in: db) { try body(row) }
    }

    /// The statement's next row, or nil at its end.
    static func step(_ statement: GRDB.Statement, in db: GRDB.Database) throws -> OpaquePointer? {
        let handle = statement.sqliteStatement
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        return handle
    }

    /// The current row's values.
    static func values(of handle: OpaquePointer) -> [SQLValue] {
        let count = sqlite3_column_count(handle)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for i in 0..<count {
            switch sqlite3_column_type(handle, i) {
            case SQLITE_NULL: values.append(.null)
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(handle, i)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(handle, i)))
            default:
                // Text, and a blob read as UTF-8 text (the store writes none). The text first, then
                // its length, in the order SQLite's documentation gives.
                if let text = sqlite3_column_text(handle, i) {
                    let bytes = Int(sqlite3_column_bytes(handle, i))
                    values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: bytes), as: UTF8.self)))
                } else {
                    values.append(.text(""))
                }
            }
        }
        return values
    }
}

/// Rows read one at a time: the export streams millions of events through it.
final class RowCursor {
    private enum Source {
        case sqlite(GRDB.Statement, GRDB.Database, Row.ColumnNames)
        case postgres(PGSession, name: String)
    }

    private let source: Source
    private var buffered: [Row] = []
    private var position = 0
    private var finished = false

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        switch db.backend {
        case .sqlite(let grdb):
            // Its own statement (not the cache's): the caller may run other queries while it reads.
            let statement = try grdb.makeStatement(sql: sql)
            try statement.setArguments(arguments.grdb)
            source = .sqlite(statement, grdb, Row.ColumnNames(statement.columnNames))
        case .postgres(let session):
            let name = session.cursorName()
            try session.run("DECLARE \(name) NO SCROLL CURSOR FOR " + sql, arguments)
            source = .postgres(session, name: name)
        }
    }

    func next() throws -> Row? {
        switch source {
        case .sqlite(let statement, let db, let columns):
            guard !finished else { return nil }
            guard let handle = try SQLiteSteps.step(statement, in: db) else {
                finished = true
                return nil
            }
            return Row(columns: columns, values: SQLiteSteps.values(of: handle))
        case .postgres(let session, let name):
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
}

extension Row {
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try db.rows(sql: sql, arguments: arguments)
    }

    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try db.rows(sql: sql, arguments: arguments).first
    }

    static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        try RowCursor(db, sql: sql, arguments: arguments)
    }
}

extension SQLConvertible {
    /// The first column of the first row; nil when there is no row or its value is NULL.
    static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        guard let row = try db.rows(sql: sql, arguments: arguments).first else { return nil }
        return convert(row.values[0])
    }

    /// The first column of every row (NULLs left out, as GRDB does for non-optional types).
    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try db.rows(sql: sql, arguments: arguments).compactMap { convert($0.values[0]) }
    }

    private static func convert(_ value: SQLValue) -> Self? {
        if case .null = value { return nil }
        guard let converted = from(value) else { fatalError("\(value) is not \(Self.self)") }
        return converted
    }
}

extension StatementArguments {
    var grdb: GRDB.StatementArguments {
        GRDB.StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let i): i.databaseValue
            case .real(let d): d.databaseValue
            case .text(let s): s.databaseValue
            }
        })
    }
}
