import GRDB

extension TriageStore {
    /// v4, for finding and owning issues:
    /// - `issue.assignee` (the person working on it) and `issue.owner` (the team an owner rule or a
    ///   person gave it), NULL when nobody.
    /// - `saved_view`: a named query with its ranking and window, shared by everyone on the store.
    /// - `owner_rule`: queries over the chain with the owner they route to, tried in `id` order.
    static func migrateToV4(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE issue ADD COLUMN assignee TEXT;
            ALTER TABLE issue ADD COLUMN owner TEXT;
            CREATE TABLE saved_view (
                name TEXT PRIMARY KEY,
                query TEXT NOT NULL,
                rank_by TEXT,
                time_window TEXT,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE owner_rule (
                id INTEGER PRIMARY KEY,
                query TEXT NOT NULL,
                owner TEXT NOT NULL
            );
            PRAGMA user_version = 4;
            """)
    }
}
