import TestSupport
@testable import TriageStore

/// A store made to look as an older errtriage left it, as far as its record of its schema goes:
/// the version, and on SQLite the migrator's names of every later step (so that each runs again).
/// The tables and rows the later steps made are each test's own to take away.
enum SchemaRewind {
    static func forgetSteps(after version: Int, _ db: SQLDatabase) throws {
        if !TemporaryStore.onPostgres {
            for step in TriageStore.schemaSteps where step.version > version {
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [step.name])
            }
        }
        try TriageStore.setStoredSchemaVersion(db, version)
    }
}
