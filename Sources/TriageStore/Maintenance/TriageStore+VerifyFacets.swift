import TriageModel

extension TriageStore {
    /// The facet rollup against a recount of the events' facets from the raw horizon on: the
    /// events grouped by issue, day and their two texts (as term ids), each distinct text read
    /// once and counted here as ingest counts it (`EventFacets.pairs`), since SQL cannot.
    /// `combinations`: the events per issue, day and pair of texts, where a pass over the events counted them.
    static func verifyFacets(_ db: SQLDatabase, since horizon: Int64?, combinations: [EventRecount.FacetCombination: Int]? = nil,
                             problem: (String) -> Void) throws {
        let h = horizon ?? Int64.min, hDay = horizon.map { $0 / Timestamp.millisPerDay } ?? Int64.min
        var stored = StoredFacets()
        var recount: [Rollups.FacetKey: Int] = [:]
        let counted = try combinations ?? Dictionary(uniqueKeysWithValues: SQLRow.fetchAll(db, sql: """
            SELECT issue_id, \(floorBucket("ts", Timestamp.millisPerDay)), custom_keys_term, facets_term, COUNT(*) FROM event_row
            WHERE ts >= ? AND (custom_keys_term IS NOT NULL OR facets_term IS NOT NULL) GROUP BY 1, 2, 3, 4
            """, arguments: [h]).map { row throws(StoreError) in
                (EventRecount.FacetCombination(issue: try row.decode(0), day: try row.decode(1), customKeys: try row.decode(2),
                                               facets: try row.decode(3)), try row.decode(4) as Int)
            })
        for (combination, n) in counted {
            for pair in try stored.pairs(db, customKeys: combination.customKeys, facets: combination.facets) {
                recount[Rollups.FacetKey(issue: combination.issue, facet: pair.facet, value: pair.value, day: combination.day), default: 0] += n
            }
        }
        var differ = 0
        for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, facet, value, day, events FROM issue_day_facet WHERE day >= ? AND events != 0",
                                       arguments: [hDay]) {
            let key = Rollups.FacetKey(issue: try row.decode(0), facet: try row.decode(1), value: try row.decode(2), day: try row.decode(3))
            if recount.removeValue(forKey: key) != (try row.decode(4) as Int) { differ += 1 }
        }
        differ += recount.count
        if differ > 0 { problem("the facet rollup differs from a recount of the events' tags and contexts in \(differ) places") }
    }
}
