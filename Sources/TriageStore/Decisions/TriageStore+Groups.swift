import TriageModel

extension TriageStore {
    /// Merges issues into one group under `head` (the first key unless given): each other key's
    /// issue, and the members of a group it heads, point at the head; one history row per member.
    /// Returns what it moved, which `undoMerge` takes back.
    @discardableResult
    public func merge(_ keys: [String], into head: String? = nil, by: String, at: Timestamp) throws(StoreError) -> MergeReceipt {
        try write { db in
            let headKey = head ?? keys[0]
            let headID = try TriageStore.issueID(db, headKey)
            if try Int64.fetchOne(db, sql: "SELECT group_id FROM issue WHERE id = ?", arguments: [headID]) != nil {
                throw StoreError.usage("\(headKey) is a member of another group; unmerge it first or merge into its head")
            }
            let others = keys.filter { $0 != headKey }
            guard !others.isEmpty else { throw StoreError.usage("merge needs two different keys; \(headKey) cannot be merged into itself") }
            guard Set(keys).count == keys.count else { throw StoreError.usage("a key is named twice; each issue can be merged once") }
            var moved: [MergeReceipt.Move] = []
            for key in others {
                let id = try TriageStore.issueID(db, key)
                if let group = try Int64.fetchOne(db, sql: "SELECT group_id FROM issue WHERE id = ?", arguments: [id]), group != headID {
                    throw StoreError.usage("\(key) is already a member of another group; unmerge it first")
                }
                // Already in the head's group: nothing moves, and undo leaves it there.
                if try Int64.fetchOne(db, sql: "SELECT group_id FROM issue WHERE id = ?", arguments: [id]) == headID { continue }
                let members = try SQLRow.fetchAll(db, sql: "SELECT id, key FROM issue WHERE group_id = ? ORDER BY id", arguments: [id])
                var rows: [(id: Int64, key: String, former: String?)] = [(id, key, nil)]
                for member in members { rows.append((try member.decode(0), try member.decode(1), key)) }
                for member in rows {
                    try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [headID, member.id])
                    try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'merge', ?, ?)",
                                   arguments: [headID, member.id, at.millis, by])
                    moved.append(MergeReceipt.Move(key: member.key, formerHead: member.former))
                }
            }
            return MergeReceipt(head: headKey, moved: moved)
        }
    }

    /// Takes a merge back (the dashboard's `u` after `J`): each issue it moved that is still under
    /// its head stands alone again, and one that was a member of another group goes back under
    /// that group's head where it still heads one; each with its history row. An issue taken out
    /// or moved since is left where it is. Returns the keys taken out of the head's group.
    @discardableResult
    public func undoMerge(_ receipt: MergeReceipt, by: String, at: Timestamp) throws(StoreError) -> [String] {
        try write { db in
            guard let headID = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [receipt.head]) else { return [] }
            var restored: [(id: Int64, move: MergeReceipt.Move)] = []
            for move in receipt.moved {
                guard let row = try SQLRow.fetchOne(db, sql: "SELECT id, group_id FROM issue WHERE key = ?", arguments: [move.key]),
                      try row.decode(1, as: Int64?.self) == headID else { continue }
                let id: Int64 = try row.decode(0)
                try db.execute(sql: "UPDATE issue SET group_id = NULL WHERE id = ?", arguments: [id])
                try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'unmerge', ?, ?)",
                               arguments: [headID, id, at.millis, by])
                restored.append((id, move))
            }
            // Members of a group the merge took along go back under its head, unless it is a
            // member of another group since (a member heads no group).
            for (id, move) in restored {
                guard let former = move.formerHead,
                      let formerRow = try SQLRow.fetchOne(db, sql: "SELECT id, group_id FROM issue WHERE key = ?", arguments: [former]),
                      try formerRow.decode(1, as: Int64?.self) == nil else { continue }
                let formerID: Int64 = try formerRow.decode(0)
                try db.execute(sql: "UPDATE issue SET group_id = ? WHERE id = ?", arguments: [formerID, id])
                try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'merge', ?, ?)",
                               arguments: [formerID, id, at.millis, by])
            }
            return restored.map(\.move.key)
        }
    }

    /// Takes one member out of its group again: its own row, counts and rollups stand as before the merge.
    public func unmerge(_ key: String, by: String, at: Timestamp) throws(StoreError) {
        try write { db in
            let id = try TriageStore.issueID(db, key)
            guard let headID = try Int64.fetchOne(db, sql: "SELECT group_id FROM issue WHERE id = ?", arguments: [id]) else {
                throw StoreError.usage("\(key) is not a member of a merged group; unmerge takes a member's key, not a head's")
            }
            try db.execute(sql: "UPDATE issue SET group_id = NULL WHERE id = ?", arguments: [id])
            try db.execute(sql: "INSERT INTO merge_change (head_id, member_id, action, at, \"by\") VALUES (?, ?, 'unmerge', ?, ?)",
                           arguments: [headID, id, at.millis, by])
        }
    }

    /// The key of the group an issue belongs to: its head's, or its own.
    public func groupHead(of key: String) throws(StoreError) -> String {
        try read { db in try TriageStore.headKey(db, key) }
    }

    /// The members of a group's head, uncounted, in the order they were added.
    static func members(_ db: SQLDatabase, of head: Candidate) throws -> [Candidate] {
        try SQLRow.fetchAll(db, sql: """
            SELECT id, key, first_seen, last_seen, first_version, last_version FROM issue WHERE group_id = ? ORDER BY id
            """, arguments: [head.id]).map { row throws(StoreError) in
            var member = head
            member.id = try row.decode(0)
            member.key = try row.decode(1)
            member.firstSeen = Timestamp(millis: try row.decode(2))
            member.lastSeen = Timestamp(millis: try row.decode(3))
            member.firstVersion = try row.decode(4)
            member.lastVersion = try row.decode(5)
            member.groupID = head.id
            return member
        }
    }

    static func issueID(_ db: SQLDatabase, _ key: String) throws -> Int64 {
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) else {
            throw StoreError.unknownKey(key)
        }
        return id
    }

    /// A member's head key (marks on a member act on its group), or the key itself.
    static func headKey(_ db: SQLDatabase, _ key: String) throws -> String {
        try String.fetchOne(db, sql: """
            SELECT COALESCE(h.key, i.key) FROM issue i LEFT JOIN issue h ON h.id = i.group_id WHERE i.key = ?
            """, arguments: [key]) ?? key
    }

    /// Folds counted members into their heads: events and series sum; users and complaints are
    /// counted again across the members (a user of two members, or a complaint citing both, counts once). Members leave the list.
    static func foldGroups(_ db: SQLDatabase, _ candidates: inout [Candidate], buckets: Buckets,
                           restriction: Restriction?) throws {
        guard candidates.contains(where: { $0.groupID != nil }) else { return }
        var index: [Int64: Int] = [:]
        for (i, c) in candidates.enumerated() { index[c.id] = i }
        var members: [Int: [Candidate]] = [:]
        for c in candidates {
            guard let head = c.groupID, let h = index[head] else { continue }
            members[h, default: []].append(c)
        }
        for (h, group) in members {
            let own = candidates[h]
            let sorted = group.sorted { $0.id < $1.id }
            candidates[h].events = group.reduce(own.events) { $0 + $1.events }
            candidates[h].complaints = try distinctComplaints(db, keys: ([own] + group).map(\.key), buckets: buckets)
            let ids = ([own] + group).filter { $0.events > 0 }.map(\.id)
            if let restriction {
                candidates[h].users = try restrictedUsers(db, issueIDs: ids, restriction, buckets: buckets)
            } else {
                candidates[h].users = try distinctUsers(db, issueIDs: ids, buckets: buckets)
            }
            let all = [own] + sorted
            candidates[h].firstSeen = all.map(\.firstSeen).min() ?? own.firstSeen
            candidates[h].lastSeen = all.map(\.lastSeen).max() ?? own.lastSeen
            candidates[h].firstVersion = all.min { $0.firstSeen < $1.firstSeen }?.firstVersion ?? own.firstVersion
            candidates[h].lastVersion = all.max { $0.lastSeen < $1.lastSeen }?.lastVersion ?? own.lastVersion
            candidates[h].group = all
        }
        candidates.removeAll { $0.groupID != nil }
    }
}

extension TriageStore {
    /// Complaints citing any of some keys inside the window, each once (one may cite two members).
    static func distinctComplaints(_ db: SQLDatabase, keys: [String], buckets: Buckets) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(DISTINCT c.id) FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id
            WHERE k.key IN (\(databaseQuestionMarks(count: keys.count))) AND c.ts BETWEEN ? AND ?
            """, arguments: SQLArguments(keys) + [buckets.millis.lowerBound, buckets.millis.upperBound]) ?? 0
    }
}

extension TriageStore.Candidate {
    /// The issues a row stands for: a folded group's, or itself.
    var issues: [TriageStore.Candidate] { group.isEmpty ? [self] : group }
}

extension TriageStore {
    /// Distinct users of some issues over the events dimension terms let through, inside the window.
    static func restrictedUsers(_ db: SQLDatabase, issueIDs ids: [Int64], _ restriction: Restriction,
                                buckets: Buckets) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(DISTINCT user_id) FROM event
            WHERE issue_id IN (\(databaseQuestionMarks(count: ids.count))) AND ts BETWEEN ? AND ? AND \(restriction.condition)
            """, arguments: SQLArguments(ids) + [buckets.millis.lowerBound, buckets.millis.upperBound]
                + restriction.arguments) ?? 0
    }
}

extension TriageStore {
    /// Merge groups: each member points at a head that stands alone, and each group's events and
    /// distinct users as the lists sum them (daily rollup, each member's users) match a recount over the events.
    static func verifyGroups(_ db: SQLDatabase, since horizon: Int64?, problem: (String) -> Void) throws {
        // After a prune: the days, users' last hours and events from the raw horizon on.
        let h = horizon ?? .min
        let day = horizon.map { $0 / Timestamp.millisPerDay } ?? .min, hour = horizon.map { $0 / Timestamp.millisPerHour } ?? .min
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT i.key FROM issue i LEFT JOIN issue h ON h.id = i.group_id
            WHERE i.group_id IS NOT NULL AND (h.id IS NULL OR h.group_id IS NOT NULL OR h.id = i.id)
            """) {
            problem("issue \((try row.decode(0)) as String) is merged into an issue that is missing or is itself a member")
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT h.key, r.events, COALESCE(e.n, 0), u.users, COALESCE(e.users, 0)
            FROM issue h
            JOIN (SELECT COALESCE(i.group_id, i.id) AS g, SUM(d.events) AS events
                  FROM issue_day d JOIN issue i ON i.id = d.issue_id WHERE d.day >= ? GROUP BY 1) r ON r.g = h.id
            JOIN (SELECT COALESCE(i.group_id, i.id) AS g, COUNT(DISTINCT x.user_id) AS users
                  FROM issue_user x JOIN issue i ON i.id = x.issue_id WHERE x.last_hour >= ? GROUP BY 1) u ON u.g = h.id
            LEFT JOIN (SELECT COALESCE(i.group_id, i.id) AS g, COUNT(*) AS n, COUNT(DISTINCT e.user_id) AS users
                       FROM event e JOIN issue i ON i.id = e.issue_id WHERE e.ts >= ? GROUP BY 1) e ON e.g = h.id
            WHERE h.id IN (SELECT group_id FROM issue WHERE group_id IS NOT NULL)
              AND (r.events != COALESCE(e.n, 0) OR u.users != COALESCE(e.users, 0))
            """, arguments: [day, hour, h]) {
            problem("group \((try row.decode(0)) as String) sums \((try row.decode(1)) as Int) events and \((try row.decode(3)) as Int) users, its members' events hold \((try row.decode(2)) as Int) and \((try row.decode(4)) as Int)")
        }
    }
}
