import GRDB
import TriageModel

extension TriageStore {
    /// v6, for merge groups (issue 17):
    /// - `issue.group_id`: NULL when the issue is its own group; a member points at its group's
    ///   head, whose row carries the group's status, marks, notes, assignee and links. Lists read
    ///   groups as `COALESCE(group_id, id)`; every rollup stays per issue, so unmerging restores
    ///   the member's own counts unchanged.
    /// - `merge_change`: the history rows of `merge` and `unmerge`.
    /// Plain SQL that PostgreSQL runs too.
    static func migrateToV6(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            ALTER TABLE issue ADD COLUMN group_id INTEGER REFERENCES issue(id);
            CREATE INDEX issue_by_group ON issue(group_id);
            CREATE TABLE merge_change (
                id INTEGER PRIMARY KEY,
                head_id INTEGER NOT NULL REFERENCES issue(id),
                member_id INTEGER NOT NULL REFERENCES issue(id),
                action TEXT NOT NULL,
                at INTEGER NOT NULL,
                by TEXT NOT NULL
            );
            CREATE INDEX merge_change_by_head ON merge_change(head_id, at);
            PRAGMA user_version = 6;
            """)
    }
}
