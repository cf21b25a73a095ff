import GRDB

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
            let cursor = try GRDB.Row.fetchCursor(db, sql: sql, arguments: arguments.grdb)
            let columns = Row.ColumnNames(cursor._statement.columnNames)
            var rows: [Row] = []
            while let row = try cursor.next() { rows.append(Row(columns: columns, values: row.sqlValues)) }
            return rows
        case .postgres(let session):
            return try session.run(sql, arguments)
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

/// Rows read one at a time: the export streams millions of events through it.
final class RowCursor {
    private enum Source {
        case sqlite(GRDB.RowCursor, Row.ColumnNames)
        case postgres(PGSession, name: String)
    }

    private let source: Source
    private var buffered: [Row] = []
    private var position = 0
    private var finished = false

    init(_ db: Database, sql: String, arguments: StatementArguments) throws {
        switch db.backend {
        case .sqlite(let grdb):
            let cursor = try GRDB.Row.fetchCursor(grdb, sql: sql, arguments: arguments.grdb)
            source = .sqlite(cursor, Row.ColumnNames(cursor._statement.columnNames))
        case .postgres(let session):
            let name = session.cursorName()
            try session.run("DECLARE \(name) NO SCROLL CURSOR FOR " + sql, arguments)
            source = .postgres(session, name: name)
        }
    }

    func next() throws -> Row? {
        switch source {
        case .sqlite(let cursor, let columns):
            return try cursor.next().map { Row(columns: columns, values: $0.sqlValues) }
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

extension GRDB.Row {
    var sqlValues: [SQLValue] {
        databaseValues.map { value in
            switch value.storage {
            case .null: .null
            case .int64(let i): .integer(i)
            case .double(let d): .real(d)
            case .string(let s): .text(s)
            case .blob(let b): .text(String(decoding: b, as: UTF8.self))
            }
        }
    }
}
