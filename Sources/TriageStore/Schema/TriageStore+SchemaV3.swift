import GRDB
import TriageModel

extension TriageStore {
    /// v3, for real crash reporters' payloads:
    /// - `event.kind` (`crash`, `non-fatal`, `anr`; NULL where the source did not say) and
    ///   `issue.kind`, the most severe kind among the events; the breakdown rollup gains
    ///   the dimension `kind` (events stored before v3 count as `unknown`).
    /// - `domain_short`: which domain holds each short name, one each way, so that two domains
    ///   never share one (`explicit` when the data gave the short name, 0 when errtriage derived
    ///   it). Filled from the code dictionary, then the chains, the first domain seen per short
    ///   name keeping it: a store written before v3 may hold a short name under two domains, and
    ///   the events of the second that arrive from now on get a short name of their own.
    static func migrateToV3(_ db: GRDB.Database) throws {
        let day = floorBucket("ts", Timestamp.millisPerDay)
        try db.execute(sql: """
            ALTER TABLE event ADD COLUMN kind TEXT;
            ALTER TABLE issue ADD COLUMN kind TEXT;
            INSERT INTO issue_day_dim (issue_id, dim, value, day, events)
                SELECT issue_id, 'kind', 'unknown', \(day), COUNT(*) FROM event GROUP BY 1, 3, 4;

            CREATE TABLE domain_short (
                domain TEXT PRIMARY KEY,
                short TEXT NOT NULL UNIQUE,
                explicit INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            INSERT OR IGNORE INTO domain_short (domain, short)
                SELECT domain, short FROM code_dictionary ORDER BY short, code;
            INSERT OR IGNORE INTO domain_short (domain, short)
                SELECT domain, short FROM chain_link WHERE domain IS NOT NULL ORDER BY issue_id, position;
            PRAGMA user_version = 3;
            """)
    }
}
