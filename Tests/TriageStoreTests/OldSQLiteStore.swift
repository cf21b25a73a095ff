import GRDB
@testable import TriageStore

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
