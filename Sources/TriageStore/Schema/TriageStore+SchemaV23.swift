import GRDB

extension TriageStore {
    /// The step that files the events' environment and level in the breakdown rollup, the same
    /// SQL on both engines: `issue_day_dim` gains the dimensions `environment` and `level`, filled
    /// from the stored events per issue and day (a store pruned before keeps them from its
    /// horizon on, as `check` recounts them), `unknown` where an event has none. No table changes.
    static let environmentLevelBreakdowns = ["environment", "level"].map { dim in
        """
        INSERT INTO issue_day_dim (issue_id, dim, value, day, events)
        SELECT e.issue_id, '\(dim)', COALESCE(t.value, 'unknown'), e.day, SUM(e.n)
        FROM (SELECT issue_id, \(dim)_term AS term, ((ts - (((ts % 86400000) + 86400000) % 86400000)) / 86400000) AS day, COUNT(*) AS n
              FROM event_row GROUP BY 1, 2, 3) AS e
        LEFT JOIN term t ON t.id = e.term
        GROUP BY e.issue_id, COALESCE(t.value, 'unknown'), e.day;
        """
    }.joined(separator: "\n")

    /// SQLite's step (`environmentLevelBreakdowns`), stamped at `version`.
    static func migrateEnvironmentLevel(_ db: GRDB.Database, version: Int) throws {
        try db.execute(sql: environmentLevelBreakdowns + "\nPRAGMA user_version = \(version);")
    }
}
