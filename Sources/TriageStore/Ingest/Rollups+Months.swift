import TriageModel

/// The month rollups' part of a transaction's flush: `issue_month` (the day rows summed by month,
/// and the users each month gained) and `issue_month_user`.
///
/// `issue_month_user` holds, per issue and user, the months they were seen in but their last:
/// the last is the month of `issue_user.last_hour`, which the flush reads anyway. So a user's
/// first event of an issue, or of a month after their last, is new to its month for certain and
/// costs no look-up, and only the month a user leaves for a later one is written; a month before
/// a user's last (an event that arrives late) is tried against the table.
extension Rollups {
    struct MonthUserKey: Hashable { var issue: Int64; var month: Int64; var user: String }

    /// The transaction's day rows summed per issue and month: what `issue_month` changes by.
    func monthSums() -> [DayKey: Counts] {
        var months: [DayKey: Counts] = [:]
        var last: (day: Int64, month: Int64) = (.min, .min)
        for (k, v) in days {
            if last.day != k.bucket { last = (k.bucket, Timestamp.monthStart(ofDay: k.bucket)) }
            let key = DayKey(issue: k.issue, bucket: last.month)
            months[key, default: Counts()].events += v.events
            months[key, default: Counts()].complaints += v.complaints
            months[key, default: Counts()].users += v.users
        }
        return months
    }

    /// What a transaction changes of the months' users.
    struct MonthUserChanges {
        /// Users new to a month for certain, per issue and month.
        var gained: [DayKey: Int] = [:]
        /// Rows for `issue_month_user` that it cannot hold yet.
        var rows: [MonthUserKey] = []
        /// Months before a user's last: each row `issue_month_user` did not hold is a user new to its month.
        var late: [MonthUserKey] = []
    }

    /// The months' users the transaction's events bring, given each user's last hour before it
    /// (`held`, per issue and user; none for a user new to the issue).
    func monthUserChanges(held: [UserKey: Int64]) -> MonthUserChanges {
        func month(ofHour hour: Int64) -> Int64 { Timestamp.monthStart(ofDay: Timestamp.startOf(hour: hour).day) }
        var changes = MonthUserChanges()
        for key in monthUsers {
            let pair = UserKey(issue: key.issue, user: key.user)
            let before = held[pair]
            if let before {
                let last = month(ofHour: before)
                if key.month == last { continue }
                if key.month < last {
                    changes.late.append(key)
                    continue
                }
            }
            changes.gained[DayKey(issue: key.issue, bucket: key.month), default: 0] += 1
            if let hour = userHours[pair], key.month != month(ofHour: max(before ?? hour, hour)) { changes.rows.append(key) }
        }
        // The month each user leaves for a later one.
        for (pair, before) in held {
            guard let hour = userHours[pair], hour > before else { continue }
            let left = month(ofHour: before)
            if month(ofHour: hour) != left { changes.rows.append(MonthUserKey(issue: pair.issue, month: left, user: pair.user)) }
        }
        return changes
    }

    /// The row-by-row flush's part (SQLite's): the months' users, then the month sums with the
    /// users each month gained.
    func writeMonths(_ db: SQLDatabase, held: [UserKey: Int64]) throws {
        var changes = monthUserChanges(held: held)
        var add = try BoundStatement(db, sql: "INSERT INTO issue_month_user (month, issue_id, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        for (keys, counted) in [(changes.rows, false), (changes.late, true)] {
            for key in keys {
                add.bind(key.month)
                add.bind(key.issue)
                add.bind(key.user)
                try add.execute()
                if counted, db.changesCount > 0 { changes.gained[DayKey(issue: key.issue, bucket: key.month), default: 0] += 1 }
            }
        }
        var upsert = try BoundStatement(db, sql: Rollups.issueMonth.rowUpsert)
        for (k, v) in monthSums() {
            upsert.bind(k.issue)
            upsert.bind(k.bucket)
            upsert.bind(v.events)
            upsert.bind(v.complaints)
            upsert.bind(v.users)
            upsert.bind(changes.gained[k] ?? 0)
            try upsert.execute()
        }
    }
}
