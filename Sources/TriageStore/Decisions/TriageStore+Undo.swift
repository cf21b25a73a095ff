import TriageModel

extension TriageStore {
    /// Takes a change back, in one transaction, while it still stands; refuses with the sentence
    /// `undoIfStanding` gives when someone changed the issue since.
    public func undo(_ receipt: MarkReceipt, by: String, at: Timestamp) throws(StoreError) {
        if case .overwritten(let why) = try undoIfStanding(receipt, by: by, at: at) { throw StoreError.usage(why) }
    }

    /// Takes a change back while it still stands, in one transaction: the previous status (with a
    /// history row saying so), the note removed, the previous tracker link, the previous assignee
    /// (with its history row). A change stands while the issue still shows what it set and, for a
    /// status, every later status row is `by`'s own (a mark of theirs and its undo); otherwise
    /// nothing is written and the outcome says who changed what since, so that an undo never
    /// reverts someone else's decision in place of its own.
    public func undoIfStanding(_ receipt: MarkReceipt, by: String, at: Timestamp) throws(StoreError) -> UndoOutcome {
        try write { db in
            guard let row = try SQLRow.fetchOne(db, sql: "SELECT id, status, tracker_url, assignee FROM issue WHERE key = ?",
                                             arguments: [try TriageStore.headKey(db, receipt.key)]) else {
                throw StoreError.unknownKey(receipt.key)
            }
            let issueID: Int64 = try row.decode(0)
            let status = IssueStatus(rawValue: (try row.decode(1))) ?? .open
            let tracker: String? = (try row.decode(2)), assignee: String? = try row.decode(3)
            if let why = try TriageStore.overwritten(db, receipt, issueID: issueID, status: status, tracker: tracker,
                                                     assignee: assignee, by: by) {
                return .overwritten(why)
            }
            switch receipt.mark {
            case .status:
                try TriageStore.setStatus(db, issueID: issueID, from: status, to: receipt.previousStatus,
                                          version: receipt.previousVersion, at: at, by: by, note: "undo")
            case .note:
                if let id = receipt.noteID { try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id]) }
            case .tracker:
                try db.execute(sql: "UPDATE issue SET tracker_url = ? WHERE id = ?", arguments: [receipt.previousTracker, issueID])
            case .assignee:
                try TriageStore.setAssignee(db, issueID: issueID, to: receipt.previousAssignee, from: assignee, by: by, at: at)
            }
            return .undone
        }
    }

    /// Why a change no longer stands (who changed the issue since), nil while it does.
    static func overwritten(_ db: SQLDatabase, _ receipt: MarkReceipt, issueID: Int64, status: IssueStatus, tracker: String?,
                            assignee: String?, by: String) throws -> String? {
        switch receipt.mark {
        case .status(let set, _):
            guard let changeID = receipt.changeID else { return status == set ? nil : "it is \(status.rawValue) now" }
            // The newest later row by someone else (a person, or errtriage's own regression rule).
            if let other = try SQLRow.fetchOne(db, sql: """
                SELECT "by", to_status FROM status_change WHERE issue_id = ? AND id > ? AND "by" <> ? ORDER BY id DESC LIMIT 1
                """, arguments: [issueID, changeID, by]) {
                return "\((try other.decode(0)) as String) marked it \((try other.decode(1)) as String) since"
            }
            return status == set ? nil : "you marked it \(status.rawValue) since"
        case .note:
            guard let id = receipt.noteID else { return nil }
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM note WHERE id = ?)", arguments: [id]) ?? false
            return exists ? nil : "the note was removed since"
        case .tracker(let url):
            guard tracker != url else { return nil }
            return tracker.map { "its tracker link is \($0) since" } ?? "its tracker link was cleared since"
        case .assignee(let name):
            guard assignee != name else { return nil }
            return assignee.map { "it was assigned to \($0) since" } ?? "it was unassigned since"
        }
    }
}
