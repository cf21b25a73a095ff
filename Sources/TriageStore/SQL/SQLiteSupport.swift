import GRDB

extension TriageStore {
    /// `PRAGMA integrity_check`'s lines (`["ok"]` for a sound file). SQLite may list damage and
    /// then stop on it: the lines it gave are kept and the stop is said. Run outside a
    /// transaction, whose commit would fail on the same damage.
    static func integrityCheck(_ pool: DatabasePool) -> [String] {
        var integrity: [String] = []
        do {
            try pool.unsafeRead { db in
                let lines = try String.fetchCursor(db, sql: "PRAGMA integrity_check")
                while let line = try lines.next() { integrity.append(line) }
            }
        } catch {
            integrity.append("stopped: " + ((error as? DatabaseError)?.message ?? "\(error)"))
        }
        return integrity
    }
}

extension TriageStore {
    /// Makes an SQLite store of an older schema (migrated up to `migration`, then `script` run):
    /// how the tests build the stores an earlier errtriage wrote.
    static func makeOldSQLiteStore(at path: String, upTo migration: String, script: String) throws {
        let queue = try DatabaseQueue(path: path)
        try migrator.migrate(queue, upTo: migration)
        try queue.write { db in try db.execute(sql: script) }
        try queue.close()
    }
}
