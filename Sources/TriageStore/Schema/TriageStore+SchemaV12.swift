import GRDB
import TriageModel

extension TriageStore {
    /// The rollups for windows of months and a year (schema 12), the same on both engines but for
    /// their types (`text` is PostgreSQL's byte-ordered text, SQLite's TEXT; `rowless` is SQLite's
    /// `WITHOUT ROWID`). A month is named by its first day (days since 1970-01-01), as
    /// `pruned_month_users` named it.
    /// - `issue_month`: per issue and calendar month, the sums of `issue_day`: events, complaints
    ///   and `users` (the users whose last event, per issue, falls in the month: `issue_day`'s
    ///   rule, so whole months of a window that runs to the latest data sum to its distinct users);
    ///   and `distinct_users`, the users seen in the month (`history`), kept for all time.
    /// - `issue_month_user`: per issue and user, the months they were seen in from the raw horizon
    ///   on, all but their last (the month of `issue_user.last_hour`): what ingest needs to count a
    ///   user once a month in `distinct_users` (`Rollups+Months.swift`), with a row written only
    ///   when a user comes back in a later month. A prune deletes the rows of the months it closes
    ///   (their counts are final). Keyed by month first: ingest adds to the newest months' rows, and
    ///   a prune deletes the first rows.
    /// - `total_day.events`: every issue's events per day, the list's header series (which summed
    ///   `issue_day` over every issue: 100,000 rows for a year of 400 issues).
    static func longWindowRollups(text t: String, rowless: String) -> String {
        """
        CREATE TABLE issue_month (
            issue_id BIGINT NOT NULL, month BIGINT NOT NULL,
            events BIGINT NOT NULL DEFAULT 0, complaints BIGINT NOT NULL DEFAULT 0, users BIGINT NOT NULL DEFAULT 0,
            distinct_users BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (issue_id, month)
        )\(rowless);
        CREATE INDEX issue_month_by_month ON issue_month(month, issue_id, events, complaints, users);
        CREATE TABLE issue_month_user (
            month BIGINT NOT NULL, issue_id BIGINT NOT NULL, user_id \(t) NOT NULL,
            PRIMARY KEY (month, issue_id, user_id)
        )\(rowless);
        ALTER TABLE total_day ADD COLUMN events BIGINT NOT NULL DEFAULT 0;
        """
    }

    /// The rollups of schema 12 for a store made before them: `issue_month` summed from `issue_day`;
    /// who was seen each month from the raw events from the horizon on (their count the month's
    /// distinct users; the rows of each user's last month then go), and the distinct users of the
    /// months before it from `pruned_month_users`, which they replace; `total_day.events` summed
    /// from `issue_day`. `month` is the engine's SQL for the month of a day.
    static func longWindowRollupsOfOldRows(month: (String) -> String) -> String {
        let day = floorBucket("ts", Timestamp.millisPerDay)
        return """
            INSERT INTO issue_month (issue_id, month, events, complaints, users)
                SELECT issue_id, \(month("day")), SUM(events), SUM(complaints), SUM(users) FROM issue_day GROUP BY 1, 2;
            INSERT INTO issue_month_user (month, issue_id, user_id)
                SELECT DISTINCT \(month(day)), issue_id, user_id FROM event_row
                WHERE user_id IS NOT NULL AND ts >= COALESCE((SELECT value FROM meta WHERE key = '\(RetentionKey.since)'), ts);
            UPDATE issue_month SET distinct_users = u.n
                FROM (SELECT issue_id, month, COUNT(*) AS n FROM issue_month_user GROUP BY 1, 2) AS u
                WHERE u.issue_id = issue_month.issue_id AND u.month = issue_month.month;
            UPDATE issue_month SET distinct_users = p.users
                FROM pruned_month_users AS p WHERE p.issue_id = issue_month.issue_id AND p.month = issue_month.month;
            DELETE FROM issue_month_user WHERE EXISTS (
                SELECT 1 FROM issue_user u WHERE u.issue_id = issue_month_user.issue_id AND u.user_id = issue_month_user.user_id
                AND \(month(floorBucket("u.last_hour", 24))) = issue_month_user.month);
            DROP TABLE pruned_month_users;
            INSERT INTO total_day (day, users, events) SELECT day, 0, SUM(events) FROM issue_day WHERE true GROUP BY day
                ON CONFLICT (day) DO UPDATE SET events = excluded.events;
            """
    }

    /// SQLite's month of a day: the first day of its calendar month.
    static func sqliteMonth(ofDay day: String) -> String {
        "(CAST(strftime('%s', date((\(day)) * 86400, 'unixepoch', 'start of month')) AS INTEGER) / 86400)"
    }

    /// v12, the rollups of long windows (`longWindowRollups`), built from the rows an older store holds.
    static func migrateToV12(_ db: GRDB.Database) throws {
        try db.execute(sql: longWindowRollups(text: "TEXT", rowless: " WITHOUT ROWID")
                       + longWindowRollupsOfOldRows(month: sqliteMonth(ofDay:)) + "PRAGMA user_version = 12;")
    }
}
