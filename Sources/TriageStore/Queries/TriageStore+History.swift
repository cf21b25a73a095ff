import TriageModel

extension TriageStore {
    /// An identifier's whole life (`errtriage history KEY`): per month since first seen, events,
    /// complaints and distinct users from the month rollup (kept for all time, pruned months too),
    /// versions from the breakdown rollup; every status change and merge. The key is the issue's
    /// own, merged or not.
    public func history(key: String) throws(StoreError) -> IssueHistory {
        try read { db in
            guard let row = try SQLRow.fetchOne(db, sql: "SELECT id, status, first_seen, last_seen FROM issue WHERE key = ?", arguments: [key])
            else { throw StoreError.unknownKey(key) }
            let id: Int64 = try row.decode(0)
            var months: [String: IssueHistory.Month] = [:]
            func month(_ day: Int64) -> String {
                let name = Timestamp.monthText(ofDay: day)
                if months[name] == nil { months[name] = IssueHistory.Month(month: name, events: 0, users: 0, complaints: 0, versions: []) }
                return name
            }
            for r in try SQLRow.fetchAll(db, sql: "SELECT month, events, complaints, distinct_users FROM issue_month WHERE issue_id = ?",
                                      arguments: [id]) {
                let m = month((try r.decode(0)))
                months[m]!.events = try r.decode(1)
                months[m]!.complaints = try r.decode(2)
                months[m]!.users = try r.decode(3)
            }
            var versions: [String: Set<String>] = [:]
            for r in try SQLRow.fetchAll(db, sql: """
                SELECT day, value FROM issue_day_dim WHERE issue_id = ? AND dim = ? AND value <> 'unknown'
                """, arguments: [id, Dimension.appVersion.rawValue]) {
                versions[month((try r.decode(0))), default: []].insert((try r.decode(1)))
            }
            for (m, set) in versions {
                months[m]!.versions = set.sorted { a, b in
                    if let x = AppVersion(a), let y = AppVersion(b), x != y { return x < y }
                    return a < b
                }
            }
            let changes = try SQLRow.fetchAll(db, sql: """
                SELECT from_status, to_status, version, at, "by", note FROM status_change WHERE issue_id = ? ORDER BY at, id
                """, arguments: [id]).map {
                StatusChange(from: ((try $0.decode(0)) as String?).flatMap(IssueStatus.init(rawValue:)), to: IssueStatus(rawValue: (try $0.decode(1))) ?? .open,
                             version: (try $0.decode(2)), at: Timestamp(millis: (try $0.decode(3))), by: (try $0.decode(4)), note: (try $0.decode(5)))
            }
            let merges = try SQLRow.fetchAll(db, sql: """
                SELECT c.at, c."by", c.action, h.key, m.key FROM merge_change c
                JOIN issue h ON h.id = c.head_id JOIN issue m ON m.id = c.member_id
                WHERE c.head_id = ? OR c.member_id = ? ORDER BY c.at, c.id
                """, arguments: [id, id]).map {
                IssueHistory.Merge(at: Timestamp(millis: (try $0.decode(0))), by: (try $0.decode(1)), action: (try $0.decode(2)), head: (try $0.decode(3)), member: (try $0.decode(4)))
            }
            return IssueHistory(key: key, chain: try TriageStore.chain(db, issueID: id), status: IssueStatus(rawValue: (try row.decode(1))) ?? .open,
                                firstSeen: Timestamp(millis: (try row.decode(2))), lastSeen: Timestamp(millis: (try row.decode(3))),
                                months: months.values.sorted { $0.month < $1.month }, changes: changes, merges: merges)
        }
    }
}
