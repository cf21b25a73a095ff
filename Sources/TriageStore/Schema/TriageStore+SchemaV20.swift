import GRDB

extension TriageStore {
    /// The grouping rules' tables, the same on both engines but for their types:
    /// - `grouping_rule`: a team's rules (`rule add QUERY --as NAME`), tried in `id` order; `head_id`
    ///   is the issue the rule's issues go under (nil until one matches), who made it and when.
    /// - `grouping_rule_member`: each issue a rule merged into its head (when it was made, or at
    ///   ingest when a new issue matched), with the group it was in before (`former_group_id`), so
    ///   that removing the rule puts each back where it was.
    static func groupingRuleTables(text: String, integer: String, identity: String) -> String {
        """
        CREATE TABLE grouping_rule (
            id \(identity),
            name \(text) NOT NULL UNIQUE,
            query \(text) NOT NULL,
            head_id \(integer) REFERENCES issue(id),
            at \(integer) NOT NULL,
            "by" \(text) NOT NULL
        );
        CREATE TABLE grouping_rule_member (
            rule_id \(integer) NOT NULL REFERENCES grouping_rule(id),
            issue_id \(integer) NOT NULL REFERENCES issue(id),
            former_group_id \(integer),
            PRIMARY KEY (rule_id, issue_id)
        );
        """
    }

    /// v20: grouping rules (`groupingRuleTables`).
    static func migrateToV20(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(groupingRuleTables(text: "TEXT", integer: "INTEGER", identity: "INTEGER PRIMARY KEY"))
            PRAGMA user_version = 20;
            """)
    }
}
