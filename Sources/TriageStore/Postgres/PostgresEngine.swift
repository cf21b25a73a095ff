/// The team store: one session on a PostgreSQL database; writers take turns by an advisory lock,
/// and each commit is notified to every listening dashboard.
final class PostgresEngine: StoreEngine, Sendable {
    let session: PGSession
    let canWrite: Bool
    var target: String { session.target }

    init(uri: String, readOnly: Bool, create: Bool) throws(StoreError) {
        do { session = try PGSession(conninfo: uri) } catch { throw StoreError.describing(error, path: uri) }
        let (writable, found) = try TriageStore.openPostgres(session, create: create && !readOnly)
        canWrite = !readOnly && writable
        if found == 0 { throw StoreError("no store at \(session.target): add events with errtriage ingest FILE --store URI") }
    }

    func read<T>(_ body: (SQLDatabase) throws -> T) throws -> T {
        try session.exclusive {
            try session.connection.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body(session.database) }
        }
    }

    func write<T>(_ body: (SQLDatabase) throws -> T) throws -> T {
        try session.exclusive {
            do {
                let result = try session.connection.transaction {
                    try session.takeWriterLock()
                    let result = try body(session.database)
                    try session.run("UPDATE meta SET value = value + 1 WHERE key = 'revision'", [])
                    try session.run("NOTIFY \(TriageStore.channel)", [])
                    return result
                }
                session.vacuumStagingIfDue()
                return result
            } catch {
                session.stagingTables = []
                throw error
            }
        }
    }

    /// Read again only when a commit was notified (LISTEN/NOTIFY), or when the notifications
    /// cannot be trusted (a listener just connected, or lost).
    func revision() throws -> Int64 {
        do {
            return try session.exclusive {
                if session.notified(channel: TriageStore.channel) == false, let known = session.knownRevision { return known }
                let value = try TriageStore.storedRevision(session.database)
                session.knownRevision = value
                return value
            }
        } catch {
            session.knownRevision = nil
            throw error
        }
    }

    /// The server checks its own pages and constraints as it writes.
    func integrityCheck() -> [String] { ["ok"] }
    var integrityNote: String { "" }

    /// A copy from one snapshot into a new SQLite file.
    func backup(_ store: TriageStore, to path: String) throws(StoreError) {
        _ = try store.copy(to: TriageStore(path: path))
    }

    func refreshStatistics(tables: [String]) throws {
        _ = try session.exclusive { try session.run("ANALYZE " + tables.joined(separator: ", "), []) }
    }

    /// A team store has no folder of its own: the current folder, by the database's name.
    var rejectsPath: String { "errtriage-\(target.split(separator: "/").last.map(String.init) ?? "store").rejects" }

    func bytes() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT pg_database_size(current_database())") ?? 0 }
    }

    var readOnlyError: StoreError {
        StoreError("\(target) is read-only for this role; nothing can be written (marks, notes and ingest need a role that may write)")
    }
}
