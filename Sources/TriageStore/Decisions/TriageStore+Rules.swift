import TriageModel

extension TriageStore {
    /// The grouping rules, in the order they are tried, each with its head's key.
    public func groupingRules() throws(StoreError) -> [GroupingRule] {
        try read { db in try TriageStore.groupingRules(db) }
    }

    static func groupingRules(_ db: SQLDatabase) throws -> [GroupingRule] {
        try SQLRow.fetchAll(db, sql: """
            SELECT r.id, r.name, r.query, h.key, r."by", r.at FROM grouping_rule r LEFT JOIN issue h ON h.id = r.head_id ORDER BY r.id
            """).map { row throws(StoreError) in
            GroupingRule(number: try row.decode(0), name: try row.decode(1), query: try row.decode(2), headKey: try row.decode(3),
                         by: try row.decode(4), at: Timestamp(millis: try row.decode(5)))
        }
    }

    /// What a rule of `query` would take now (`rule add --dry-run`): every issue whose chain it
    /// matches, the first seen as its issue, and those left in other groups.
    public func groupingPreview(query: String, name: String) throws(StoreError) -> GroupingPreview {
        let search = try TriageStore.ruleQuery(query)
        return try read { db in try TriageStore.plan(db, search, name: name, query: query).preview }
    }

    /// Makes a rule, tried after the others, and merges into its issue (the first seen of those it
    /// matches) every other issue it matches, with the groups they head, in one transaction, each
    /// merge with its history row. Returns what it took.
    @discardableResult
    public func addGroupingRule(query: String, name: String, by: String, at: Timestamp) throws(StoreError) -> GroupingPreview {
        let search = try TriageStore.ruleQuery(query)
        guard !name.trimmingASCIIWhitespace().isEmpty else { throw StoreError.usage("a rule needs a name (--as NAME)") }
        return try write { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM grouping_rule WHERE name = ?)", arguments: [name]) == true {
                throw StoreError.usage("a rule is named \(name) already; rule rm \(name) first, or choose another name")
            }
            let plan = try TriageStore.plan(db, search, name: name, query: query)
            let ruleID = try db.insertID(sql: "INSERT INTO grouping_rule (name, query, head_id, at, \"by\") VALUES (?, ?, ?, ?, ?)",
                                         arguments: [name, query, plan.headID, at.millis, by])
            if let head = plan.headID {
                for move in plan.moves {
                    try TriageStore.groupUnderRule(db, ruleID: ruleID, rule: name, issueID: move.issue, head: head, former: move.former, at: at)
                }
            }
            return plan.preview
        }
    }

    /// Removes rule `name`: each issue it merged that is still under its issue goes back to where
    /// it was (standing alone, or in the group it was in), each with its history row. Returns the
    /// keys taken out.
    @discardableResult
    public func removeGroupingRule(_ name: String, by: String, at: Timestamp) throws(StoreError) -> [String] {
        try write { db in
            guard let row = try SQLRow.fetchOne(db, sql: "SELECT id, head_id FROM grouping_rule WHERE name = ?", arguments: [name]) else {
                throw StoreError.unknownName("rule", name, known: try String.fetchAll(db, sql: "SELECT name FROM grouping_rule ORDER BY id"))
            }
            let ruleID: Int64 = try row.decode(0)
            var restored: [String] = []
            if let headID: Int64 = try row.decode(1) {
                let group = try Int64.fetchOne(db, sql: "SELECT COALESCE(group_id, id) FROM issue WHERE id = ?", arguments: [headID]) ?? headID
                let members = try SQLRow.fetchAll(db, sql: """
                    SELECT m.issue_id, m.former_group_id, i.key FROM grouping_rule_member m JOIN issue i ON i.id = m.issue_id
                    WHERE m.rule_id = ? AND i.group_id = ? ORDER BY m.issue_id
                    """, arguments: [ruleID, group])
                // Each stands alone first; then those that were members go back under their former
                // head, unless it is a member of another group since (it takes members no more).
                for member in members {
                    let id: Int64 = try member.decode(0)
                    try db.execute(sql: "UPDATE issue SET group_id = NULL WHERE id = ?", arguments: [id])
                    try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'unmerge', ?, ?)",
                                   arguments: [group, id, at.millis, by])
                    restored.append(try member.decode(2))
                }
                for member in members {
                    guard let former: Int64 = try member.decode(1),
                          try Bool.fetchOne(db, sql: "SELECT group_id IS NULL FROM issue WHERE id = ?", arguments: [former]) == true
                    else { continue }
                    let id: Int64 = try member.decode(0)
                    try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [former, id])
                    try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'merge', ?, ?)",
                                   arguments: [former, id, at.millis, by])
                }
            }
            try db.execute(sql: "DELETE FROM grouping_rule_member WHERE rule_id = ?", arguments: [ruleID])
            try db.execute(sql: "DELETE FROM grouping_rule WHERE id = ?", arguments: [ruleID])
            return restored
        }
    }

    /// At ingest, as an issue is made: the first rule its chain matches takes it under its issue
    /// (or makes it that issue, when the rule has none yet). Returns the head it went under.
    static func groupNewIssue(_ db: SQLDatabase, issueID: Int64, key: String, chain: ErrorChain, at: Timestamp) throws -> Int64? {
        let rules = try SQLRow.fetchAll(db, sql: "SELECT id, name, query, head_id FROM grouping_rule ORDER BY id")
        guard !rules.isEmpty else { return nil }
        for row in rules {
            let rule = GroupingRule(number: try row.decode(0), name: try row.decode(1), query: try row.decode(2), headKey: nil,
                                    by: "", at: at)
            guard rule.matches(chain: chain, key: key) else { continue }
            guard let headID: Int64 = try row.decode(3) else {
                try db.execute(sql: "UPDATE grouping_rule SET head_id = ? WHERE id = ?", arguments: [issueID, rule.number])
                return nil
            }
            // The head may have been merged into another group by hand since: its group's head.
            let head = try Int64.fetchOne(db, sql: "SELECT COALESCE(group_id, id) FROM issue WHERE id = ?", arguments: [headID]) ?? headID
            guard head != issueID else { return nil }
            try groupUnderRule(db, ruleID: rule.number, rule: rule.name, issueID: issueID, head: head, former: nil, at: at)
            return head
        }
        return nil
    }

    /// Puts one issue under a rule's head, remembering where it was, with its history row.
    static func groupUnderRule(_ db: SQLDatabase, ruleID: Int64, rule: String, issueID: Int64, head: Int64, former: Int64?,
                               at: Timestamp) throws {
        try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [head, issueID])
        try db.execute(sql: """
            INSERT INTO grouping_rule_member (rule_id, issue_id, former_group_id) VALUES (?, ?, ?)
            ON CONFLICT (rule_id, issue_id) DO UPDATE SET former_group_id = excluded.former_group_id
            """, arguments: [ruleID, issueID, former])
        try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'merge', ?, ?)",
                       arguments: [head, issueID, at.millis, "rule " + rule])
    }

    /// A rule's query read, or the sentence why it cannot be one.
    static func ruleQuery(_ text: String) throws(StoreError) -> SearchQuery {
        let query: SearchQuery
        do {
            query = try SearchQuery.parse(text)
        } catch {
            throw StoreError(error.description, isUsageError: true)
        }
        if let why = GroupingRule.refusal(of: query) { throw StoreError(why, isUsageError: true) }
        return query
    }

    /// What a rule would do now: the issues it matches, the head, and each issue that moves with
    /// where it was (`former`: the group it was a member of, nil where it stood alone or headed one).
    struct RulePlan {
        var preview: GroupingPreview
        var headID: Int64?
        var moves: [(issue: Int64, former: Int64?)]
    }

    static func plan(_ db: SQLDatabase, _ search: SearchQuery, name: String, query: String) throws -> RulePlan {
        struct Row { var id: Int64; var key: String; var group: Int64?; var firstSeen: Int64; var events: Int }
        var rows: [Int64: Row] = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT id, key, group_id, first_seen, events FROM issue") {
            let r = Row(id: try row.decode(0), key: try row.decode(1), group: try row.decode(2), firstSeen: try row.decode(3),
                        events: try row.decode(4))
            rows[r.id] = r
        }
        var links: [Int64: [ChainLink]] = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, domain, short, code, name, origin FROM chain_link ORDER BY issue_id, position") {
            links[(try row.decode(0)), default: []].append(ChainLink(domain: try row.decode(1), short: try row.decode(2), code: try row.decode(3),
                                                                      name: try row.decode(4), origin: origin(try row.decode(5))))
        }
        let chain = { (id: Int64) in ErrorChain(links: links[id] ?? []) }
        let matched = rows.values.filter { search.admits(chain: chain($0.id), key: $0.key) }
            .sorted { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) }
        let matchedIDs = Set(matched.map(\.id))
        // A member whose head the rule takes moves with it; one whose head it does not stays.
        let eligible = matched.filter { $0.group == nil }
        let left = matched.filter { r in r.group.map { !matchedIDs.contains($0) } ?? false }
        var issues: [GroupingPreview.Issue] = []
        var moves: [(issue: Int64, former: Int64?)] = []
        let head = eligible.first
        if let head {
            issues.append(GroupingPreview.Issue(key: head.key, chain: chain(head.id), events: head.events, role: .head))
        }
        let members = Dictionary(grouping: rows.values.filter { $0.group != nil }, by: { $0.group! })
        for r in eligible.dropFirst() {
            issues.append(GroupingPreview.Issue(key: r.key, chain: chain(r.id), events: r.events, role: .joins))
            moves.append((r.id, nil))
            for m in (members[r.id] ?? []).sorted(by: { $0.id < $1.id }) {
                issues.append(GroupingPreview.Issue(key: m.key, chain: chain(m.id), events: m.events, role: .joins))
                moves.append((m.id, r.id))
            }
        }
        for r in left {
            issues.append(GroupingPreview.Issue(key: r.key, chain: chain(r.id), events: r.events, role: .inOtherGroup,
                                                otherHead: r.group.flatMap { rows[$0]?.key }))
        }
        return RulePlan(preview: GroupingPreview(name: name, query: query, issues: issues), headID: head?.id, moves: moves)
    }
}
