import GRDB
import GRDBSQLite

/// A cached GRDB statement driven through SQLite's C API: bind each parameter, step, reset.
///
/// Ingest runs a handful of statements per event; through GRDB's `StatementArguments` each value
/// is boxed, converted and bound, which cost a fifth of the writer's time at a million events.
/// This binds straight from Swift values. It is only for statements the store prepares itself,
/// inside a write; errors come back as GRDB's `DatabaseError`, so they read as every other.
/// On PostgreSQL the statement is prepared once per connection and the values go as text.
struct BoundStatement {
    private let statement: Statement?
    private var handle: OpaquePointer { statement!.sqliteStatement }
    private var index: Int32 = 0
    private let session: PGSession?
    private let sql: String
    private var values: [String?] = []

    init(_ db: Database, sql: String) throws {
        self.sql = sql
        switch db.backend {
        case .sqlite(let grdb):
            statement = try grdb.cachedStatement(sql: sql)
            session = nil
        case .postgres(let pg):
            statement = nil
            session = pg
        }
    }

    /// SQLite copies the bytes of each bound text before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    mutating func bind(_ value: Int64) {
        if session != nil { return values.append(String(value)) }
        index += 1
        sqlite3_bind_int64(handle, index, value)
    }

    mutating func bind(_ value: Int) { bind(Int64(value)) }

    mutating func bind(_ value: Int64?) {
        guard let value else { return bindNull() }
        bind(value)
    }

    mutating func bind(_ value: Bool?) {
        guard let value else { return bindNull() }
        bind(Int64(value ? 1 : 0))
    }

    mutating func bind(_ value: String?) {
        if session != nil { return values.append(value) }
        guard var value else { return bindNull() }
        index += 1
        let i = index, handle = handle
        value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else {
                // A non-nil pointer for "": SQLite then stores an empty text, not NULL.
                _ = sqlite3_bind_text(handle, i, "", 0, BoundStatement.transient)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                _ = sqlite3_bind_text(handle, i, $0, Int32(bytes.count), BoundStatement.transient)
            }
        }
    }

    private mutating func bindNull() {
        if session != nil { return values.append(nil) }
        index += 1
        sqlite3_bind_null(handle, index)
    }

    /// Runs a statement that returns no rows; the parameters are then bound afresh.
    mutating func execute() throws {
        if let session {
            defer { values.removeAll(keepingCapacity: true) }
            try session.runPrepared(sql, values)
            return
        }
        defer { finishStep() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code) }
    }

    /// Runs a query for the first column of its first row, as an integer (nil: no row, or NULL).
    mutating func fetchInt64() throws -> Int64? {
        if let session {
            defer { values.removeAll(keepingCapacity: true) }
            return try session.runPrepared(sql, values).first.flatMap { Int64?.from($0.values[0]) ?? nil }
        }
        defer { finishStep() }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
        case SQLITE_DONE: return nil
        default: throw error(code)
        }
    }

    private mutating func finishStep() {
        sqlite3_reset(handle)
        index = 0
    }

    private func error(_ code: Int32) -> DatabaseError {
        // sqlite3_reset has not run yet, so the connection still holds this statement's error.
        guard let connection = sqlite3_db_handle(handle) else { return DatabaseError(resultCode: ResultCode(rawValue: code)) }
        return DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                             message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}
