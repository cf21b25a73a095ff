import TriageModel

extension TriageStore {
    /// Pairs of issues that may be one problem under two chains (`MergeRule`), strongest first; merged issues are left out.
    public func mergeSuggestions() throws(StoreError) -> [MergeSuggestion] {
        let issues: [MergeCandidate] = try read { db in
            let rows = try SQLRow.fetchAll(db, sql: "SELECT id, key, first_version, last_version, events FROM issue WHERE group_id IS NULL AND NOT EXISTS (SELECT 1 FROM issue m WHERE m.group_id = issue.id) ORDER BY id")
            let chains = try TriageStore.chains(db, issueIDs: rows.map { $0[0] })
            return rows.map { row in
                MergeCandidate(key: row[1], chain: chains[row[0]] ?? ErrorChain(links: []), firstVersion: row[2],
                               lastVersion: row[3], events: row[4])
            }
        }
        return MergeRule.suggest(issues, versions: try versions())
    }
}
