import TriageModel

extension TriageStore {
    /// Mutes an issue until a condition holds; the issue then comes back as open with a history row.
    public func mute(_ key: String, until condition: MuteCondition, by: String, at: Timestamp, note: String? = nil) throws(StoreError) -> MarkReceipt {
        try write { db in
            let receipt = try TriageStore.apply(db, key: key, mark: .status(.muted, version: nil), by: by, at: at,
                                                note: [condition.text, note].compactMap { $0 }.joined(separator: "; "))
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [try TriageStore.headKey(db, key)]) else { throw StoreError.unknownKey(key) }
            switch condition {
            case .until(let t):
                try db.execute(sql: "UPDATE issue SET muted_until = ? WHERE id = ?", arguments: [t.millis, id])
            case .events(let n):
                try db.execute(sql: "UPDATE issue SET mute_until_events = \(TriageStore.groupEvents) + ? WHERE id = ?", arguments: [n, id])
            case .users(let n):
                let users = try TriageStore.allTimeUsers(db, issueID: id)
                try db.execute(sql: "UPDATE issue SET mute_until_users = ? WHERE id = ?", arguments: [users + n, id])
            }
            return receipt
        }
    }

    /// Whether a muted issue's condition holds, so that `applyDueMutes` has work to do.
    public func hasDueMutes(now: Timestamp) throws(StoreError) -> Bool {
        try read { db in try !TriageStore.dueMutes(db, now: now).isEmpty }
    }

    /// Brings back every muted issue whose condition now holds; returns their keys. Each fires once.
    @discardableResult
    public func applyDueMutes(now: Timestamp) throws(StoreError) -> [String] {
        guard !readOnly else { return [] }
        let due = try read { db in try TriageStore.dueMutes(db, now: now) }
        guard !due.isEmpty else { return [] }
        return try write { db in
            // Checked again inside the write: another process may have got there first.
            let again = try TriageStore.dueMutes(db, now: now)
            for (id, _, reason) in again {
                try TriageStore.setStatus(db, issueID: id, from: .muted, to: .open, version: nil, at: now, by: "errtriage",
                                          note: "mute ended: \(reason)")
            }
            return again.map(\.key)
        }
    }

    static func dueMutes(_ db: SQLDatabase, now: Timestamp) throws -> [(id: Int64, key: String, reason: String)] {
        var result: [(Int64, String, String)] = []
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT id, key, muted_until, mute_until_events, mute_until_users, \(groupEvents) FROM issue
            WHERE status = 'muted' AND (muted_until IS NOT NULL OR mute_until_events IS NOT NULL OR mute_until_users IS NOT NULL)
            """) {
            let id: Int64 = try row.decode(0)
            if let until = (try row.decode(2)) as Int64?, now.millis >= until {
                result.append((id, (try row.decode(1)), "the date \(Timestamp(millis: until).minuteText) UTC has come"))
            } else if let target = (try row.decode(3)) as Int?, ((try row.decode(5)) as Int) >= target {
                result.append((id, (try row.decode(1)), "\(target) events reached"))
            } else if let target = (try row.decode(4)) as Int?, try allTimeUsers(db, issueID: id) >= target {
                result.append((id, (try row.decode(1)), "\(target) users reached"))
            }
        }
        return result
    }

    /// An issue's events, with its merged members' (a mute's condition counts the group).
    static let groupEvents = "(SELECT SUM(m.events) FROM issue m WHERE m.id = issue.id OR m.group_id = issue.id)"

    /// An issue's distinct users of all time, across its merged members.
    static func allTimeUsers(_ db: SQLDatabase, issueID: Int64) throws -> Int {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue WHERE group_id = ?)", arguments: [issueID]) == true {
            return try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT user_id) FROM issue_user WHERE issue_id IN (SELECT id FROM issue WHERE id = ? OR group_id = ?)
                """, arguments: [issueID, issueID]) ?? 0
        }
        return try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(users), 0) FROM issue_month WHERE issue_id = ?", arguments: [issueID]) ?? 0
    }
}
