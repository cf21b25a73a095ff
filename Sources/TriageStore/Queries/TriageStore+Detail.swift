import TriageModel

extension TriageStore {
    /// How many recent events and complaints the detail carries.
    public static let recentLimit = 50

    /// Everything the detail screen and `show` tell about one issue (a member's key: its group), inside the window.
    public func issueDetail(key asked: String, window: TimeWindow, now: Timestamp) throws(StoreError) -> IssueDetail {
        try read { db in
            let key = try TriageStore.headKey(db, asked)
            guard let row = try SQLRow.fetchOne(db, sql: """
                SELECT id, key, status, first_seen, last_seen, first_version, last_version, tracker_url, kind,
                       assignee, owner, NULL AS group_id, resolved_version
                FROM issue WHERE key = ?
                """, arguments: [key]) else { throw StoreError.unknownKey(key) }
            var candidate = try Candidate(row: row)
            let buckets = try Buckets(db, window: window, now: now)
            var one = [candidate] + (try TriageStore.members(db, of: candidate))
            try TriageStore.count(db, &one, only: one.count == 1 ? candidate.id : nil, buckets: buckets)
            try TriageStore.foldGroups(db, &one, buckets: buckets, restriction: nil)
            candidate = one[0]
            let summary = try TriageStore.summaries(db, [candidate], buckets: buckets, now: now)[0]
            let issueID = candidate.id
            let ids = candidate.issues.map(\.id)
            var detail = IssueDetail(
                summary: summary, window: window, now: now, seriesStart: buckets.seriesStart,
                breakdowns: try TriageStore.breakdowns(db, issueIDs: ids, buckets: buckets),
                recentEvents: try TriageStore.recentEvents(db, summary, ids: ids, until: buckets.millis.upperBound),
                complaints: try TriageStore.complaints(db, keys: summary.members.isEmpty ? [key] : summary.members.map(\.key),
                                                       limit: TriageStore.recentLimit),
                notes: try IssueNote.fetchAll(db, sql: "SELECT at, \"by\", text FROM note WHERE issue_id = ? ORDER BY at DESC, id DESC",
                                              arguments: [issueID]),
                history: try StatusChange.fetchAll(db, sql: """
                    SELECT from_status, to_status, version, at, "by", note FROM status_change WHERE issue_id = ? ORDER BY at DESC, id DESC
                    """, arguments: [issueID]),
                resolvedVersion: try row.decode(12))
            (detail.facets, detail.moreTags) = try TriageStore.facets(db, issueIDs: ids, buckets: buckets, total: summary.events)
            detail.rawEventsSince = buckets.rawSince.map(Timestamp.init(millis:))
            detail.approximateUsers = buckets.usersFromPrunedEvents(restricted: one.count > 1 || !candidate.group.isEmpty)
            return detail
        }
    }

    /// SQL that gives an event's value along a dimension, matching `Dimension.value(of:)`: its
    /// field, or its two fields joined by a space (either alone when the other is missing).
    static func expression(_ dimension: Dimension) -> String {
        let fields = dimension.declaration.fields
        guard fields.count == 2 else { return fields[0] }
        let (a, b) = (fields[0], fields[1])
        return "CASE WHEN \(a) IS NOT NULL AND \(b) IS NOT NULL THEN \(a) || ' ' || \(b) ELSE COALESCE(\(a), \(b)) END"
    }

    /// Counts per dimension and value.
    typealias DimensionCounts = [Dimension: [String: Int]]

    /// Breakdowns from the daily dimension rollup; for 24 hours, see `hourlyCounts`.
    static func breakdowns(_ db: SQLDatabase, issueIDs ids: [Int64], buckets: Buckets) throws -> [Breakdown] {
        let sums = buckets.hourly ? try hourlyCounts(db, issueIDs: ids, buckets: buckets)
                                  : try dayCounts(db, issueIDs: ids, days: buckets.range)
        let counts = sums.mapValues { byValue in byValue.filter { $0.value != 0 }.map { ($0.key, $0.value) } }
        return Dimension.allCases.map { dimension in
            let values = counts[dimension] ?? []
            let total = values.reduce(0) { $0 + $1.1 }
            let rows = values.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map {
                BreakdownRow(value: $0.0, count: $0.1, percent: total == 0 ? 0 : Double($0.1) * 100 / Double(total))
            }
            return Breakdown(dimension: dimension, rows: rows)
        }
    }

    /// The 24 hours' counts, exact. The window's hours fall in two days (or exactly one); when no
    /// event lies after the window, the later day's rollup holds just the window's part of it, and
    /// the earlier day's part is read from whichever is shorter: its hours inside the window from
    /// the events, or its rollup less its hours before the window. At most 12 hours of events are
    /// read instead of 24 (6 on average): the busiest issue's day holds tens of thousands at 10M.
    /// Otherwise (a window that ends before the latest data), all from the events.
    static func hourlyCounts(_ db: SQLDatabase, issueIDs ids: [Int64], buckets: Buckets) throws -> DimensionCounts {
        let first = buckets.range.lowerBound, last = buckets.range.upperBound
        let lastDay = Timestamp.startOf(hour: last).day, firstDay = Timestamp.startOf(hour: first).day
        guard buckets.runsToLatest, lastDay - firstDay <= 1 else {
            return try eventCounts(db, issueIDs: ids, hours: first...last)
        }
        var counts = try dayCounts(db, issueIDs: ids, days: lastDay...lastDay)
        guard firstDay < lastDay else { return counts }
        let startOfLastDay = lastDay * 24
        let inside = first...(startOfLastDay - 1), before = (firstDay * 24)...(first - 1)
        if inside.count <= before.count + 1 {
            add(try eventCounts(db, issueIDs: ids, hours: inside), to: &counts)
        } else {
            add(try dayCounts(db, issueIDs: ids, days: firstDay...firstDay), to: &counts)
            if !before.isEmpty { add(try eventCounts(db, issueIDs: ids, hours: before), to: &counts, times: -1) }
        }
        return counts
    }

    static func add(_ more: DimensionCounts, to counts: inout DimensionCounts, times sign: Int = 1) {
        for (dimension, byValue) in more {
            for (value, n) in byValue { counts[dimension, default: [:]][value, default: 0] += sign * n }
        }
    }

    /// SQL that keeps a read to an issue, or to a group's issues, bound with the ids in order.
    static func issueMatch(_ ids: [Int64]) -> String { match("issue_id", count: ids.count) }

    /// SQL that keeps `column` to one of `count` values bound in order.
    static func match(_ column: String, count: Int) -> String {
        count == 1 ? "\(column) = ?" : "\(column) IN (\(databaseQuestionMarks(count: count)))"
    }

    /// The daily dimension rollup summed over some days.
    static func dayCounts(_ db: SQLDatabase, issueIDs ids: [Int64], days: ClosedRange<Int64>) throws -> DimensionCounts {
        let issues = issueMatch(ids)
        var counts: DimensionCounts = [:]
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT dim, value, SUM(events) FROM issue_day_dim WHERE \(issues) AND day BETWEEN ? AND ? GROUP BY dim, value
            """, arguments: SQLArguments(ids) + [days.lowerBound, days.upperBound]) {
            guard let dimension = Dimension(rawValue: (try row.decode(0))) else { continue }
            counts[dimension, default: [:]][(try row.decode(1)), default: 0] += try row.decode(2)
        }
        return counts
    }

    /// The events of some hours counted per dimension, in one read for every dimension: the
    /// combinations of values, each dimension's counts summed from them here.
    static func eventCounts(_ db: SQLDatabase, issueIDs ids: [Int64], hours: ClosedRange<Int64>) throws -> DimensionCounts {
        let dimensions = Dimension.allCases
        var counts: DimensionCounts = [:]
        for row in try SQLRow.fetchAll(db, sql: dimensionCombinations(keys: [], where: "\(issueMatch(ids)) AND ts BETWEEN ? AND ?"),
                                    arguments: SQLArguments(ids) + [hours.lowerBound * Timestamp.millisPerHour,
                                                                          (hours.upperBound + 1) * Timestamp.millisPerHour - 1]) {
            let n: Int = try row.decode(dimensions.count)
            for (i, dimension) in dimensions.enumerated() { counts[dimension, default: [:]][(try row.decode(i)), default: 0] += n }
        }
        return counts
    }

    /// The newest events up to `until` of an issue or of a group's issues, each with its own chain.
    static func recentEvents(_ db: SQLDatabase, _ summary: IssueSummary, ids: [Int64], until: Int64) throws -> [ErrorEvent] {
        let chains = summary.members.isEmpty ? [summary.chain] : summary.members.map(\.chain)
        var byID: [Int64: ErrorChain] = [:]
        for (id, chain) in zip(ids, chains) { byID[id] = chain }
        let issues = issueMatch(ids)
        return try SQLRow.fetchAll(db, sql: """
            SELECT \(eventColumns), issue_id FROM event WHERE \(issues) AND ts <= ? ORDER BY ts DESC, id DESC LIMIT ?
            """, arguments: SQLArguments(ids) + [until, TriageStore.recentLimit]).map {
            try event(from: $0, chain: byID[(try $0.decode(eventColumnCount))] ?? summary.chain)
        }
    }

    /// The columns `event(from:chain:)` reads, in its order.
    static let eventColumns = """
        event_id, ts, app_version, app_build, platform, os_name, os_version, device_model, network, orientation,
        app_state, free_ram, free_disk, jailbroken, user_id, session_id, environment, message, custom_keys, source, kind,
        project, level, facets
        """

    /// How many columns `eventColumns` names: a column selected after them is at this index.
    static let eventColumnCount = 24

    /// An event as stored; columns in the order of `eventColumns`.
    static func event(from r: SQLRow, chain: ErrorChain) throws(StoreError) -> ErrorEvent {
        var e = ErrorEvent(eventID: (try r.decode(0)), timestamp: Timestamp(millis: (try r.decode(1))), chain: chain, appVersion: (try r.decode(2)), appBuild: (try r.decode(3)),
                   platform: (try r.decode(4)), osName: (try r.decode(5)), osVersion: (try r.decode(6)), deviceModel: (try r.decode(7)), network: (try r.decode(8)), orientation: (try r.decode(9)),
                   appState: (try r.decode(10)), freeRAM: (try r.decode(11)), freeDisk: (try r.decode(12)), jailbroken: (try r.decode(13)), userID: (try r.decode(14)), sessionID: (try r.decode(15)),
                   environment: (try r.decode(16)), message: (try r.decode(17)), customKeys: CustomKeys.decode((try r.decode(18))), source: (try r.decode(19)),
                   kind: ((try r.decode(20)) as String?).flatMap(EventKind.init(rawValue:)), project: (try r.decode(21)), level: (try r.decode(22)))
        e.facets = CustomKeys.decode((try r.decode(23)))
        return e
    }

    static func complaints(_ db: SQLDatabase, keys: [String], limit: Int) throws -> [Complaint] {
        // The newest citations, in the order of `complaint_code_by_time` (no sort of every
        // complaint of the busiest issue, text and all: 91 ms of its detail at 10M events with
        // DISTINCT, 39 ms by id alone). A complaint citing two members of a group is one
        // complaint cited twice, so `limit` per key holds the newest `limit` complaints.
        return try SQLRow.fetchAll(db, sql: """
            SELECT c.complaint_id, c.ts, c.channel, c.category, c.subject, c.text, c.user_id, c.codes, c.id
            FROM complaint c
            WHERE c.id IN (SELECT complaint_id FROM complaint_code WHERE \(match("key", count: keys.count))
                           ORDER BY ts DESC, complaint_id DESC LIMIT ?)
            ORDER BY c.ts DESC, c.id DESC LIMIT ?
            """, arguments: SQLArguments(keys) + [limit * keys.count, limit]).map { r in
            Complaint(complaintID: (try r.decode(0)), timestamp: Timestamp(millis: (try r.decode(1))), channel: (try r.decode(2)), category: (try r.decode(3)), subject: (try r.decode(4)),
                      text: (try r.decode(5)), userID: (try r.decode(6)), codes: ((try r.decode(7)) as String).split(separator: " ").map(String.init))
        }
    }
}

/// A note as the detail selects it: `at, "by", text`.
extension IssueNote: RowDecodable {
    init(row: SQLRow) throws(StoreError) {
        self.init(at: Timestamp(millis: try row.decode(0)), by: try row.decode(1), text: try row.decode(2))
    }
}

/// A status change as the detail selects it: `from_status, to_status, version, at, "by", note`.
extension StatusChange: RowDecodable {
    init(row: SQLRow) throws(StoreError) {
        self.init(from: try row.decode(0, as: String?.self).flatMap(IssueStatus.init(rawValue:)),
                  to: IssueStatus(rawValue: try row.decode(1)) ?? .open, version: try row.decode(2),
                  at: Timestamp(millis: try row.decode(3)), by: try row.decode(4), note: try row.decode(5))
    }
}
