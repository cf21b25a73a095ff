import GRDB
import GRDBSQLite

/// One row of a scan, read in place from SQLite's statement: nothing is built per value.
struct ScanRow {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The integer in `column`; 0 for NULL.
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The integer in `column`; nil for NULL.
    func optionalInteger(_ column: Int32) -> Int64? { isNull(column) ? nil : integer(column) }

    /// The bytes of the text in `column` (good until the next row); nil for NULL.
    func text(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }
}

extension SQLDatabase {
    /// Whether `scan` reads rows in place on this engine: SQLite's in-process statements. A server's
    /// rows would cross the connection, and its own SQL recounts where they are.
    var scansInPlace: Bool { connection is GRDBConnection }

    /// Steps a query's rows, each handed to `body` as read in place (`ScanRow`); SQLite only
    /// (`scansInPlace`).
    func scan(sql: String, arguments: SQLArguments = [], _ body: (ScanRow) throws -> Void) throws {
        guard let sqlite = connection as? GRDBConnection else { throw StoreError("this store cannot scan rows in place") }
        let statement = try sqlite.db.makeStatement(sql: sql)
        try statement.setArguments(arguments.grdb)
        try SQLiteSteps.each(statement, in: sqlite.db) { try body(ScanRow(handle: $0)) }
    }
}
