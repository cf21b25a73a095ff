import GRDB

extension TriageStore {
    /// The projects' tables, the same on both engines but for their types (`text` and `integer`
    /// are `TEXT COLLATE "C"` and `BIGINT` on PostgreSQL, where the id is an identity).
    /// - `project`: a name and a small id, the number a DSN ends with.
    /// - `project_key`: the public keys of each project; a revoked key keeps its row and its time.
    static func projectTables(text: String, integer: String, id: String) -> String {
        """
        CREATE TABLE project (
            id \(id),
            name \(text) NOT NULL UNIQUE,
            created_at \(integer) NOT NULL
        );
        CREATE TABLE project_key (
            public_key \(text) PRIMARY KEY,
            project_id \(integer) NOT NULL REFERENCES project(id),
            created_at \(integer) NOT NULL,
            revoked_at \(integer)
        );
        CREATE INDEX project_key_by_project ON project_key(project_id);
        """
    }

    /// Every stored event has no project: the project rollup files them all under `unknown`, as
    /// ingest files an event without one (each event is counted once under the kind dimension).
    static let projectRollupOfOldEvents = """
        INSERT INTO issue_day_dim (issue_id, dim, value, day, events)
        SELECT issue_id, 'project', 'unknown', day, SUM(events) FROM issue_day_dim WHERE dim = 'kind' GROUP BY issue_id, day
        """

    /// v10: projects and their keys (what `errtriage serve` checks a request's key against), and
    /// each event's project: a text in `term`, named by `event_row.project_term`, read as the
    /// `event` view's last column, and rolled up per issue and day as the `project` dimension.
    static func migrateToV10(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            ALTER TABLE event_row ADD COLUMN project_term INTEGER;
            DROP VIEW event;
            \(eventView(of: eventRowColumnsV10));
            \(projectTables(text: "TEXT", integer: "INTEGER", id: "INTEGER PRIMARY KEY"))
            \(projectRollupOfOldEvents);
            PRAGMA user_version = 10;
            """)
    }
}
