import GRDB

extension TriageStore {
    /// v4, for finding and owning issues:
    /// - `issue.assignee` (the person working on it) and `issue.owner` (the team an owner rule or a
    ///   person gave it), NULL when nobody.
    /// - `saved_view`: a named query with its ranking and window, shared by everyone on the store.
    /// - `owner_rule`: queries over the chain with the owner they route to, tried in `id` order.
    /// - `alert_rule` and `alert_fired`: alerts for a cron job and the issues each has fired for
    ///   (an issue resolved after its firing re-arms); `meta.alerts_run` is the last run's time.
    static func migrateToV4(_ db: GRDB.Database) throws {
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
            CREATE TABLE alert_rule (
                name TEXT PRIMARY KEY,
                query TEXT NOT NULL,
                measure TEXT NOT NULL,
                threshold INTEGER NOT NULL,
                within TEXT NOT NULL
            );
            CREATE TABLE alert_fired (
                alert TEXT NOT NULL,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                fired_at INTEGER NOT NULL,
                PRIMARY KEY (alert, issue_id)
            );
            PRAGMA user_version = 4;
            """)
    }
}
