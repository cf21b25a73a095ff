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
