import GRDB

extension TriageStore {
    /// Schema 15's step, the same on both engines but for the text's type: each key keeps the URL
    /// `key add --url` gave (`dsn_base`, null when none was given), so `key list` prints the DSN
    /// that was handed out.
    static func keyURLColumn(text: String) -> String {
        "ALTER TABLE project_key ADD COLUMN dsn_base \(text)"
    }

    /// v15: the server's URL of each key.
    static func migrateToV15(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(keyURLColumn(text: "TEXT"));
            PRAGMA user_version = 15;
            """)
    }
}
