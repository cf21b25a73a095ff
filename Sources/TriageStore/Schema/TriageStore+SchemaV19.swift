import GRDB

extension TriageStore {
    /// Schema 19's step (issue 48), the same on both engines but for the text's type: where each
    /// project's code is checked out (`repo`), how its frames' paths map into it (`path_map`, one
    /// `FROM=TO` a line) and how its releases name commits (`release_ref`); null where
    /// `errtriage project set` said nothing.
    static func projectCodeColumns(text: String) -> String {
        """
        ALTER TABLE project ADD COLUMN repo \(text);
        ALTER TABLE project ADD COLUMN path_map \(text);
        ALTER TABLE project ADD COLUMN release_ref \(text);
        """
    }

    /// v19: each project's checkout, path map and release pattern.
    static func migrateToV19(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(projectCodeColumns(text: "TEXT"))
            PRAGMA user_version = 19;
            """)
    }
}
