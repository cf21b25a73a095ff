import GRDB
import GRDBSQLite

/// A cached GRDB statement driven through SQLite's C API: bind each parameter, step, reset.
///
/// Ingest runs a handful of statements per event; through GRDB's `StatementArguments` each value
/// is boxed, converted and bound, which cost a fifth of the writer's time at a million events.
/// This binds straight from Swift values. It is only for statements the store prepares itself,
/// inside a write; errors come back as GRDB's `DatabaseError`, so they read as every other.
final class SQLiteStatementDriver: StatementDriver {
    private let statement: GRDB.Statement
    private let handle: OpaquePointer
    private var index: Int32 = 0

    init(_ statement: GRDB.Statement) {
        self.statement = statement
        handle = statement.sqliteStatement
    }

    /// SQLite copies the bytes of each bound text before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    func bind(_ value: Int64) {
        index += 1
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ value: String) {
        var value = value
        index += 1
        let i = index, handle = handle
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else {
                // A non-nil pointer for "": SQLite then stores an empty text, not NULL.
                _ = sqlite3_bind_text(handle, i, "", 0, SQLiteStatementDriver.transient)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(handle, i, $0, Int32(bytes.count), SQLiteStatementDriver.transient)
            }
        }
    }

    func bindNull() {
        index += 1
        sqlite3_bind_null(handle, index)
    }

    func execute() throws {
        defer { finishStep() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code) }
    }

    func fetchInt64() throws -> Int64? {
        defer { finishStep() }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
        case SQLITE_DONE: return nil
        default: throw error(code)
        }
    }

    private func finishStep() {
        sqlite3_reset(handle)
        index = 0
    }

    private func error(_ code: Int32) -> DatabaseError {
        // sqlite3_reset has not run yet, so the connection still holds this statement's error.
        guard let connection = sqlite3_db_handle(handle) else { return DatabaseError(resultCode: ResultCode(rawValue: code)) }
        return DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                             message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
    }
}
