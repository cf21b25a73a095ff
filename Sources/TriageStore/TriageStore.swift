#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import TriageModel

/// Why the store cannot be opened or written; the CLI exits with code 3.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// A refusal of what the user asked (a key the store does not hold, a name no view has, a mark that
    /// does not apply): a usage error, exit 1, not a store failure (exit 3).
    public var isUsageError: Bool
    /// The disk is below the free-space floor (`belowFloor`): try again once space is back.
    public var isBelowFloor = false
    /// The store refused one submission's records while it took the others of their group
    /// (`GroupCommitter` isolates them): that sender's data, not the store, is at fault.
    public var isRefusedData = false
    public init(_ message: String, isUsageError: Bool = false) {
        self.message = message
        self.isUsageError = isUsageError
    }

    static func newerSchema(_ path: String, _ found: Int) -> StoreError {
        StoreError("\(path) was written by a newer errtriage (schema \(found), this one knows \(TriageStore.schemaVersion)); upgrade errtriage to open it")
    }

    static func unknownKey(_ key: String) -> StoreError {
        StoreError("no issue has the key \(key)", isUsageError: true)
    }
    /// A refusal about what the user asked (a usage error, exit 1), not a store failure.
    static func usage(_ message: String) -> StoreError {
        StoreError(message, isUsageError: true)
    }
    public var description: String { message }
}

/// The store: owns the schema, its migrations, and every query and write errtriage makes, on
/// SQLite (a file, the embedded default) or on PostgreSQL (the team store, a `postgres://` URI).
///
/// SQLite: WAL journal with `synchronous=NORMAL`: a committed transaction survives a crash of the
/// process; a power loss may cost the last transactions, never consistency.
public final class TriageStore: Sendable {
    /// The schema version this build writes; a store with a higher one is refused.
    public static let schemaVersion = schemaSteps.last!.version

    /// How messages name the store: the file's path, or for PostgreSQL `host:port/dbname` (never the password).
    public var target: String { engine.target }
    public let readOnly: Bool
    let engine: any StoreEngine
    /// Where the store lives, resolved once from the location it was opened at.
    let place: any StoreLocation
    /// The zstd dictionaries kept payloads are compressed with, each digested once.
    let dictionaries = PayloadDictionaries()

    /// Whether the store is a team store on PostgreSQL rather than an SQLite file.
    public var isTeamStore: Bool { place.isTeamStore }

    /// How much of the file a reading connection maps.
    static let readerMapBytes: Int64 = 1 << 30

    /// Opens (creating when missing and writable) the store at `path` and brings its schema up to date.
    /// `path` is a file, or a `postgres://` URI for the team store.
    /// `maxPages` caps the file at that many pages (4 KiB each): a write beyond fails as on a full
    /// disk, which is how the tests make one; it also keeps a store under a quota. `create: false`
    /// refuses a PostgreSQL database that holds no store yet (an SQLite caller looks for the file).
    public init(path: String, readOnly: Bool = false, maxPages: Int? = nil, create: Bool = true) throws(StoreError) {
        place = TriageStore.locate(path)
        engine = try place.openEngine(readOnly: readOnly, maxPages: maxPages, create: create)
        self.readOnly = !engine.canWrite
    }

    /// A counter that every committed write raises: the dashboard polls it to reload.
    /// On PostgreSQL it is read again only when a commit was notified (LISTEN/NOTIFY), or when
    /// the notifications cannot be trusted (a listener just connected, or lost).
    public func revision() throws(StoreError) -> Int64 {
        do { return try engine.revision() } catch { throw StoreError.describing(error, path: target) }
    }

    /// The newest event's time, nil for an empty store.
    public func latestEventTime() throws(StoreError) -> Timestamp? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(last_seen) FROM issue").map(Timestamp.init(millis:)) }
    }

    /// Runs `body` on one consistent snapshot of the store.
    func read<T>(_ body: (SQLDatabase) throws -> T) throws(StoreError) -> T {
        do { return try engine.read(body) } catch { throw StoreError.describing(error, path: target) }
    }

    /// Runs `body` in one write transaction, which raises the revision (and, on PostgreSQL,
    /// tells every listening dashboard). Writers take turns: SQLite's lock, or on PostgreSQL an
    /// advisory lock taken first, so two ingests never interleave their batches.
    func write<T>(_ body: (SQLDatabase) throws -> T) throws(StoreError) -> T {
        guard !readOnly else { throw engine.readOnlyError }
        do {
            return try engine.write(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.describing(error, path: target)
        }
    }

    /// The channel a PostgreSQL store notifies on each commit.
    public static let channel = "errtriage"
}

extension StoreError {
    /// One clear sentence for an SQLite or GRDB failure.
    static func describing(_ error: Error, path: String) -> StoreError {
        if let e = error as? StoreError { return e }
        if let pg = error as? PGError {
            if pg.sqlState == "42501" {
                return StoreError("\(path) is read-only for this role; nothing can be written (marks, notes and ingest need a role that may write)")
            }
            return StoreError(pg.message)
        }
        if let db = error as? DatabaseError {
            switch db.resultCode {
            case .SQLITE_NOTADB: return StoreError("\(path) is not an errtriage store (not an SQLite database)")
            case .SQLITE_CORRUPT: return StoreError("\(path) is damaged (SQLite reports corruption); restore it from a backup")
            case .SQLITE_CANTOPEN: return StoreError("cannot open \(path): the folder does not exist or is not accessible")
            case .SQLITE_READONLY: return StoreError("\(path) is read-only; nothing can be written")
            case .SQLITE_FULL: return StoreError("the disk holding \(path) is full (or the store reached its size limit); the write in progress was undone")
            case .SQLITE_BUSY, .SQLITE_LOCKED: return StoreError("\(path) stayed locked by another errtriage for too long; try again")
            case .SQLITE_PERM, .SQLITE_AUTH: return StoreError("permission denied on \(path)")
            default: return StoreError("\(path): \(db.message ?? "\(db.resultCode)")")
            }
        }
        return StoreError("\(path): \(error)")
    }
}

extension TriageStore {
    /// Copies the store to a new SQLite file: a consistent snapshot of every committed row, taken
    /// while other processes go on reading and writing; SQLite's online backup, or for a team store
    /// a copy from one snapshot (`copy(to:)`). The caller makes sure `target` is a new file, and
    /// removes it if this throws.
    public func backup(to target: String) throws(StoreError) {
        try engine.backup(self, to: target)
    }
}

extension TriageStore {
    /// The revision counter as stored (every committed write raised it).
    static func storedRevision(_ db: SQLDatabase) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'revision'") ?? 0
    }

    /// The schema version the store records: SQLite's `user_version`, PostgreSQL's `meta.schema`.
    static func storedSchemaVersion(_ db: SQLDatabase) throws -> Int { try db.schemaVersion() }

    /// Sets the recorded schema version (tests make a store from a newer errtriage with it).
    static func setStoredSchemaVersion(_ db: SQLDatabase, _ version: Int) throws { try db.setSchemaVersion(version) }
}

extension TriageStore {
    /// The bytes the store takes: the file (with its WAL), or the PostgreSQL database.
    public func databaseBytes() throws(StoreError) -> Int64 {
        do { return try engine.bytes() } catch { throw StoreError.describing(error, path: target) }
    }
}

extension TriageStore {
    /// The tables whose statistics a bulk write refreshes on PostgreSQL: those the dashboard reads.
    static let analyzedTables = ["issue", "issue_day", "issue_hour", "issue_day_dim", "issue_user", "user_seen", "total_hour",
                                 "total_day", "complaint", "complaint_code", "app_version", "issue_month",
                                 "issue_day_facet"]

    /// After a bulk write, PostgreSQL's planner statistics of the tables the dashboard reads
    /// (its autovacuum would come to it later; until then a fresh store's lists take the plans
    /// of an empty one). The events are left to autovacuum: only their counts in rollups are read.
    /// Nothing to do on SQLite, whose planner needs no statistics for these queries.
    public func refreshStatistics() throws(StoreError) {
        guard !readOnly else { return }
        do { try engine.refreshStatistics(tables: TriageStore.analyzedTables) } catch { throw StoreError.describing(error, path: target) }
    }
}
