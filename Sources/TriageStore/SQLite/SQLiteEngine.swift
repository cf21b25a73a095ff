#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// An SQLite file: a pool of a writer and readers (WAL journal with `synchronous=NORMAL`: a
/// committed transaction survives a crash of the process; a power loss may cost the last
/// transactions, never consistency), its schema brought up to date by the migrations.
final class SQLiteEngine: StoreEngine, Sendable {
    let pool: DatabasePool
    let target: String
    let canWrite: Bool
    /// How this store's writers take turns with other processes' (`WriterTurns`).
    let turns: WriterTurns

    init(path: String, readOnly: Bool, maxPages: Int?) throws(StoreError) {
        target = path
        canWrite = !readOnly
        let turns = WriterTurns(storePath: path, writable: !readOnly)
        self.turns = turns
        var config = Configuration()
        config.readonly = readOnly
        config.foreignKeysEnabled = true
        config.label = "errtriage"
        config.prepareDatabase { db in
            // A locked file is waited for as long as its holder progresses, not a fixed time.
            turns.install(on: db, writes: !db.configuration.readonly)
            if !db.configuration.readonly {
                // A new file keeps incremental auto-vacuum, so that a prune gives its pages back
                // (`reclaimSpace`); SQLite takes the setting only before the first table.
                if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 {
                    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // Ingest updates the event index and the user rollups at random places: a writer's
                // page cache of 16 MiB (SQLite's default is 2 MiB) keeps most of them in memory.
                // Measured on 1M events: 8 MiB 49.7 s / 78 MB RSS, 16 MiB 39.6 s / 88 MB, 32 MiB
                // 48.3 s / 106 MB. Readers keep the default, so the dashboard stays small.
                try db.execute(sql: "PRAGMA cache_size = -16384")
            }
            if let maxPages { _ = try GRDB.Row.fetchOne(db, sql: "PRAGMA max_page_count = \(maxPages)") }
            if db.configuration.readonly {
                // Readers map the file (its first GiB) rather than copy each page through SQLite's
                // small cache: the 24-hour detail reads a few thousand events scattered over the
                // file, 29 ms copied and 17 ms mapped at 1M events. Only the pages read count in
                // the process's memory (the dashboard's report stays at 40 MB). The writer does
                // not: ingest touches most of the file, and its memory would count all of it.
                _ = try GRDB.Row.fetchOne(db, sql: "PRAGMA mmap_size = \(TriageStore.readerMapBytes)")
            }
        }
        do {
            if !readOnly { try SQLiteLocation(location: path).probe() }
            pool = try DatabasePool(path: path, configuration: config)
            let found = try pool.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            guard found <= TriageStore.schemaVersion else { throw StoreError.newerSchema(path, found) }
            if !readOnly {
                try TriageStore.migrateSQLite(pool)
            } else if found < TriageStore.schemaVersion {
                throw StoreError("\(path) needs a schema upgrade, which a read-only store cannot take")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw turns.takeStall().map { StoreError($0) } ?? StoreError.describing(error, path: path)
        }
    }

    func read<T>(_ body: (SQLDatabase) throws -> T) throws -> T {
        do {
            return try pool.read { db in try body(SQLDatabase(GRDBConnection(db), writes: RowByRowWrites())) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw turns.takeStall().map { StoreError($0) } ?? error
        }
    }

    func write<T>(_ body: (SQLDatabase) throws -> T) throws -> T {
        try turn { grdb in
            let db = SQLDatabase(GRDBConnection(grdb), writes: RowByRowWrites())
            let result = try body(db)
            try db.execute(sql: "UPDATE meta SET value = value + 1 WHERE key = 'revision'")
            return result
        }
    }

    /// One write transaction as a turn (`WriterTurns`): the mark says who writes when it starts
    /// and advances at its commit; a waiting writer of another process then goes first. A wait
    /// that gave up on a holder doing nothing is a `StoreError` naming it.
    func turn<T>(transaction: Bool = true, _ body: (Database) throws -> T) throws -> T {
        defer { turns.yieldToWaiters() }
        do {
            let result = try transaction
                ? pool.write { db in turns.began(); return try body(db) }
                : pool.writeWithoutTransaction { db in turns.began(); return try body(db) }
            turns.advanced()
            return result
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw turns.takeStall().map { StoreError($0) } ?? error
        }
    }

    func revision() throws -> Int64 { try read(TriageStore.storedRevision) }

    func integrityCheck() -> [String] { TriageStore.integrityCheck(pool) }
    var integrityNote: String { "integrity ok; " }

    /// SQLite's online backup: a consistent snapshot of every committed row, taken while other
    /// processes go on reading and writing.
    func backup(_ store: TriageStore, to path: String) throws(StoreError) {
        do {
            let copy = try DatabaseQueue(path: path)
            try pool.backup(to: copy)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch {
            throw StoreError.describing(error, path: path)
        }
    }

    /// SQLite's planner needs no statistics for these queries.
    func refreshStatistics(tables: [String]) throws {}

    var rejectsPath: String { target + ".rejects" }

    /// The file with its WAL.
    func bytes() throws -> Int64 {
        var total: Int64 = 0
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(target + suffix, &info) == 0 { total += Int64(info.st_size) }
        }
        return total
    }

    var readOnlyError: StoreError { StoreError("\(target) is open read-only; nothing can be written") }
}
