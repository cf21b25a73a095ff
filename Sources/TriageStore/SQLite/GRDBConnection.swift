import Foundation
import TriageModel
import GRDB
import GRDBSQLite

/// SQLite's side of `SQLConnection`: GRDB's connection, with SQLite's C API where a statement runs
/// per event or a read builds thousands of rows.
final class GRDBConnection: SQLConnection {
    let db: GRDB.Database

    init(_ db: GRDB.Database) { self.db = db }

    let dialect = SQLDialect(
        indexAvoidance: "+", maxIDsInList: 2_000,
        schemaVersionQuery: "PRAGMA user_version",
        schemaVersionUpdate: { "PRAGMA user_version = \($0)" },
        // Each recount scans the events: mapped, the file is read in place instead of copied page
        // by page through a 2 MiB cache (a third of the time of `check`, all of it system time).
        // Readers map the first GiB; `check` maps all of the store, and is set back after.
        checkSetup: ["PRAGMA mmap_size = \(TriageStore.checkMapBytes)"],
        checkTeardown: ["PRAGMA mmap_size = \(TriageStore.readerMapBytes)"],
        danglingReferencesQuery: "PRAGMA foreign_key_check")

    var changesCount: Int { db.changesCount }

    func execute(sql: String, arguments: SQLArguments) throws {
        try db.execute(sql: sql, arguments: arguments.grdb)
    }

    func rows(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments.grdb)
        var columns: SQLRow.ColumnNames?
        var rows: [SQLRow] = []
        try SQLiteSteps.each(statement, in: db) { handle in
            // Named after the first step: a statement SQLite prepared again for a changed schema
            // (another connection migrated the store) may have more columns than at its prepare.
            if columns == nil { columns = SQLRow.ColumnNames(SQLiteSteps.columnNames(of: handle)) }
            rows.append(SQLRow(columns: columns!, values: SQLiteSteps.values(of: handle)))
        }
        return rows
    }

    func forEachIntegers(sql: String, arguments: SQLArguments, into buffer: UnsafeMutableBufferPointer<Int64>,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        // Stepped with SQLite's own calls: GRDB's row values cost a retain and a release each.
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments.grdb)
        try SQLiteSteps.each(statement, in: db) { handle in
            for i in 0..<buffer.count { buffer[i] = sqlite3_column_int64(handle, Int32(i)) }
            try body(UnsafeBufferPointer(buffer))
        }
    }

    func columnCount(sql: String) throws -> Int { try db.makeStatement(sql: sql).columnCount }

    func cursor(sql: String, arguments: SQLArguments) throws -> any RowSource {
        // Its own statement (not the cache's): the caller may run other queries while it reads.
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments.grdb)
        return SQLiteRowSource(statement: statement, db: db)
    }

    func statement(sql: String) throws -> any StatementDriver {
        SQLiteStatementDriver(try db.cachedStatement(sql: sql))
    }
}

/// Rows of one SQLite statement, stepped one at a time.
final class SQLiteRowSource: RowSource {
    private let statement: GRDB.Statement
    private let db: GRDB.Database
    /// Named after the first step (see `GRDBConnection.rows`).
    private var columns: SQLRow.ColumnNames?
    private var finished = false

    init(statement: GRDB.Statement, db: GRDB.Database) {
        self.statement = statement
        self.db = db
    }

    func next() throws -> SQLRow? {
        guard !finished else { return nil }
        guard let handle = try SQLiteSteps.step(statement, in: db) else {
            finished = true
            return nil
        }
        if columns == nil { columns = SQLRow.ColumnNames(SQLiteSteps.columnNames(of: handle)) }
        return SQLRow(columns: columns!, values: SQLiteSteps.values(of: handle))
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

    /// The statement's column names as it runs now.
    static func columnNames(of handle: OpaquePointer) -> [String] {
        (0..<sqlite3_column_count(handle)).map { sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? "" }
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
            case SQLITE_BLOB:
                // The blob first, then its length, in the order SQLite's documentation gives.
                let blob = sqlite3_column_blob(handle, i)
                let bytes = Int(sqlite3_column_bytes(handle, i))
                values.append(.blob(blob.map { Array(UnsafeRawBufferPointer(start: $0, count: bytes)) } ?? []))
            default:
                // Text. The text first, then
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

extension SQLArguments {
    var grdb: GRDB.StatementArguments {
        GRDB.StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let i): i.databaseValue
            case .real(let d): d.databaseValue
            case .text(let s): s.databaseValue
            case .blob(let b): Data(b).databaseValue
            }
        })
    }
}
