import TriageModel

extension TriageStore {
    /// Adds an alert, or replaces one of the same name (its firings are kept); the query must parse.
    public func addAlert(_ alert: AlertRule) throws(StoreError) {
        try TriageStore.requireQuery(alert.query)
        try write { db in
            try db.execute(sql: """
                INSERT INTO alert_rule (name, query, measure, threshold, within) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET query = excluded.query, measure = excluded.measure,
                    threshold = excluded.threshold, within = excluded.within
                """, arguments: [alert.name, alert.query, alert.measure.rawValue, alert.threshold, alert.within.rawValue])
        }
    }

    /// Every alert, by name.
    public func alerts() throws(StoreError) -> [AlertRule] {
        try read { db in
            try SQLRow.fetchAll(db, sql: "SELECT name, query, measure, threshold, within FROM alert_rule ORDER BY name").map { row in
                AlertRule(name: (try row.decode(0)), query: (try row.decode(1)), measure: AlertRule.Measure(rawValue: (try row.decode(2))) ?? .events,
                          threshold: (try row.decode(3)), within: AlertRule.Span(rawValue: (try row.decode(4))) ?? .h24)
            }
        }
    }

    /// Removes an alert and its firings; an unknown name is an error.
    public func removeAlert(named name: String) throws(StoreError) {
        let names = try alerts().map(\.name)
        guard names.contains(name) else { throw StoreError.unknownName("alert", name, known: names) }
        try write { db in
            try db.execute(sql: "DELETE FROM alert_fired WHERE alert = ?", arguments: [name])
            try db.execute(sql: "DELETE FROM alert_rule WHERE name = ?", arguments: [name])
        }
    }

    /// What fires now and has not fired before for that issue (re-armed once the issue was resolved
    /// after firing), and the new issues and regressions since the last run. Unless `dryRun`,
    /// records the firings and this run's time, so the next run tells only what is new.
    public func runAlerts(now: Timestamp, dryRun: Bool) throws(StoreError) -> AlertReport {
        let since = try read { db in
            try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'alerts_run'")
        }.map { Timestamp(millis: $0) } ?? now.adding(millis: -Timestamp.millisPerDay)
        var firings: [AlertReport.Firing] = []
        for alert in try alerts() {
            let list = try issueList(IssueQuery(window: alert.within.window, filter: .active, text: alert.query, top: .max), now: now)
            for issue in list.issues {
                let count = try alertCount(alert, issue, now: now)
                if count >= alert.threshold, try !hasFired(alert.name, key: issue.key) {
                    firings.append(AlertReport.Firing(alert: alert, issue: issue, count: count))
                }
            }
        }
        let all = try issueList(IssueQuery(window: .d7, filter: .all, top: .max), now: now).issues
        // New issues and regressions since the last run: by the rows added since (the issue and
        // status-change ids it saw last), so an event that reaches the store after a run, with an
        // earlier time of its own (a device's clock, a server's queue), is told all the same;
        // on a first run, by time.
        let (newKeys, regressedKeys, lastIssue, lastChange) = try read { db in
            let marks = try SQLRow.fetchOne(db, sql: """
                SELECT (SELECT value FROM meta WHERE key = 'alerts_issue_id'), (SELECT value FROM meta WHERE key = 'alerts_change_id')
                """)
            let issueMark: Int64? = try marks?.decode(0)
            let changeMark: Int64? = try marks?.decode(1)
            let newKeys = Set(try issueMark.map { mark in
                try String.fetchAll(db, sql: "SELECT key FROM issue WHERE id > ?", arguments: [mark])
            } ?? String.fetchAll(db, sql: "SELECT key FROM issue WHERE first_seen > ? AND first_seen <= ?",
                                 arguments: [since.millis, now.millis]))
            let regressed = Set(try changeMark.map { mark in
                try String.fetchAll(db, sql: """
                    SELECT DISTINCT i.key FROM status_change s JOIN issue i ON i.id = s.issue_id
                    WHERE s.to_status = 'regressed' AND s.id > ?
                    """, arguments: [mark])
            } ?? String.fetchAll(db, sql: """
                SELECT DISTINCT i.key FROM status_change s JOIN issue i ON i.id = s.issue_id
                WHERE s.to_status = 'regressed' AND s.at > ? AND s.at <= ?
                """, arguments: [since.millis, now.millis]))
            let lastIssue = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM issue") ?? 0
            let lastChange = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM status_change") ?? 0
            return (newKeys, regressed, lastIssue, lastChange)
        }
        // Spikes: each issue once, as a firing of the condition `(spike)` (a name `alert add` cannot take).
        var spikes: [IssueSummary] = []
        for issue in try issueList(IssueQuery(window: .h24, filter: .active, text: "is:spike", top: .max), now: now).issues
        where try !hasFired(AlertReport.spikeCondition, key: issue.key) {
            spikes.append(issue)
        }
        if !dryRun {
            try write { db in
                for (name, key) in firings.map({ ($0.alert.name, $0.issue.key) }) + spikes.map({ (AlertReport.spikeCondition, $0.key) }) {
                    try db.execute(sql: """
                        INSERT INTO alert_fired (alert, issue_id, fired_at) SELECT ?, id, ? FROM issue WHERE key = ?
                        ON CONFLICT (alert, issue_id) DO UPDATE SET fired_at = excluded.fired_at
                        """, arguments: [name, now.millis, key])
                }
                for (key, value) in [("alerts_run", now.millis), ("alerts_issue_id", lastIssue), ("alerts_change_id", lastChange)] {
                    try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                                   arguments: [key, value])
                }
            }
        }
        return AlertReport(since: since, now: now, firings: firings, newIssues: all.filter { newKeys.contains($0.key) },
                           regressions: all.filter { regressedKeys.contains($0.key) }, spikes: spikes)
    }

    /// The alert's count for one issue (a group: over its members): over its span (the current hour for 1h), restricted by the query's dimension terms.
    func alertCount(_ alert: AlertRule, _ issue: IssueSummary, now: Timestamp) throws(StoreError) -> Int {
        guard alert.within == .h1 else { return alert.measure == .events ? issue.events : issue.users }
        if alert.measure == .events { return issue.series.last ?? 0 }
        let search = IssueQuery(text: alert.query).search
        return try read { db in
            let (condition, arguments, _) = try TriageStore.eventCondition(db, search.dimensionTerms)
            return try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT user_id) FROM event
                WHERE issue_id IN (SELECT i.id FROM issue i JOIN issue h ON h.id = COALESCE(i.group_id, i.id) WHERE h.key = ?)
                  AND ts BETWEEN ? AND ? AND \(condition)
                """, arguments: [issue.key, now.hour * Timestamp.millisPerHour, now.millis] + arguments) ?? 0
        }
    }

    /// Whether an alert fired for the issue and the issue has not been resolved since.
    func hasFired(_ alert: String, key: String) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM alert_fired f JOIN issue i ON i.id = f.issue_id
                    WHERE f.alert = ? AND i.key = ? AND NOT EXISTS (
                        SELECT 1 FROM status_change s WHERE s.issue_id = f.issue_id AND s.to_status = 'resolved' AND s.at > f.fired_at))
                """, arguments: [alert, key]) ?? false
        }
    }
}
