import GRDB

extension TriageStore {
    /// The meta key that names the last issue made by the grouping before schema 14 (0 in a store
    /// made since): those issues may take an alias (`issue_alias`).
    static let formerGroupingKey = "former_grouping_last_issue"

    /// Schema 14's tables, the same on both engines but for their types:
    /// - `issue_alias`: a key that errtriage's grouping since schema 14 gives events which the
    ///   grouping before it gave an older issue's key (derived codes read from a link's own words
    ///   and its raise site). New events with that key join the older issue, which keeps its key;
    ///   an issue takes one alias at most.
    static func aliasTable(text: String, integer: String) -> String {
        """
        CREATE TABLE issue_alias (
            key \(text) PRIMARY KEY,
            issue_id \(integer) NOT NULL REFERENCES issue(id),
            at \(integer) NOT NULL
        );
        CREATE UNIQUE INDEX issue_alias_by_issue ON issue_alias(issue_id);
        """
    }

    /// The issues already in the store are the former grouping's.
    static let formerGroupingMark = """
        INSERT INTO meta (key, value) SELECT '\(formerGroupingKey)', COALESCE(MAX(id), 0) FROM issue
        """

    /// The columns of `event_row` as schema 10 made them.
    static let eventRowColumnsV10 = eventRowColumnsV8 + ["project_term"]

    /// The columns of `event_row` as schema 14 made them.
    static let eventRowColumnsV14 = eventRowColumnsV10 + ["level_term"]

    /// v14: each event's level (Sentry's `fatal`, `error`, `warning`, `info`, `debug`): a text in
    /// `term`, named by `event_row.level_term`, read as the `event` view's last column (`level:` in
    /// queries); and the aliases of the issues the grouping before this schema made.
    static func migrateToV14(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            ALTER TABLE event_row ADD COLUMN level_term INTEGER;
            DROP VIEW event;
            \(eventView(of: eventRowColumnsV14));
            \(aliasTable(text: "TEXT", integer: "INTEGER"))
            \(formerGroupingMark);
            PRAGMA user_version = 14;
            """)
    }
}
