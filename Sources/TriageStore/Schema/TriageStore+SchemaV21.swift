import GRDB

extension TriageStore {
    /// The meta key that names the last issue made by the grouping from schema 14 to 20 (0 in a
    /// store made since): those issues may take an alias of the keys grouping gives their failures now.
    static let priorGroupingKey = "prior_grouping_last_issue"

    /// Schema 21's step, the same on both engines but for their types:
    /// - `word_template`: the templates learned at each place (`WordTemplate`): a link whose words
    ///   decide its code gets the code of the template it joins there, which the template keeps
    ///   from its first message on; `tokens` are the template's, separated by U+001F, `<*>` where
    ///   the words differed.
    /// - an issue may take more than one alias (`issue_alias`): one per key grouping gives its
    ///   failure since schema 21, besides the one before it.
    /// - the issues already in the store are the prior grouping's.
    static func wordTemplates(text: String, integer: String) -> String {
        """
        CREATE TABLE word_template (
            place \(text) NOT NULL,
            code \(integer) NOT NULL,
            tokens \(text) NOT NULL,
            PRIMARY KEY (place, code)
        );
        DROP INDEX issue_alias_by_issue;
        CREATE INDEX issue_alias_by_issue ON issue_alias(issue_id);
        INSERT INTO meta (key, value) SELECT '\(priorGroupingKey)', COALESCE(MAX(id), 0) FROM issue;
        """
    }

    /// v21: the templates learned at each place, and the aliases of the issues grouping made before.
    static func migrateToV21(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(wordTemplates(text: "TEXT", integer: "INTEGER"))
            PRAGMA user_version = 21;
            """)
    }
}
