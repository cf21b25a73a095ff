import GRDB

extension TriageStore {
    /// Schema 7: the versions events name, kept at ingest, so that "the latest version" (the
    /// report's `new_in`, the release screen) reads a few rows rather than every event.
    static func migrateToV7(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE TABLE app_version (version TEXT PRIMARY KEY) WITHOUT ROWID;
            INSERT INTO app_version SELECT DISTINCT app_version FROM event WHERE app_version IS NOT NULL;
            PRAGMA user_version = 7;
            """)
    }
}
