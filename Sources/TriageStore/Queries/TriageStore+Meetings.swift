import TriageModel

extension TriageStore {
    /// Records that a meeting starts now; `--since-meeting` minutes start from the last one.
    public func recordMeeting(at: Timestamp, by: String) throws(StoreError) {
        try write { db in try db.execute(sql: "INSERT INTO meeting (started_at, \"by\") VALUES (?, ?)", arguments: [at.millis, by]) }
    }

    /// When the last meeting up to `now` started (one that starts at `now` counts).
    public func lastMeeting(before now: Timestamp) throws(StoreError) -> Timestamp? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(started_at) FROM meeting WHERE started_at <= ?", arguments: [now.millis])
                .map(Timestamp.init(millis:))
        }
    }

    /// The agenda of a window: every open or regressed issue with its signals, arranged by `Agenda.build`.
    public func agenda(window: TimeWindow, now: Timestamp, top: Int) throws(StoreError) -> Agenda {
        let list = try issueList(IssueQuery(window: window, mode: .events, filter: .active, top: .max), now: now)
        return Agenda.build(from: list.issues, top: top)
    }

    /// What the minutes of a window say (`since` a meeting, when they follow one): the window's
    /// list, read once for the totals and the agenda, and the window before it.
    public func minutes(window: TimeWindow, now: Timestamp, since: Timestamp?, top: Int) throws(StoreError) -> MinutesData {
        let query = IssueQuery(window: window, mode: .events, filter: .active, top: .max)
        let current = try issueList(query, now: now)
        let previousEnd = window.days.map { now.adding(millis: -$0 * Timestamp.millisPerDay) }
            ?? (window == .h24 ? now.adding(millis: -Timestamp.millisPerDay) : nil)
        let previous = previousEnd.flatMap { try? issueList(query, now: $0) }
        return MinutesData(window: window, now: now, since: since, current: current, previous: previous,
                           agenda: Agenda.build(from: current.issues, top: top),
                           decisions: try decisions(from: since ?? current.seriesStart, to: now),
                           unlinked: try unlinkedComplaints(window: window, now: now), release: try releases().last)
    }

    /// Status changes, notes and tracker links recorded in a period, oldest first.
    public func decisions(from start: Timestamp, to end: Timestamp) throws(StoreError) -> [Decision] {
        try read { db in
            var result: [Decision] = []
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT i.key, s.at, s."by", s.from_status, s.to_status, s.version, s.note
                FROM status_change s JOIN issue i ON i.id = s.issue_id WHERE s.at BETWEEN ? AND ? ORDER BY s.at, s.id
                """, arguments: [start.millis, end.millis]) {
                var text = "\(try row.decode(3, as: String?.self) ?? "-") → \(try row.decode(4, as: String.self))"
                if let version = try row.decode(5, as: String?.self) { text += " in \(version)" }
                if let note = try row.decode(6, as: String?.self), !note.isEmpty { text += " (\(note))" }
                result.append(Decision(key: try row.decode(0), at: Timestamp(millis: try row.decode(1)), by: try row.decode(2), text: text))
            }
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT i.key, n.at, n."by", n.text FROM note n JOIN issue i ON i.id = n.issue_id WHERE n.at BETWEEN ? AND ?
                """, arguments: [start.millis, end.millis]) {
                result.append(Decision(key: try row.decode(0), at: Timestamp(millis: try row.decode(1)), by: try row.decode(2),
                                       text: "note: \(try row.decode(3, as: String.self))"))
            }
            return result.sorted { $0.at != $1.at ? $0.at < $1.at : $0.key < $1.key }
        }
    }
}
