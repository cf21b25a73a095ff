import GRDB

extension TriageStore {
    /// The step that files the events' platform in the breakdown rollup, the same SQL on both
    /// engines: `issue_day_dim` gains the dimension `platform`, filled from the stored events per
    /// issue and day (a store pruned before keeps it from its horizon on, as `check` recounts it),
    /// `unknown` where an event has none. Rows of it that a store somehow holds already are counted
    /// again. No table changes.
    static let platformBreakdown = """
        DELETE FROM issue_day_dim WHERE dim = 'platform';
        INSERT INTO issue_day_dim (issue_id, dim, value, day, events)
        SELECT e.issue_id, 'platform', COALESCE(t.value, 'unknown'), e.day, SUM(e.n)
        FROM (SELECT issue_id, platform_term AS term, ((ts - (((ts % 86400000) + 86400000) % 86400000)) / 86400000) AS day, COUNT(*) AS n
              FROM event_row GROUP BY 1, 2, 3) AS e
        LEFT JOIN term t ON t.id = e.term
        GROUP BY e.issue_id, COALESCE(t.value, 'unknown'), e.day;
        """

    /// SQLite's step (`platformBreakdown`).
    static func migrateToV24(_ db: GRDB.Database) throws {
        try db.execute(sql: platformBreakdown + "\nPRAGMA user_version = 24;")
    }
}
