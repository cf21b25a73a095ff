#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// An SQLite file's location: whether the file is there, may be written, and holds an older
/// schema or a creation cut short are read from the file itself, before anything opens it for
/// writing. Each is asked afresh, when opening asks.
struct SQLiteLocation: StoreLocation {
    let location: String

    var exists: Bool { access(location, F_OK) == 0 }

    /// The system allows a write, and the file's permissions leave a write bit (so that `chmod a-w`
    /// protects a store even from root, who may write anything).
    var isWritable: Bool {
        guard access(location, W_OK) == 0 else { return false }
        var info = stat()
        guard stat(location, &info) == 0 else { return true }
        return info.st_mode & 0o222 != 0
    }

    var writabilityIsKnownOnOpening: Bool { false }

    var needsUpgrade: Bool {
        guard let found = try? storedVersion() else { return false }
        return found > 0 && found < TriageStore.schemaVersion
    }

    /// Schema 0 and no table but the migrator's: a writer's open completes it.
    var isUnfinished: Bool {
        guard exists else { return false }
        guard let queue = try? DatabaseQueue(path: location, configuration: readerConfiguration()) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { db in
            try Int.fetchOne(db, sql: "PRAGMA user_version") == 0
                && Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'grdb%'") == 0
        }) ?? false
    }

    var isTeamStore: Bool { false }

    func openEngine(readOnly: Bool, maxPages: Int?, create: Bool) throws(StoreError) -> any StoreEngine {
        try SQLiteEngine(path: location, readOnly: readOnly, maxPages: maxPages)
    }

    /// Reads an existing file before anything opens it for writing (a writer's open already writes,
    /// to set up the WAL): a file that is not an SQLite database, whose first page is damaged, or
    /// whose schema is newer is refused untouched.
    func probe() throws {
        guard let found = try storedVersion() else { return }
        guard found <= TriageStore.schemaVersion else { throw StoreError.newerSchema(location, found) }
    }

    /// The schema version of the file, read without writing it; nil when there is no file.
    func storedVersion() throws -> Int? {
        guard exists else { return nil }
        let queue = try DatabaseQueue(path: location, configuration: readerConfiguration())
        let found = try queue.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
            return try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        }
        try queue.close()
        return found
    }

    /// A read-only connection that waits for a writer of another process as the store's own do
    /// (`WriterTurns`): a look at the file while another process closes it or recovers its WAL
    /// (a moment of an exclusive lock) is not refused at once.
    func readerConfiguration() -> Configuration {
        var config = Configuration()
        config.readonly = true
        let turns = WriterTurns(storePath: location, writable: false)
        config.prepareDatabase { db in turns.install(on: db, writes: false) }
        return config
    }
}
