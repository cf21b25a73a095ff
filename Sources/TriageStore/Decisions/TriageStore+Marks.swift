import TriageModel

extension TriageStore {
    /// Applies a mark and its history row in one transaction (a member's key marks its group); returns what undo needs.
    /// Resolving checks the events already stored: one that the rule says regresses it does so at once.
    public func mark(_ key: String, _ mark: IssueMark, by: String, at: Timestamp, note: String? = nil) throws(StoreError) -> MarkReceipt {
        try write { db in try TriageStore.apply(db, key: key, mark: mark, by: by, at: at, note: note) }
    }

    static func apply(_ db: SQLDatabase, key: String, mark: IssueMark, by: String, at: Timestamp, note: String?) throws -> MarkReceipt {
        guard let row = try SQLRow.fetchOne(db, sql: "SELECT id, status, resolved_version, tracker_url, assignee FROM issue WHERE key = ?",
                                         arguments: [try headKey(db, key)]) else { throw StoreError.unknownKey(key) }
        let issueID: Int64 = try row.decode(0)
        let previous = IssueStatus(rawValue: (try row.decode(1))) ?? .open
        var receipt = MarkReceipt(key: key, mark: mark, previousStatus: previous, previousVersion: (try row.decode(2)),
                                  previousTracker: (try row.decode(3)), noteID: nil)
        receipt.previousAssignee = try row.decode(4)
        switch mark {
        case .status(let status, let version):
            receipt.previousBy = try String.fetchOne(db, sql: """
                SELECT "by" FROM status_change WHERE issue_id = ? ORDER BY id DESC LIMIT 1
                """, arguments: [issueID])
            receipt.changeID = try setStatus(db, issueID: issueID, from: previous, to: status, version: version, at: at, by: by, note: note)
            if status == .resolved {
                try regressIfStoredEventsSaySo(db, issueID: issueID, resolvedAt: at, resolvedVersion: version)
            }
        case .note(let text):
            receipt.noteID = try db.insertID(sql: "INSERT INTO note (issue_id, at, \"by\", text) VALUES (?, ?, ?, ?)",
                                             arguments: [issueID, at.millis, by, text])
        case .tracker(let url):
            try db.execute(sql: "UPDATE issue SET tracker_url = ? WHERE id = ?", arguments: [url, issueID])
        case .assignee(let name):
            try setAssignee(db, issueID: issueID, to: name, from: receipt.previousAssignee, by: by, at: at)
        }
        return receipt
    }

    /// Sets an issue's status with its history row, whose id it returns.
    @discardableResult
    static func setStatus(_ db: SQLDatabase, issueID: Int64, from: IssueStatus, to: IssueStatus, version: String?,
                          at: Timestamp, by: String, note: String?) throws -> Int64 {
        switch to {
        case .resolved:
            try db.execute(sql: "UPDATE issue SET status = 'resolved', resolved_version = ?, resolved_at = ? WHERE id = ?",
                           arguments: [version, at.millis, issueID])
        case .open:
            try db.execute(sql: "UPDATE issue SET status = 'open', resolved_version = NULL, resolved_at = NULL WHERE id = ?",
                           arguments: [issueID])
        case .regressed, .muted:
            try db.execute(sql: "UPDATE issue SET status = ? WHERE id = ?", arguments: [to.rawValue, issueID])
        }
        // A mute's condition lives only as long as the mute.
        try db.execute(sql: "UPDATE issue SET muted_until = NULL, mute_until_events = NULL, mute_until_users = NULL WHERE id = ?",
                       arguments: [issueID])
        return try db.insertID(sql: "INSERT INTO status_change (issue_id, from_status, to_status, version, at, \"by\", note) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [issueID, from.rawValue, to.rawValue, version, at.millis, by, note])
    }

    /// After a resolve dated in the past, events already stored after that time may regress the issue.
    static func regressIfStoredEventsSaySo(_ db: SQLDatabase, issueID: Int64, resolvedAt: Timestamp, resolvedVersion: String?) throws {
        var seenBefore: [String: Bool] = [:]
        let rows = try SQLRow.fetchAll(db, sql: """
            SELECT event_id, ts, app_version, app_build FROM event WHERE issue_id = ? AND ts > ? ORDER BY ts, id
            """, arguments: [issueID, resolvedAt.millis])
        for r in rows {
            let version: String? = try r.decode(2)
            let time = Timestamp(millis: (try r.decode(1)))
            let regresses = RegressionRule.regresses(
                eventTime: time, eventVersion: version, eventBuild: (try r.decode(3)), resolvedAt: resolvedAt, resolvedVersion: resolvedVersion,
                versionSeenBefore: {
                    guard let version else { return true }
                    if let known = seenBefore[version] { return known }
                    let found = (try? Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM event WHERE issue_id = ? AND app_version = ? AND ts <= ?)",
                                                    arguments: [issueID, version, resolvedAt.millis])) ?? false
                    seenBefore[version] = found
                    return found
                })
            if regresses {
                try recordRegression(db, issueID: issueID, event: ErrorEvent(
                    eventID: (try r.decode(0)), timestamp: time, chain: ErrorChain(links: []), appVersion: version, appBuild: (try r.decode(3))))
                return
            }
        }
    }
}
