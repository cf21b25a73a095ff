import GRDB
import TriageModel

extension TriageStore {
    /// SQLite's migrations: each step of `schemaSteps` under its name, which an older store runs
    /// (a new one is made from `currentSchema`, `migrateSQLite`). Each one is final once
    /// released: change the schema with a new step.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in schemaSteps {
            migrator.registerMigration(step.name) { db in
                try step.sqlite(db)
                if let after = step.after {
                    try after(SQLDatabase(GRDBConnection(db), writes: RowByRowWrites()))
                    try db.execute(sql: "PRAGMA user_version = \(step.version)")
                }
            }
        }
        return migrator
    }

    /// Brings an SQLite store to the current schema: an empty file is made at once from
    /// `currentSchema`, stamped at its version with every step recorded as run (so GRDB's migrator
    /// finds nothing to do); an older store runs the steps after its own.
    static func migrateSQLite(_ writer: some DatabaseWriter) throws {
        // Immediate: two first opens at once take turns, and the second finds the schema made.
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try Int.fetchOne(db, sql: "PRAGMA user_version") == 0,
                      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'grdb%'") == 0 else { return .commit }
                try db.execute(sql: currentSchema.creation(.sqlite, version: schemaVersion))
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                for step in schemaSteps {
                    try db.execute(sql: "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)", arguments: [step.name])
                }
                return .commit
            }
        }
        try migrator.migrate(writer)
    }

    /// v1: the first schema (SQLite only: PostgreSQL stores begin at 6, made at once).
    static func migrateToV1(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO meta VALUES ('revision', 0);

            CREATE TABLE issue (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                chain TEXT NOT NULL,
                first_seen INTEGER NOT NULL,
                last_seen INTEGER NOT NULL,
                first_version TEXT,
                last_version TEXT,
                events INTEGER NOT NULL DEFAULT 0,
                status TEXT NOT NULL DEFAULT 'open',
                resolved_version TEXT,
                resolved_at INTEGER,
                muted_until INTEGER,
                mute_until_events INTEGER,
                mute_until_users INTEGER,
                tracker_url TEXT
            );
            CREATE TABLE chain_link (
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                position INTEGER NOT NULL,
                domain TEXT,
                short TEXT NOT NULL,
                code INTEGER NOT NULL,
                name TEXT,
                PRIMARY KEY (issue_id, position)
            ) WITHOUT ROWID;
            CREATE TABLE event (
                id INTEGER PRIMARY KEY,
                event_id TEXT NOT NULL UNIQUE,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                ts INTEGER NOT NULL,
                app_version TEXT, app_build TEXT, platform TEXT, os_name TEXT, os_version TEXT,
                device_model TEXT, network TEXT, orientation TEXT, app_state TEXT,
                free_ram INTEGER, free_disk INTEGER, jailbroken INTEGER,
                user_id TEXT, session_id TEXT, environment TEXT, message TEXT,
                custom_keys TEXT,
                source TEXT NOT NULL
            );
            CREATE INDEX event_by_issue_time ON event(issue_id, ts);
            CREATE TABLE complaint (
                id INTEGER PRIMARY KEY,
                complaint_id TEXT NOT NULL UNIQUE,
                ts INTEGER NOT NULL,
                channel TEXT, category TEXT, subject TEXT,
                text TEXT NOT NULL,
                user_id TEXT,
                codes TEXT NOT NULL
            );
            CREATE TABLE complaint_code (
                key TEXT NOT NULL,
                complaint_id INTEGER NOT NULL REFERENCES complaint(id),
                PRIMARY KEY (key, complaint_id)
            ) WITHOUT ROWID;
            CREATE TABLE status_change (
                id INTEGER PRIMARY KEY,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                from_status TEXT, to_status TEXT NOT NULL,
                version TEXT, at INTEGER NOT NULL, by TEXT NOT NULL, note TEXT
            );
            CREATE INDEX status_change_by_issue ON status_change(issue_id, at);
            CREATE TABLE note (
                id INTEGER PRIMARY KEY,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                at INTEGER NOT NULL, by TEXT NOT NULL, text TEXT NOT NULL
            );
            CREATE INDEX note_by_issue ON note(issue_id, at);
            CREATE TABLE meeting (
                id INTEGER PRIMARY KEY,
                started_at INTEGER NOT NULL,
                by TEXT NOT NULL
            );
            CREATE TABLE code_dictionary (
                short TEXT NOT NULL, code INTEGER NOT NULL,
                domain TEXT NOT NULL, name TEXT NOT NULL,
                PRIMARY KEY (short, code)
            ) WITHOUT ROWID;

            -- Rollups, kept at ingest: every dashboard query reads these, never a scan of events.
            CREATE TABLE issue_day (
                issue_id INTEGER NOT NULL, day INTEGER NOT NULL,
                events INTEGER NOT NULL DEFAULT 0, complaints INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (issue_id, day)
            ) WITHOUT ROWID;
            CREATE INDEX issue_day_by_day ON issue_day(day);
            CREATE TABLE issue_hour (
                issue_id INTEGER NOT NULL, hour INTEGER NOT NULL,
                events INTEGER NOT NULL DEFAULT 0, complaints INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (issue_id, hour)
            ) WITHOUT ROWID;
            CREATE INDEX issue_hour_by_hour ON issue_hour(hour);
            CREATE TABLE issue_day_user (
                issue_id INTEGER NOT NULL, day INTEGER NOT NULL, user_id TEXT NOT NULL,
                PRIMARY KEY (issue_id, day, user_id)
            ) WITHOUT ROWID;
            CREATE TABLE issue_day_dim (
                issue_id INTEGER NOT NULL, dim TEXT NOT NULL, value TEXT NOT NULL, day INTEGER NOT NULL,
                events INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (issue_id, dim, value, day)
            ) WITHOUT ROWID;
            PRAGMA user_version = 1;
            """)
    }

    /// SQL for the bucket of `size` that a column's value falls in, floored as `Timestamp` does
    /// (correct before 1970 too): for day and hour buckets of times, and days of hours.
    static func floorBucket(_ column: String, _ size: Int64) -> String {
        "((\(column) - (((\(column) % \(size)) + \(size)) % \(size))) / \(size))"
    }

    /// v2, for speed at millions of events:
    /// - An event is unique by its issue, time and id, in one index that also serves every range
    ///   read by issue and time (v1 kept a second, unique index on the id alone, into which each
    ///   insert went at a random place).
    /// - Distinct users are counted without reading user rows: `issue_user` keeps each user's last
    ///   hour per issue, and `issue_hour.users` / `issue_day.users` count the users whose last event
    ///   falls in that bucket, so the users seen in a window that runs to the latest data are a sum
    ///   over its buckets. `user_seen`, `total_hour` and `total_day` do the same across all issues.
    ///   They replace v1's `issue_day_user`, a row per issue, day and user.
    /// - The by-time indexes of `issue_day` and `issue_hour` cover their counts, so a window's
    ///   sums read the index alone.
    /// - `complaint.linked` says whether a complaint cites an issue the store knows, with an index
    ///   on the time of those that do not: the unlinked complaints are read without a scan.
    static func migrateToV2(_ db: GRDB.Database) throws {
        let hour = floorBucket("ts", Timestamp.millisPerHour), dayOfHour = floorBucket("last_hour", 24)
        try db.execute(sql: """
            CREATE TABLE event_v2 (
                id INTEGER PRIMARY KEY,
                event_id TEXT NOT NULL,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                ts INTEGER NOT NULL,
                app_version TEXT, app_build TEXT, platform TEXT, os_name TEXT, os_version TEXT,
                device_model TEXT, network TEXT, orientation TEXT, app_state TEXT,
                free_ram INTEGER, free_disk INTEGER, jailbroken INTEGER,
                user_id TEXT, session_id TEXT, environment TEXT, message TEXT,
                custom_keys TEXT,
                source TEXT NOT NULL
            );
            INSERT INTO event_v2 SELECT * FROM event;
            DROP TABLE event;
            ALTER TABLE event_v2 RENAME TO event;
            CREATE UNIQUE INDEX event_by_issue_time ON event(issue_id, ts, event_id);

            ALTER TABLE issue_day ADD COLUMN users INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE issue_hour ADD COLUMN users INTEGER NOT NULL DEFAULT 0;
            DROP INDEX issue_day_by_day;
            CREATE INDEX issue_day_by_day ON issue_day(day, issue_id, events, complaints, users);
            DROP INDEX issue_hour_by_hour;
            CREATE INDEX issue_hour_by_hour ON issue_hour(hour, issue_id, events, complaints, users);
            CREATE TABLE issue_user (
                issue_id INTEGER NOT NULL, user_id TEXT NOT NULL, last_hour INTEGER NOT NULL,
                PRIMARY KEY (issue_id, user_id)
            ) WITHOUT ROWID;
            INSERT INTO issue_user SELECT issue_id, user_id, MAX(\(hour)) FROM event WHERE user_id IS NOT NULL GROUP BY 1, 2;
            UPDATE issue_hour SET users = h.n
                FROM (SELECT issue_id, last_hour, COUNT(*) AS n FROM issue_user GROUP BY 1, 2) AS h
                WHERE h.issue_id = issue_hour.issue_id AND h.last_hour = issue_hour.hour;
            UPDATE issue_day SET users = d.n
                FROM (SELECT issue_id, \(dayOfHour) AS day, COUNT(*) AS n FROM issue_user GROUP BY 1, 2) AS d
                WHERE d.issue_id = issue_day.issue_id AND d.day = issue_day.day;

            CREATE TABLE user_seen (user_id TEXT PRIMARY KEY, last_hour INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO user_seen SELECT user_id, MAX(last_hour) FROM issue_user GROUP BY 1;
            CREATE TABLE total_hour (hour INTEGER PRIMARY KEY, users INTEGER NOT NULL DEFAULT 0);
            INSERT INTO total_hour SELECT last_hour, COUNT(*) FROM user_seen GROUP BY 1;
            CREATE TABLE total_day (day INTEGER PRIMARY KEY, users INTEGER NOT NULL DEFAULT 0);
            INSERT INTO total_day SELECT \(dayOfHour), COUNT(*) FROM user_seen GROUP BY 1;

            DROP TABLE issue_day_user;

            ALTER TABLE complaint ADD COLUMN linked INTEGER NOT NULL DEFAULT 0;
            UPDATE complaint SET linked = 1
                WHERE id IN (SELECT k.complaint_id FROM complaint_code k JOIN issue i ON i.key = k.key);
            CREATE INDEX complaint_unlinked ON complaint(ts) WHERE linked = 0;
            PRAGMA user_version = 2;
            """)
    }
}
