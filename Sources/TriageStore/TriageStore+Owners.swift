import GRDB
import TriageModel

extension TriageStore {
    /// Assigns an issue to a person (nil clears) in one transaction with its history row, a note
    /// saying who assigned whom, which the detail, `show` and the minutes' decisions list.
    /// Returns the previous assignee.
    @discardableResult
    public func assign(_ key: String, to assignee: String?, by: String, at: Timestamp) throws(StoreError) -> String? {
        try write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT id, assignee FROM issue WHERE key = ?", arguments: [key]) else {
                throw StoreError.unknownKey(key)
            }
            let issueID: Int64 = row[0], previous: String? = row[1]
            try db.execute(sql: "UPDATE issue SET assignee = ? WHERE id = ?", arguments: [assignee, issueID])
            try db.execute(sql: "INSERT INTO note (issue_id, at, by, text) VALUES (?, ?, ?, ?)",
                           arguments: [issueID, at.millis, by, Assignment.historyText(to: assignee, from: previous)])
            return previous
        }
    }
}
