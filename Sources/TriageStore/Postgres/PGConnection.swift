#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibpq

/// A PostgreSQL failure: one sentence that names the server (`host:port/dbname`, never a password).
public struct PGError: Error, Sendable, CustomStringConvertible {
    /// The sentence to show.
    public var message: String
    /// The server's SQLSTATE (`23505` unique violation, `40P01` deadlock, …) where it sent one.
    public var sqlState: String?
    /// The connection is gone (server down, network cut): reconnecting may help, retrying on it will not.
    public var connectionLost: Bool

    public init(_ message: String, sqlState: String? = nil, connectionLost: Bool = false) {
        self.message = message
        self.sqlState = sqlState
        self.connectionLost = connectionLost
    }
    public var description: String { message }
}

/// The rows one statement returned, in PostgreSQL's text format, with the rows it changed.
public struct PGRows: Sendable {
    /// The column names, in order.
    public let columns: [String]
    /// Each column's type (its `pg_type` oid), to read the text values back as numbers or text.
    public var types: [UInt32] = []
    /// Each row's values as the server printed them; nil is SQL NULL.
    public let rows: [[String?]]
    /// The rows an INSERT, UPDATE, DELETE or COPY changed (0 for a query).
    public let changed: Int
}

/// A notification another session sent with `NOTIFY channel, 'payload'`.
public struct PGNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process that sent it: a session can tell its own notifications from others'.
    public let senderPID: Int32
}

/// One connection to a PostgreSQL server through libpq, synchronous like the GRDB code beside it.
///
/// Connection settings are libpq's own: a `postgres://` URI or `key=value` string, completed by
/// the `PG*` environment variables, `~/.pgpass` and service files, as `psql` users expect. Not for
/// use from two threads at once.
public final class PGConnection {
    private let handle: OpaquePointer
    /// `host:port/dbname`, for messages: the socket folder stands for the host on a local socket.
    public let target: String

    /// Connects, or throws one sentence naming the server and libpq's reason.
    public init(_ conninfo: String) throws(PGError) {
        guard let connection = PQconnectdb(conninfo) else { throw PGError("cannot connect to PostgreSQL: out of memory") }
        let target = Self.describe(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.lastError(connection)
            PQfinish(connection)
            throw PGError("cannot connect to \(target): \(reason)", connectionLost: true)
        }
        // Notices ("relation already exists, skipping") are the server talking to itself, not to the user.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.handle = connection
        self.target = target
    }

    deinit { PQfinish(handle) }

    /// This session's server process id (the sender of its own notifications).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Whether the connection still works as far as libpq knows.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with `$1 …` parameters sent apart from the SQL (nil is NULL), and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = [], types: [UInt32]? = nil) throws(PGError) -> PGRows {
        let result = run(sql, parameters, types: types)
        defer { PQclear(result) }
        return try rows(of: result, sql: sql)
    }

    /// Runs several statements separated by semicolons, without parameters (migrations, DDL).
    public func executeScript(_ sql: String) throws(PGError) {
        var result = PQexec(handle, sql)
        while let current = result {
            defer { PQclear(current) }
            _ = try rows(of: current, sql: sql)
            result = PQgetResult(handle)
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// `begin` may set the transaction's mode (`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`).
    public func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isConnected { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Streams rows into `COPY … FROM STDIN` (text format): `body` writes them through the writer.
    @discardableResult
    public func copyIn(_ sql: String, _ body: (inout PGCopyWriter) throws -> Void) throws -> Int {
        let start = PQexec(handle, sql)
        defer { PQclear(start) }
        guard PQresultStatus(start) == PGRES_COPY_IN else { _ = try rows(of: start, sql: sql); throw failure(start, sql) }
        var writer = PGCopyWriter(send: { [handle, target] bytes throws(PGError) in
            let sent = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
            }
            guard sent == 1 else { throw Self.copyFailure(handle, target) }
        })
        do {
            try body(&writer)
            try writer.flush()
        } catch {
            _ = PQputCopyEnd(handle, "errtriage stopped the copy")
            drainResults()
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else { throw Self.copyFailure(handle, target) }
        var changed = 0
        var firstError: PGError?
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            do { changed += try rows(of: result, sql: sql).changed } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
        return changed
    }

    /// Sends rows built in COPY's binary format (`PGBinaryRows`) to `COPY … FROM STDIN WITH (FORMAT
    /// binary)`: integers as eight bytes and texts as they are, so neither side prints or parses
    /// a number or escapes a text. Returns the rows the server took.
    @discardableResult
    public func copyIn(_ sql: String, binary rows: PGBinaryRows) throws -> Int {
        try copyIn(sql) { writer in
            try writer.raw(rows.bytes)
            try writer.raw([0xFF, 0xFF])  // the trailer
        }
    }

    /// Starts listening on `channel`: its notifications arrive through `notifications(waitingUpTo:)`.
    public func listen(_ channel: String) throws(PGError) {
        try execute("LISTEN \(quoteIdentifier(channel))")
    }

    /// The notifications received so far, waiting up to `milliseconds` for the first when there are none.
    public func notifications(waitingUpTo milliseconds: Int32 = 0) throws(PGError) -> [PGNotification] {
        var received = try pendingNotifications()
        if received.isEmpty, milliseconds > 0, errtriage_pq_wait_readable(handle, milliseconds) == 1 {
            received = try pendingNotifications()
        }
        return received
    }

    /// `name` quoted as an SQL identifier.
    public func quoteIdentifier(_ name: String) -> String {
        guard let quoted = PQescapeIdentifier(handle, name, name.utf8.count) else { return "\"\"" }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    private func pendingNotifications() throws(PGError) -> [PGNotification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PGError("lost the connection to \(target): \(Self.lastError(handle))", connectionLost: true)
        }
        var received: [PGNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(PGNotification(channel: String(cString: notify.pointee.relname),
                                           payload: String(cString: notify.pointee.extra),
                                           senderPID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return received
    }

    /// Prepares `sql` under `name` on this connection, its parameters' types inferred by the server.
    public func prepare(_ name: String, _ sql: String) throws(PGError) {
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        _ = try rows(of: result, sql: sql)
    }

    /// Runs the statement prepared under `name` with these parameters (text format).
    @discardableResult
    public func executePrepared(_ name: String, _ parameters: [String?], sql: String) throws(PGError) -> PGRows {
        let result = withCStrings(parameters) { pointers in
            PQexecPrepared(handle, name, Int32(parameters.count), pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        return try rows(of: result, sql: sql)
    }

    private func run(_ sql: String, _ parameters: [String?], types: [UInt32]?) -> OpaquePointer? {
        guard !parameters.isEmpty else { return PQexec(handle, sql) }
        return withCStrings(parameters) { pointers in
            if let types {
                return types.map { Oid($0) }.withUnsafeBufferPointer { oids in
                    PQexecParams(handle, sql, Int32(parameters.count), oids.baseAddress, pointers, nil, nil, 0)
                }
            }
            return PQexecParams(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
    }

    private func withCStrings<T>(_ parameters: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { values.forEach { free($0) } }
        return values.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress) }
        }
    }

    /// Runs a query whose columns are all integers and hands each row to `body` as values read
    /// in place from the result (NULL as 0): no string per value, for the rollup reads of lists.
    public func forEachIntegers(_ sql: String, _ parameters: [String?], types: [UInt32]?, columns: Int,
                                _ body: (UnsafeBufferPointer<Int64>) throws -> Void) throws {
        let result = run(sql, parameters, types: types)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { _ = try rows(of: result, sql: sql); return }
        let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: columns)
        defer { buffer.deallocate() }
        for row in 0..<PQntuples(result) {
            for field in 0..<columns {
                let f = Int32(field)
                buffer[field] = PQgetisnull(result, row, f) == 1 ? 0 : strtoll(PQgetvalue(result, row, f), nil, 10)
            }
            try body(UnsafeBufferPointer(buffer))
        }
    }

    private func rows(of result: OpaquePointer?, sql: String) throws(PGError) -> PGRows {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_COPY_IN:
            return PGRows(columns: [], rows: [], changed: Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            let fields = Int32(PQnfields(result))
            let columns = (0..<fields).map { String(cString: PQfname(result, $0)) }
            let rows = (0..<PQntuples(result)).map { row in
                (0..<fields).map { field in
                    PQgetisnull(result, row, field) == 1 ? nil : String(cString: PQgetvalue(result, row, field))
                }
            }
            let types = (0..<fields).map { UInt32(PQftype(result, $0)) }
            return PGRows(columns: columns, types: types, rows: rows, changed: Int(String(cString: PQcmdTuples(result))) ?? 0)
        default:
            throw failure(result, sql)
        }
    }

    private func failure(_ result: OpaquePointer?, _ sql: String) -> PGError {
        let lost = PQstatus(handle) != CONNECTION_OK
        if lost { return PGError("lost the connection to \(target): \(Self.lastError(handle))", connectionLost: true) }
        // PG_DIAG_SQLSTATE is a character macro, which Swift does not import.
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        let reason = message.isEmpty ? Self.lastError(handle) : Self.firstLine(message)
        return PGError("\(target): \(reason)", sqlState: state)
    }

    private func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    /// A COPY that could not send its rows: the connection is lost (the usual case), or the
    /// server refused them; either way one sentence naming the server.
    private static func copyFailure(_ connection: OpaquePointer, _ target: String) -> PGError {
        let lost = PQstatus(connection) != CONNECTION_OK
        return PGError(lost ? "lost the connection to \(target): \(lastError(connection))" : "\(target): COPY failed: \(lastError(connection))",
                       connectionLost: lost)
    }

    private static func describe(_ connection: OpaquePointer) -> String {
        let host = PQhost(connection).map { String(cString: $0) } ?? ""
        let port = PQport(connection).map { String(cString: $0) } ?? ""
        let database = PQdb(connection).map { String(cString: $0) } ?? ""
        // A Unix socket's folder is a long path; psql calls it [local], and so do we.
        let shown = host.isEmpty ? "localhost" : host.hasPrefix("/") ? "[local]" : host
        return "\(shown):\(port.isEmpty ? "5432" : port)/\(database)"
    }

    private static func lastError(_ connection: OpaquePointer) -> String {
        firstLine(PQerrorMessage(connection).map { String(cString: $0) } ?? "")
    }

    /// libpq's messages end in a newline and may carry a `DETAIL:` line; the first line says it.
    private static func firstLine(_ message: String) -> String {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        let trimmed = line.hasPrefix("ERROR:  ") ? String(line.dropFirst(8)) : line
        return trimmed.isEmpty ? "unknown error" : trimmed
    }
}

/// Writes rows in COPY's text format, in chunks, for `PGConnection.copyIn`.
public struct PGCopyWriter {
    private var buffer: [UInt8] = []
    private let send: ([UInt8]) throws(PGError) -> Void

    init(send: @escaping ([UInt8]) throws(PGError) -> Void) {
        self.send = send
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends one row; nil is NULL. Tabs, newlines and backslashes in values are escaped.
    public mutating func row(_ values: [String?]) throws(PGError) {
        for (i, value) in values.enumerated() {
            if i > 0 { buffer.append(0x09) }
            guard let value else { buffer.append(contentsOf: [0x5C, 0x4E]); continue }  // \N
            for byte in value.utf8 {
                switch byte {
                case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
                case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
                case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
                default: buffer.append(byte)
                }
            }
        }
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Sends bytes as they are (a binary COPY's stream).
    mutating func raw(_ bytes: [UInt8]) throws(PGError) {
        try flush()
        try send(bytes)
    }

    mutating func flush() throws(PGError) {
        guard !buffer.isEmpty else { return }
        try send(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Rows in COPY's binary format, built in one buffer: a row starts with its number of fields,
/// then each field is its length and its bytes (-1: NULL); an integer is eight bytes, big-endian,
/// for a `bigint` column; a text its UTF-8 bytes for a `text` column. The columns' types must be
/// those the COPY's table gives them: the server reads the bytes as that type.
public struct PGBinaryRows {
    /// The header and the rows so far (`copyIn(_:binary:)` adds the trailer).
    fileprivate private(set) var bytes: [UInt8]
    /// How many rows were begun.
    public private(set) var count = 0

    public init(reserving capacity: Int = 1 << 16) {
        bytes = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]  // "PGCOPY\n\377\r\n\0"
        bytes.reserveCapacity(capacity)
        bytes += [0, 0, 0, 0, 0, 0, 0, 0]  // flags, header extension length
    }

    /// Begins a row of `fields` fields.
    public mutating func row(fields: Int) {
        count += 1
        append16(Int16(fields))
    }

    public mutating func integer(_ value: Int64) {
        append32(8)
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func integer(_ value: Int64?) {
        guard let value else { return null() }
        integer(value)
    }

    public mutating func integer(_ value: Int) { integer(Int64(value)) }

    public mutating func text(_ value: String?) {
        guard var value else { return null() }
        let done = value.utf8.withContiguousStorageIfAvailable { utf8 in
            append32(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        if done == nil {
            value.makeContiguousUTF8()
            text(value)
        }
    }

    public mutating func null() { append32(-1) }

    private mutating func append16(_ value: Int16) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
    private mutating func append32(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
}
