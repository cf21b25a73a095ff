import GRDB
import TriageModel

extension TriageStore {
    /// v5, for releases (independent of v4's tables):
    /// - `event_by_version` covers what the release questions read (version, time, issue, user), so
    ///   a version's figures are an index range, not a scan of events.
    /// - `adoption_day`: a day's active users (and sessions) of a version, from an analytics CSV.
    /// - `adoption_session`: one app session of Firebase's sessions export (unique by its id, so
    ///   the same export read twice counts once); active users are its distinct installations.
    /// Plain SQL that PostgreSQL runs too (no WITHOUT ROWID, no SQLite-only types).
    static func migrateToV5(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE INDEX event_by_version ON event(app_version, ts, issue_id, user_id);
            CREATE TABLE adoption_day (
                day INTEGER NOT NULL,
                version TEXT NOT NULL,
                users INTEGER NOT NULL,
                sessions INTEGER,
                PRIMARY KEY (day, version)
            );
            CREATE TABLE adoption_session (
                session_id TEXT PRIMARY KEY,
                day INTEGER NOT NULL,
                version TEXT NOT NULL,
                installation TEXT NOT NULL
            );
            CREATE INDEX adoption_session_by_version ON adoption_session(version, day, installation);
            PRAGMA user_version = 5;
            """)
    }
}
