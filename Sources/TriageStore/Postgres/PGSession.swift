#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's connection to PostgreSQL: one libpq connection, used by one thread at a time,
/// that reconnects by itself after the server went away (the transaction that was cut off fails;
/// the next one runs on a new connection).
///
/// Queries are written with SQLite's `?` placeholders; the session numbers them `$1, $2…` once
/// per statement text and binds each value with its type (bigint, double precision, text).
final class PGSession: @unchecked Sendable {  // libpq's connection (a C handle) and the statement caches are guarded by `mutex`
    let conninfo: String
    private(set) var connection: PGConnection
    /// `host:port/dbname`, for messages (never the password).
    let target: String
    var lastChanges = 0
    private var translated: [String: String] = [:]
    private var prepared: [String: String] = [:]
    private var cursors = 0
    private var mutex = pthread_mutex_t()

    init(conninfo: String) throws(PGError) {
        self.conninfo = conninfo
        connection = try PGConnection(conninfo)
        target = connection.target
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(&mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    /// Runs `body` holding the connection: one thread at a time, on a live connection.
    func exclusive<T>(_ body: () throws -> T) throws -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if !connection.isConnected {
            connection = try PGConnection(conninfo)
            prepared = [:]
        }
        return try body()
    }

    /// Runs one statement (or, without arguments, a script of several) and returns its rows.
    @discardableResult
    func run(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        let text = arguments.isEmpty ? sql : numbered(sql)
        let result = try connection.execute(text, arguments.values.map(\.postgresText),
                                            types: arguments.isEmpty ? nil : arguments.values.map(\.postgresType))
        lastChanges = result.changed
        return Self.rows(result)
    }

    /// Runs a query of integer columns, each row's values handed to `body` (`PGConnection.forEachIntegers`).
    func forEachIntegers(_ sql: String, _ arguments: SQLArguments, columns: Int,
                         _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        try connection.forEachIntegers(arguments.isEmpty ? sql : numbered(sql), arguments.values.map(\.postgresText),
                                       types: arguments.isEmpty ? nil : arguments.values.map(\.postgresType), columns: columns, body)
        lastChanges = 0
    }

    /// Runs a statement prepared once per connection, for ingest's per-event statements.
    @discardableResult
    func runPrepared(_ sql: String, _ values: [String?]) throws -> [SQLRow] {
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "errtriage_\(prepared.count)"
            try connection.prepare(name, numbered(sql))
            prepared[sql] = name
        }
        let result = try connection.executePrepared(name, values, sql: sql)
        lastChanges = result.changed
        return Self.rows(result)
    }

    /// A second connection that LISTENs on the store's channel: every commit of a writer
    /// NOTIFYs it, so a dashboard learns of others' changes without asking the server each time.
    private var listener: PGConnection?
    /// The revision last read, good until a notification comes.
    var knownRevision: Int64?

    /// The staging tables this session has made (temporary, so its own): made once, emptied before
    /// each use. A write that rolls back forgets them, since a table made in it is gone.
    var stagingTables = Set<String>()

    /// Empties the temporary staging table `table`, making it first (`definition`: its columns, or
    /// `(LIKE source)`) if this session has not. Rows stay at commit (`ON COMMIT PRESERVE ROWS`):
    /// emptying them at every commit cost a group commit of a few events more than its inserts.
    func stage(_ table: String, _ definition: String) throws {
        if !stagingTables.contains(table) {
            _ = try run("CREATE TEMP TABLE IF NOT EXISTS \(table) \(definition) ON COMMIT PRESERVE ROWS", [])
            stagingTables.insert(table)
        }
        _ = try run("DELETE FROM \(table)", [])
    }

    /// Commits since the staging tables were last vacuumed.
    var commitsSinceVacuum = 0

    /// Vacuums the staging tables every `every` commits, between transactions. They are emptied
    /// by DELETE, whose dead rows only VACUUM takes back, and no autovacuum visits a temporary
    /// table: unvacuumed, a server's thousands of small commits grew them without end (600
    /// commits of 300 rows: 1,500 pages, each DELETE then 12 ms). A failure is left to the next
    /// write, which meets the same connection; the commit it follows stands.
    func vacuumStagingIfDue(every: Int = 16) {
        guard !stagingTables.isEmpty else { return }
        commitsSinceVacuum += 1
        guard commitsSinceVacuum >= every else { return }
        commitsSinceVacuum = 0
        _ = try? run("VACUUM \(stagingTables.sorted().joined(separator: ", "))", [])
    }

    /// Whether a commit was notified since the last call; nil when that cannot be told (no
    /// listener yet, or it lost its connection), and the revision must be read.
    func notified(channel: String) -> Bool? {
        guard let listener, listener.isConnected else {
            listener = try? PGConnection(conninfo)
            do { try listener?.listen(channel) } catch { listener = nil }
            return nil
        }
        do {
            return try !listener.notifications().isEmpty
        } catch {
            self.listener = nil
            return nil
        }
    }

    /// The advisory lock every writer of a store takes first, for the rest of its transaction:
    /// writers take turns, as SQLite's single writer does. (An arbitrary constant: "errt".)
    func takeWriterLock() throws {
        try run("SELECT pg_advisory_xact_lock(\(0x6572_7274 as Int64))", [])
    }

    /// The number of columns `sql` returns (run with no rows).
    func columns(of sql: String) throws -> Int {
        try connection.execute("SELECT * FROM (\(sql)) AS q LIMIT 0").columns.count
    }

    func cursorName() -> String {
        cursors += 1
        return "errtriage_cursor_\(cursors)"
    }

    static func rows(_ result: PGRows) -> [SQLRow] {
        guard !result.columns.isEmpty else { return [] }
        let columns = SQLRow.ColumnNames(result.columns)
        let kinds = result.types.map(ColumnKind.init(oid:))
        return result.rows.map { values in
            SQLRow(columns: columns, values: zip(values, kinds).map { text, kind in
                guard let text else { return .null }
                return kind.value(text)
            })
        }
    }

    private enum ColumnKind {
        case boolean, integer, real, numeric, text, bytea

        init(oid: UInt32) {
            switch oid {
            case 16: self = .boolean
            case 20, 21, 23, 26: self = .integer
            case 700, 701: self = .real
            case 1700: self = .numeric
            case 17: self = .bytea
            default: self = .text
            }
        }

        func value(_ text: String) -> SQLValue {
            switch self {
            case .boolean: return .integer(text == "t" ? 1 : 0)
            case .integer: return Int64(text).map(SQLValue.integer) ?? .text(text)
            case .real: return Double(text).map(SQLValue.real) ?? .text(text)
            case .numeric:
                // SUM over bigint is numeric: whole numbers read back as integers, as SQLite gives them.
                if let i = Int64(text) { return .integer(i) }
                return Double(text).map(SQLValue.real) ?? .text(text)
            case .text: return .text(text)
            case .bytea: return SQLValue.bytes(byteaHex: text).map(SQLValue.blob) ?? .text(text)
            }
        }
    }

    /// `sql` with each `?` outside quotes and comments numbered `$1, $2…`.
    private func numbered(_ sql: String) -> String {
        if let known = translated[sql] { return known }
        var out: [UInt8] = []
        out.reserveCapacity(sql.utf8.count + 16)
        var n = 0
        var quote: UInt8? = nil
        var comment = false
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            if comment {
                if byte == 0x0A { comment = false }
            } else if let q = quote {
                if byte == q { quote = nil }
            } else if byte == 0x27 || byte == 0x22 {
                quote = byte
            } else if byte == 0x2D && previous == 0x2D {
                comment = true
            } else if byte == 0x3F {
                n += 1
                out.append(0x24)
                out.append(contentsOf: String(n).utf8)
                previous = byte
                continue
            }
            out.append(byte)
            previous = byte
        }
        let text = String(decoding: out, as: UTF8.self)
        if translated.count > 2_000 { translated.removeAll() }
        translated[sql] = text
        return text
    }
}

extension SQLValue {
    /// The type each bound value is sent with: bigint, double precision, text; NULL untyped.
    var postgresType: UInt32 {
        switch self {
        case .null: 0
        case .integer: 20
        case .real: 701
        case .text: 25
        case .blob: 17
        }
    }
}
