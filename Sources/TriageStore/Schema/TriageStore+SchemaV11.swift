import GRDB

extension TriageStore {
    /// The figures of pruned events that the other rollups cannot give again once the events are
    /// gone: distinct users per issue and month (`history`), and per app version and day and per
    /// version over all time (`releases`, `release`). A prune writes them for whole months, from
    /// the events it is about to delete, in the transaction that moves the store's raw horizon
    /// (`meta.events_since`). Issue 0 stands for all issues together. The same SQL on both engines
    /// (`text` is PostgreSQL's byte-ordered text type, SQLite's TEXT). Schema 12 replaces the first
    /// with `issue_month.distinct_users`, kept at ingest (`TriageStore+SchemaV12.swift`).
    static func retentionTables(text t: String) -> String {
        """
        CREATE TABLE pruned_month_users (
            issue_id BIGINT NOT NULL, month BIGINT NOT NULL, users BIGINT NOT NULL,
            PRIMARY KEY (issue_id, month)
        );
        \(prunedVersionTables(text: t))
        """
    }

    /// The figures per app version of pruned events (`releases`, `release`).
    static func prunedVersionTables(text t: String) -> String {
        """
        CREATE TABLE pruned_version_day (
            app_version \(t) NOT NULL, day BIGINT NOT NULL, issue_id BIGINT NOT NULL,
            events BIGINT NOT NULL, users BIGINT NOT NULL, first_ts BIGINT NOT NULL, last_ts BIGINT NOT NULL,
            PRIMARY KEY (app_version, day, issue_id)
        );
        CREATE TABLE pruned_version_users (
            app_version \(t) NOT NULL, user_id \(t) NOT NULL,
            PRIMARY KEY (app_version, user_id)
        );
        """
    }

    /// v11, retention: the tables of pruned events' figures (`retentionTables`). The retention
    /// setting and the raw horizon are keys of `meta`; no other table changes.
    static func migrateToV11(_ db: GRDB.Database) throws {
        try db.execute(sql: retentionTables(text: "TEXT") + "PRAGMA user_version = 11;")
    }
}
