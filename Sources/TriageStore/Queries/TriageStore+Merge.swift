import TriageModel

extension TriageStore {
    /// Pairs of issues that may be one problem under two chains (`MergeRule`), strongest first; merged issues are left out.
    public func mergeSuggestions() throws(StoreError) -> [MergeSuggestion] {
        let issues: [MergeCandidate] = try read { db in
            let rows = try SQLRow.fetchAll(db, sql: "SELECT id, key, first_version, last_version, events FROM issue WHERE group_id IS NULL AND NOT EXISTS (SELECT 1 FROM issue m WHERE m.group_id = issue.id) ORDER BY id")
            let chains = try TriageStore.chains(db, issueIDs: rows.map { (try $0.decode(0)) })
            return try rows.map { row in
                MergeCandidate(key: (try row.decode(1)), chain: chains[(try row.decode(0))] ?? ErrorChain(links: []), firstVersion: (try row.decode(2)),
                               lastVersion: (try row.decode(3)), events: (try row.decode(4)))
            }
        }
        return MergeRule.suggest(issues, versions: try versions())
    }
}
