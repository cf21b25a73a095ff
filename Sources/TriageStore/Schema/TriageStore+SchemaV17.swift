import GRDB
import TriageModel

extension TriageStore {
    /// Schema 17's table, the same on both engines but for their types:
    /// - `issue_day_facet`: an issue's events per day and facet value (`EventFacets`: the context
    ///   facets `server`, `runtime`, `browser`, `transaction`, `logger`, and each tag as `tag:KEY`).
    ///   Sparse, unlike `issue_day_dim`: an event without a facet adds no row for it. The index by
    ///   facet answers a query's values (`server:api*`) and a one-term restriction over days.
    static func facetRollup(text: String, integer: String) -> String {
        """
        CREATE TABLE issue_day_facet (
            issue_id \(integer) NOT NULL, facet \(text) NOT NULL, value \(text) NOT NULL, day \(integer) NOT NULL,
            events \(integer) NOT NULL DEFAULT 0,
            PRIMARY KEY (issue_id, facet, value, day)
        );
        CREATE INDEX issue_day_facet_by_facet ON issue_day_facet(facet, value, day);
        """
    }

    /// The kept payloads that hold a role a newer event may take (first, latest, latest of a
    /// release or environment): a few per issue, which each ingest batch reads for its issues —
    /// without scanning the hundreds a day's quota keeps. Its condition is the reading's, word for word.
    static let payloadHoldersIndex = """
        CREATE INDEX event_payload_holders ON event_payload(issue_id) WHERE (roles & \(KeptRoles.passedOn.rawValue)) <> 0
        """

    /// v17: each event's context facets (a text in `term`, named by `event_row.facets_term`, read
    /// as the `event` view's last column), the facet rollup and the index of the payloads holding
    /// roles (`payloadHoldersIndex`), with the tags of the events stored
    /// before (`countStoredTags`, the step's `after`; those events have no context facets: they were not kept).
    static func migrateToV17(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            ALTER TABLE event_row ADD COLUMN facets_term INTEGER;
            DROP VIEW event;
            \(eventView);
            \(facetRollup(text: "TEXT", integer: "INTEGER"))
            \(payloadHoldersIndex);
            """)
    }

    /// The facet rollup of the events already stored: their tags (custom keys), per issue and day,
    /// read once per distinct set of keys (a term) and day. Both engines' step to schema 17.
    static func countStoredTags(_ db: SQLDatabase) throws {
        var rollups = Rollups()
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT e.issue_id, \(floorBucket("e.ts", Timestamp.millisPerDay)), t.value, COUNT(*)
            FROM event_row e JOIN term t ON t.id = e.custom_keys_term GROUP BY 1, 2, 3
            """) {
            for pair in EventFacets.pairs(customKeys: CustomKeys.decode(try row.decode(2) as String), facets: []) {
                rollups.facets[Rollups.FacetKey(issue: try row.decode(0), facet: pair.facet, value: pair.value, day: try row.decode(1)),
                               default: 0] += try row.decode(3) as Int
            }
        }
        try rollups.writeFacets(db)
    }
}
