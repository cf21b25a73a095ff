import TriageModel

/// The tag keys counted: each issue's facet rollup counts at most `EventFacets.maxTagKeysPerIssue`,
/// the first ones its events brought, and each project's events at most
/// `EventFacets.maxTagKeysPerProject` (`project_tag_key`; events without a project are one
/// project). An event's tags of other keys are folded: the event keeps their count under
/// `EventBounds.tagsFoldedKey` instead of them, so that what it stores is what the rollup counted
/// (`EventFacets.pairs` counts it under `EventFacets.foldedFacet`) and `check` recounts the same
/// from the events. A stream of events each with new keys then adds no row to the rollup, no text
/// to `term` and nothing to the detail's breakdowns past the issue's keys; many issues of new keys
/// each, nothing past the project's.
struct TagKeys {
    /// Per issue, the keys counted (read from `issue_day_facet`, then kept up to date here).
    var byIssue: [Int64: Set<String>] = [:]
    /// The issues of `byIssue` read since another writer last committed: the others' keys may
    /// have grown since, so an event with a key not among them has them read again first (an
    /// event whose keys are all among them is counted as it is: a key counted stays counted, but
    /// where retention pruned every row of it, and then it is counted again).
    var current = Set<Int64>()
    /// Per project (its name; "" for events without one), the keys counted (read from
    /// `project_tag_key`, then kept up to date here and there), and those read since another
    /// writer last committed, as for issues.
    var byProject: [String: Set<String>] = [:]
    var currentProjects = Set<String>()
    /// Issues (and projects) remembered at most; past it the writer reads them again.
    static let issueLimit = 20_000

    /// Another writer committed: each issue's and project's keys are read again before a new key is counted or folded.
    mutating func markStale() {
        current = []
        currentProjects = []
    }
}

extension IngestWriter {
    /// Folds the tags of `batch`'s events (`issueIDs`: each one's issue) whose keys come after
    /// their issue's first `EventFacets.maxTagKeysPerIssue` or their project's first
    /// `EventFacets.maxTagKeysPerProject`, and re-encodes the custom keys of those it changed. A
    /// key new to a project is written to `project_tag_key` at once, in the batch's transaction.
    func foldTags(_ batch: inout Batch, issueIDs: [Int64], db: SQLDatabase) throws {
        for i in batch.events.indices {
            let keys = batch.events[i].customKeys
            let isTag = { (pair: (key: String, value: String)) in
                !EventFacets.ownKeys.contains(pair.key) && EventFacets.isCountable(key: pair.key, value: pair.value)
            }
            guard keys.contains(where: isTag) else { continue }
            let issue = issueIDs[i], project = batch.events[i].project ?? ""
            var counted = try tagKeys(of: issue, db: db)
            var projectKeys = try tagKeys(ofProject: project, db: db)
            func newToIssue() -> Bool { keys.contains { isTag($0) && !counted.contains($0.key) } }
            func newToProject() -> Bool { keys.contains { isTag($0) && !projectKeys.contains($0.key) } }
            guard newToIssue() || newToProject() else { continue }
            // A key new to the issue or the project: what other writers counted since is read first.
            if newToIssue() && !tagKeys.current.contains(issue) {
                tagKeys.byIssue[issue] = nil
                counted = try tagKeys(of: issue, db: db)
            }
            if newToProject() && !tagKeys.currentProjects.contains(project) {
                tagKeys.byProject[project] = nil
                projectKeys = try tagKeys(ofProject: project, db: db)
            }
            guard newToIssue() || newToProject() else { continue }
            var folded = 0
            var kept: [(key: String, value: String)] = []
            kept.reserveCapacity(keys.count + 1)
            for pair in keys {
                let inIssue = counted.contains(pair.key), inProject = projectKeys.contains(pair.key)
                if !isTag(pair) || (inIssue && inProject) {
                    kept.append(pair)
                } else if (inIssue || counted.count < EventFacets.maxTagKeysPerIssue)
                            && (inProject || projectKeys.count < EventFacets.maxTagKeysPerProject) {
                    counted.insert(pair.key)
                    if !inProject {
                        projectKeys.insert(pair.key)
                        try db.execute(sql: "INSERT INTO project_tag_key (project, key) VALUES (?, ?) ON CONFLICT (project, key) DO NOTHING",
                                       arguments: [project, pair.key])
                    }
                    kept.append(pair)
                } else {
                    folded += 1
                }
            }
            tagKeys.byIssue[issue] = counted
            tagKeys.byProject[project] = projectKeys
            guard folded > 0 else { continue }
            kept.append((EventBounds.tagsFoldedKey, String(folded)))
            batch.events[i].customKeys = kept
            batch.customKeys[i] = CustomKeys.encode(kept)
        }
    }

    /// The tag keys `issue`'s facet rollup counts: remembered, or read from the rollup's key
    /// (issue, facet, …) one key at a time, at most one more than the bound.
    private func tagKeys(of issue: Int64, db: SQLDatabase) throws -> Set<String> {
        if let known = tagKeys.byIssue[issue] { return known }
        if tagKeys.byIssue.count >= TagKeys.issueLimit { tagKeys = TagKeys() }
        var keys = Set<String>()
        for row in try SQLRow.fetchAll(db, sql: """
            WITH RECURSIVE k(facet) AS (
                SELECT (SELECT MIN(facet) FROM issue_day_facet WHERE issue_id = ? AND facet > 'tag:' AND facet < 'tag;')
                UNION ALL
                SELECT (SELECT MIN(f.facet) FROM issue_day_facet f WHERE f.issue_id = ? AND f.facet > k.facet AND f.facet < 'tag;')
                FROM k WHERE k.facet IS NOT NULL
            )
            SELECT facet FROM k WHERE facet IS NOT NULL LIMIT ?
            """, arguments: [issue, issue, EventFacets.maxTagKeysPerIssue + 1]) {
            keys.insert(String((try row.decode(0) as String).dropFirst(4)))
        }
        tagKeys.byIssue[issue] = keys
        tagKeys.current.insert(issue)
        return keys
    }

    /// The tag keys `project`'s events are counted under: remembered, or read from `project_tag_key`.
    private func tagKeys(ofProject project: String, db: SQLDatabase) throws -> Set<String> {
        if let known = tagKeys.byProject[project] { return known }
        if tagKeys.byProject.count >= TagKeys.issueLimit { tagKeys = TagKeys() }
        // A store older than the cap may hold more of them (`fillProjectTagKeys`): all are read, as all stay counted.
        var keys = Set<String>()
        for row in try SQLRow.fetchAll(db, sql: "SELECT key FROM project_tag_key WHERE project = ?", arguments: [project]) {
            keys.insert(try row.decode(0))
        }
        tagKeys.byProject[project] = keys
        tagKeys.currentProjects.insert(project)
        return keys
    }
}
