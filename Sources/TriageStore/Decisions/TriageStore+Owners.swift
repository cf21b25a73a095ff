import TriageModel

extension TriageStore {
    /// Assigns an issue to a person (nil clears) in one transaction with its history row, a note
    /// saying who assigned whom, which the detail, `show` and the minutes' decisions list.
    /// Returns the previous assignee.
    @discardableResult
    public func assign(_ key: String, to assignee: String?, by: String, at: Timestamp) throws(StoreError) -> String? {
        try mark(key, .assignee(assignee), by: by, at: at).previousAssignee
    }

    /// Sets the assignee and writes the history row that says so.
    static func setAssignee(_ db: SQLDatabase, issueID: Int64, to assignee: String?, from previous: String?, by: String, at: Timestamp) throws {
        try db.execute(sql: "UPDATE issue SET assignee = ? WHERE id = ?", arguments: [assignee, issueID])
        try db.execute(sql: "INSERT INTO note (issue_id, at, \"by\", text) VALUES (?, ?, ?, ?)",
                       arguments: [issueID, at.millis, by, Assignment.historyText(to: assignee, from: previous)])
    }
}

extension TriageStore {
    /// Adds an owner rule after the others; its query must be about the chain. Returns it.
    @discardableResult
    public func addOwnerRule(query: String, owner: String) throws(StoreError) -> OwnerRule {
        try TriageStore.requireQuery(query, OwnerRule.parse)
        return try write { db in
            let number = try db.insertID(sql: "INSERT INTO owner_rule (query, owner) VALUES (?, ?)", arguments: [query, owner])
            return OwnerRule(number: number, query: query, owner: owner)
        }
    }

    /// The owner rules in the order they are tried.
    public func ownerRules() throws(StoreError) -> [OwnerRule] {
        try read { db in try TriageStore.ownerRules(db) }
    }

    static func ownerRules(_ db: SQLDatabase) throws -> [OwnerRule] {
        try SQLRow.fetchAll(db, sql: "SELECT id, query, owner FROM owner_rule ORDER BY id").map {
            OwnerRule(number: (try $0.decode(0)), query: (try $0.decode(1)), owner: (try $0.decode(2)))
        }
    }

    /// Removes rule number N; an unknown number is an error naming those there are.
    public func removeOwnerRule(_ number: Int64) throws(StoreError) {
        let rules = try ownerRules()
        guard rules.contains(where: { $0.number == number }) else {
            throw StoreError.unknownName("owner rule", "\(number)", known: rules.map { "\($0.number)" })
        }
        try write { db in try db.execute(sql: "DELETE FROM owner_rule WHERE id = ?", arguments: [number]) }
    }

    /// Gives every issue the owner of the first rule its chain matches (none: no owner), and that
    /// owner as assignee where nobody is assigned. Returns how many issues changed owner.
    @discardableResult
    public func applyOwnerRules() throws(StoreError) -> Int {
        try write { db in
            let rules = try TriageStore.ownerRules(db)
            var changed = 0
            for row in try SQLRow.fetchAll(db, sql: "SELECT id, key, owner FROM issue") {
                let id: Int64 = (try row.decode(0)), key: String = (try row.decode(1)), current: String? = try row.decode(2)
                let owner = OwnerRule.firstMatch(rules, chain: try TriageStore.chain(db, issueID: id), key: key)?.owner
                guard owner != current else { continue }
                try TriageStore.setOwner(db, issueID: id, owner: owner)
                changed += 1
            }
            return changed
        }
    }

    /// At ingest: a new issue gets the owner (and assignee) of the first rule its chain matches.
    static func routeNewIssue(_ db: SQLDatabase, issueID: Int64, key: String, chain: ErrorChain) throws {
        let rules = try ownerRules(db)
        guard !rules.isEmpty, let rule = OwnerRule.firstMatch(rules, chain: chain, key: key) else { return }
        try setOwner(db, issueID: issueID, owner: rule.owner)
    }

    static func setOwner(_ db: SQLDatabase, issueID: Int64, owner: String?) throws {
        try db.execute(sql: "UPDATE issue SET owner = ?, assignee = COALESCE(assignee, ?) WHERE id = ?",
                       arguments: [owner, owner, issueID])
    }
}

/// Owners from a checkout's CODEOWNERS (issue 48): `owner apply --from-codeowners`.
extension TriageStore {
    /// The open and regressed issues that have no owner yet, by key (a merged group's members
    /// left out: their head stands for them), in the order they were first seen.
    public func unownedOpenIssues() throws(StoreError) -> [(key: String, firstSeen: Timestamp)] {
        try read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT key, first_seen FROM issue
                WHERE owner IS NULL AND status IN ('open', 'regressed') AND (group_id IS NULL OR group_id = id)
                ORDER BY first_seen, key
                """).map { row in (try row.decode(0), Timestamp(millis: try row.decode(1))) }
        }
    }

    /// Gives an issue an owner where it has none by now, and that owner's first name as its
    /// assignee where nobody is assigned; false where someone gave it an owner meanwhile.
    public func setOwnerIfNone(_ key: String, owner: String, assignee: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE issue SET owner = ?, assignee = COALESCE(assignee, ?) WHERE key = ? AND owner IS NULL",
                           arguments: [owner, assignee, key])
            return db.changesCount > 0
        }
    }
}
