import TriageModel

extension TriageStore {
    /// The top-N list and its totals for a query: what the dashboard's list and `report` show.
    public func issueList(_ query: IssueQuery, now: Timestamp) throws(StoreError) -> IssueList {
        try read { db in
            let buckets = try Buckets(db, window: query.window, now: now)
            let search = query.search
            var candidates = try TriageStore.candidates(db, query: query)
            let active = try TriageStore.count(db, &candidates, buckets: buckets)
            let restricted = try TriageStore.applySearch(db, search, to: &candidates, buckets: buckets, now: now)
            try TriageStore.foldGroups(db, &candidates, buckets: buckets, restriction: restricted)
            // Resolved and muted issues are listed even when quiet: that they are quiet is the news.
            let showQuiet = (query.filter == .resolved || query.filter == .muted) && restricted == nil
            candidates = candidates.filter { showQuiet || $0.events > 0 || ($0.complaints > 0 && restricted == nil) }
            let totals = try restricted.map { try TriageStore.restrictedTotals(db, candidates, $0, buckets: buckets) }
                ?? TriageStore.totals(db, candidates, activeIssues: active, buckets: buckets)
            candidates.sort { a, b in
                let x = a.count(for: query.mode), y = b.count(for: query.mode)
                if x != y { return x > y }
                if a.events != b.events { return a.events > b.events }
                return a.key < b.key
            }
            let top = Array(candidates.prefix(max(0, query.top)))
            let summaries = try TriageStore.summaries(db, top, buckets: buckets, now: now, series: restricted?.series)
            let store = try SQLRow.fetchOne(db, sql: "SELECT COALESCE(SUM(events), 0), MAX(last_seen) FROM issue")
            let latest: Int64? = try store?.decode(1)
            var list = IssueList(query: query, now: now, seriesStart: buckets.seriesStart, totals: totals,
                                 issues: summaries, storeEvents: (try store?.decode(0)) ?? 0, latestEvent: latest.map(Timestamp.init(millis:)))
            list.unmatched = try TriageStore.unmatched(db, search.dimensionTerms)
            list.rawEventsSince = buckets.rawSince.map(Timestamp.init(millis:))
            list.approximateUsers = buckets.usersFromPrunedEvents(restricted: restricted != nil || candidates.contains { !$0.group.isEmpty })
            list.intakeRejections = try TriageStore.intakeRejections(db)
            return list
        }
    }

    /// An issue row before its series and chain are read.
    struct Candidate {
        var id: Int64
        var key: String
        var status: IssueStatus
        var firstSeen: Timestamp
        var lastSeen: Timestamp
        var firstVersion: String?
        var lastVersion: String?
        var trackerURL: String?
        var kind: EventKind?
        var assignee: String?
        var owner: String?
        /// The head this issue is merged into; nil when it heads its own group.
        var groupID: Int64?
        /// A folded group's issues, the head's own counts first; empty when the issue stands alone.
        var group: [Candidate] = []
        var events = 0
        var complaints = 0
        var users = 0

        func count(for mode: RankMode) -> Int {
            switch mode {
            case .events: events
            case .complaints: complaints
            case .users: users
            }
        }
    }

    /// The buckets a window covers: hours for 24h, days otherwise.
    struct Buckets {
        var hourly: Bool
        var range: ClosedRange<Int64>
        var now: Timestamp
        /// No event falls after the window: a user's last event falls inside it exactly when the
        /// user was seen inside it, so the rollups' `users` columns sum to the distinct users.
        var runsToLatest: Bool
        /// Where raw events begin after a prune (nil: nothing pruned).
        var rawSince: Int64?
        /// The first and last days with data (`issue_day`'s), for a window of days; nil when none.
        var dataDays: ClosedRange<Int64>?

        /// Whether users counted from the events of this window miss pruned ones: the window
        /// reaches before the raw horizon and its users are counted from events (it ends before
        /// the latest data, or `fromEvents`: a dimension term or a merge group recounts them).
        func usersFromPrunedEvents(restricted fromEvents: Bool) -> Bool {
            guard let rawSince, millis.lowerBound < rawSince else { return false }
            return !runsToLatest || fromEvents
        }

        init(_ db: SQLDatabase, window: TimeWindow, now: Timestamp) throws {
            self.now = now
            rawSince = try TriageStore.meta(db, RetentionKey.since)
            hourly = window.isHourly
            let latest = try Int64.fetchOne(db, sql: "SELECT MAX(\(hourly ? "hour" : "day")) FROM \(hourly ? "issue_hour" : "issue_day")")
            if hourly {
                range = TimeWindow.hourRange(now: now)
            } else {
                let firstDay = try Int64.fetchOne(db, sql: "SELECT MIN(day) FROM issue_day")
                range = window.dayRange(now: now, firstDay: firstDay ?? now.day)
                if let firstDay, let latest { dataDays = firstDay...latest }
            }
            let last = range.upperBound
            runsToLatest = latest.map { $0 <= last } ?? true
        }

        /// Windows of more days than this read their whole months from `issue_month`.
        static let monthsAfterDays = 62

        /// A long window of days as whole months (their first days), read from `issue_month`, and
        /// the days at its edges, read from `issue_day`: the same sums with a row per month instead
        /// of one per day. The days before the first with data and after the last hold nothing, so
        /// the window stretches over them to their months' edges (`all` is whole months alone).
        /// Nil for a short window, one of hours, or one that holds no whole month.
        var monthSplit: (months: ClosedRange<Int64>, edges: [ClosedRange<Int64>])? {
            guard !hourly, count > Buckets.monthsAfterDays, let data = dataDays else { return nil }
            let lo = range.lowerBound <= data.lowerBound ? Timestamp.monthStart(ofDay: data.lowerBound) : range.lowerBound
            let hi = range.upperBound >= data.upperBound ? Timestamp.nextMonthStart(ofDay: data.upperBound) - 1 : range.upperBound
            // The whole months run from `first` up to the day before `end`.
            let first = Timestamp.monthStart(ofDay: lo) == lo ? lo : Timestamp.nextMonthStart(ofDay: lo)
            let end = Timestamp.nextMonthStart(ofDay: hi) == hi + 1 ? hi + 1 : Timestamp.monthStart(ofDay: hi)
            guard first < end else { return nil }
            return (first...Timestamp.monthStart(ofDay: end - 1), [(lo, first - 1), (end, hi)].filter { $0.0 <= $0.1 }.map { $0.0...$0.1 })
        }

        var table: String { hourly ? "issue_hour" : "issue_day" }
        var column: String { hourly ? "hour" : "day" }
        var seriesStart: Timestamp { hourly ? .startOf(hour: range.lowerBound) : .startOf(day: range.lowerBound) }
        var count: Int { Int(range.upperBound - range.lowerBound + 1) }
        /// The window's time span in milliseconds, for queries over events.
        var millis: ClosedRange<Int64> {
            let unit = hourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
            return (range.lowerBound * unit)...((range.upperBound + 1) * unit - 1)
        }
        /// The window's hour buckets.
        var hours: ClosedRange<Int64> { hourly ? range : (range.lowerBound * 24)...(range.upperBound * 24 + 23) }
    }

    static func candidates(_ db: SQLDatabase, query: IssueQuery) throws -> [Candidate] {
        let search = query.search
        // A `status:` term picks the statuses itself.
        let statuses = (search.uses(.status) ? IssueStatus.allCases : Array(query.filter.statuses)).map(\.rawValue).sorted()
        var sql = """
            SELECT i.id, i.key, COALESCE(h.status, i.status), i.first_seen, i.last_seen, i.first_version, i.last_version,
                   COALESCE(h.tracker_url, i.tracker_url), COALESCE(h.kind, i.kind), COALESCE(h.assignee, i.assignee),
                   COALESCE(h.owner, i.owner), i.group_id, COALESCE(h.key, i.key)
            FROM issue i LEFT JOIN issue h ON h.id = i.group_id
            WHERE COALESCE(h.status, i.status) IN (\(databaseQuestionMarks(count: statuses.count)))
            """
        var arguments = SQLArguments(statuses)
        if let kind = query.kind {
            sql += " AND COALESCE(h.kind, i.kind) = ?"
            arguments += [kind.rawValue]
        }
        let rows = try SQLRow.fetchAll(db, sql: sql, arguments: arguments)
        let scoped = try query.scope.map { scope in try rows.filter { row in scope.keys.contains(try row.decode(12, as: String.self)) } } ?? rows
        return try scoped.map { row throws(StoreError) in try Candidate(row: row) }
    }

    /// Fills events, complaints and users inside the window from the rollups; returns how many
    /// issues (listed or not; with `only`, that one) have events inside it.
    @discardableResult
    static func count(_ db: SQLDatabase, _ candidates: inout [Candidate], only: Int64? = nil, buckets: Buckets) throws -> Int {
        var index: [Int64: Int] = [:]
        for (i, c) in candidates.enumerated() { index[c.id] = i }
        var active = 0
        // A window of more than a few weeks holds most of the daily rollup: reading the table in
        // its (issue, day) order groups without sorting; a short one, and every window of hours
        // (24 of the hourly rollup's thousands), reads its range of the covering by-time index.
        // One issue (the detail) reads its own range of the table. A window of months reads a row
        // per issue and month instead, and its edges' days (`monthSplit`).
        // (The unary `+` is SQLite's way to keep its planner off an index; PostgreSQL's planner
        // picks the scan by its statistics, and the `+` would only spoil its estimate.)
        let column = !buckets.hourly && buckets.count > 14 ? db.dialect.indexAvoidance + buckets.column : buckets.column
        let one = only.map { _ in "issue_id = ? AND " } ?? ""
        let issue = SQLArguments(only.map { [$0] } ?? [])
        var sql = """
            SELECT issue_id, SUM(events), SUM(complaints), SUM(users) FROM \(buckets.table)
            WHERE \(one)\(column) BETWEEN ? AND ? GROUP BY issue_id
            """
        var arguments = issue + [buckets.range.lowerBound, buckets.range.upperBound]
        if let split = buckets.monthSplit {
            let counts = "issue_id, events, complaints, users"
            sql = "SELECT issue_id, SUM(events), SUM(complaints), SUM(users) FROM ("
                + (["SELECT \(counts) FROM issue_month WHERE \(one)month BETWEEN ? AND ?"]
                   + split.edges.map { _ in "SELECT \(counts) FROM issue_day WHERE \(one)day BETWEEN ? AND ?" }).joined(separator: " UNION ALL ")
                + ") AS r GROUP BY issue_id"
            arguments = issue + [split.months.lowerBound, split.months.upperBound]
            for edge in split.edges { arguments += issue + [edge.lowerBound, edge.upperBound] }
        }
        try db.forEachIntegers(sql: sql, arguments: arguments, columns: 4) { row in
            let events = Int(row[1])
            if events > 0 { active += 1 }
            guard let i = index[row[0]] else { return }
            candidates[i].events = events
            candidates[i].complaints = Int(row[2])
            if buckets.runsToLatest { candidates[i].users = Int(row[3]) }
        }
        if !buckets.runsToLatest {
            for i in candidates.indices where candidates[i].events > 0 {
                candidates[i].users = try distinctUsers(db, issueIDs: [candidates[i].id], buckets: buckets)
            }
        }
        return active
    }

    /// Distinct users of some issues inside the window, counted from rows: from each issue's
    /// users' last hours when the window runs to the latest data, else from the events.
    static func distinctUsers(_ db: SQLDatabase, issueIDs ids: [Int64], buckets: Buckets) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let issues = "issue_id IN (\(databaseQuestionMarks(count: ids.count)))"
        if buckets.runsToLatest {
            return try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT user_id) FROM issue_user WHERE \(issues) AND last_hour BETWEEN ? AND ?
                """, arguments: SQLArguments(ids) + [buckets.hours.lowerBound, buckets.hours.upperBound]) ?? 0
        }
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(DISTINCT user_id) FROM event WHERE \(issues) AND ts BETWEEN ? AND ?
            """, arguments: SQLArguments(ids) + [buckets.millis.lowerBound, buckets.millis.upperBound]) ?? 0
    }

    /// The header's totals. Its users are the distinct users across the listed issues: a sum over
    /// the all-issue rollup when the list holds every issue with events in the window (the usual
    /// case), else counted from rows.
    static func totals(_ db: SQLDatabase, _ candidates: [Candidate], activeIssues: Int, buckets: Buckets) throws -> Totals {
        let ids = candidates.flatMap(\.issues).filter { $0.events > 0 }.map(\.id)
        // Every issue with events in the window is listed: the totals need not name them.
        let everyActive = ids.count == activeIssues
        var series = [Int](repeating: 0, count: buckets.count)
        if !ids.isEmpty && everyActive && !buckets.hourly {
            // Every issue's events per day: a row a day, not one per issue and day.
            try db.forEachIntegers(sql: "SELECT day, events FROM total_day WHERE day BETWEEN ? AND ?",
                                   arguments: [buckets.range.lowerBound, buckets.range.upperBound], columns: 2) { row in
                series[Int(row[0] - buckets.range.lowerBound)] = Int(row[1])
            }
        } else if !ids.isEmpty {
            let issues = everyActive ? "" : " AND issue_id IN (\(databaseQuestionMarks(count: ids.count)))"
            try db.forEachIntegers(sql: """
                SELECT \(buckets.column), SUM(events) FROM \(buckets.table)
                WHERE \(buckets.column) BETWEEN ? AND ?\(issues) GROUP BY \(buckets.column)
                """, arguments: [buckets.range.lowerBound, buckets.range.upperBound] + (everyActive ? [] : SQLArguments(ids)),
                columns: 2) { row in
                series[Int(row[0] - buckets.range.lowerBound)] = Int(row[1])
            }
        }
        let users: Int
        if buckets.runsToLatest && everyActive {
            users = try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(users), 0) FROM \(buckets.hourly ? "total_hour" : "total_day")
                WHERE \(buckets.column) BETWEEN ? AND ?
                """, arguments: [buckets.range.lowerBound, buckets.range.upperBound]) ?? 0
        } else {
            users = try distinctUsers(db, issueIDs: ids, buckets: buckets)
        }
        return Totals(issues: candidates.count, events: candidates.reduce(0) { $0 + $1.events }, users: users,
                      complaints: candidates.reduce(0) { $0 + $1.complaints }, series: series)
    }

    /// Turns counted candidates into list rows: chains, series and signals.
    static func summaries(_ db: SQLDatabase, _ top: [Candidate], buckets: Buckets, now: Timestamp,
                          series restricted: [Int64: [Int]]? = nil) throws -> [IssueSummary] {
        let ids = top.flatMap(\.issues).map(\.id)
        let chains = try chains(db, issueIDs: ids)
        var series: [Int64: [Int]] = restricted ?? [:]
        if !ids.isEmpty && restricted == nil {
            let (filter, arguments) = idFilter(ids, db)
            var read = BucketRows(ids, width: buckets.count)
            let first = buckets.range.lowerBound
            try db.forEachIntegers(sql: """
                SELECT issue_id, \(buckets.column), events FROM \(buckets.table)
                WHERE \(filter)\(buckets.column) BETWEEN ? AND ?
                """, arguments: arguments + [first, buckets.range.upperBound], columns: 3) { row in
                read.set(row[0], Int(row[1] - first), Int(row[2]))
            }
            series = read.byIssue
        }
        let hourly = try lastHours(db, issueIDs: ids, now: now)
        let empty = [Int](repeating: 0, count: buckets.count)
        func summary(_ c: Candidate) -> IssueSummary {
            guard !c.group.isEmpty else { return solo(c) }
            var s = solo(c)
            s.series = c.group.map { series[$0.id] ?? empty }.reduce(empty) { zip($0, $1).map(+) }
            let hours = c.group.compactMap { hourly[$0.id] }
            s.signals = signals(c, hourly: hours.isEmpty ? [] : hours.dropFirst().reduce(hours[0]) { zip($0, $1).map(+) }, now: now)
            s.members = c.group.map(solo)
            return s
        }
        func solo(_ c: Candidate) -> IssueSummary {
            IssueSummary(key: c.key, chain: chains[c.id] ?? ErrorChain(links: []), status: c.status, events: c.events,
                         users: c.users, complaints: c.complaints, firstSeen: c.firstSeen, lastSeen: c.lastSeen,
                         firstVersion: c.firstVersion, lastVersion: c.lastVersion,
                         series: series[c.id] ?? [Int](repeating: 0, count: buckets.count),
                         signals: signals(c, hourly: hourly[c.id] ?? [], now: now), trackerURL: c.trackerURL, kind: c.kind,
                         assignee: c.assignee, owner: c.owner)
        }
        return top.map(summary)
    }

    /// How a rollup read keeps to some issues. SQLite: `issue_id IN (…)`, read through a temporary
    /// index that seeks each issue's range of the rollup's primary key (200 listed issues of 400
    /// read half the rows); past 2,000 ids, the whole time range, other issues' rows left out here
    /// (`BucketRows`). PostgreSQL: past 32 ids, the whole time range too. A long IN list of
    /// parameters is a linear search per row there (11 ms of a 400-issue list's 192 hours at 1M
    /// events, against 2 ms for the range), and the ids as one array (`= ANY`) measured slower still.
    static func idFilter(_ ids: [Int64], _ db: SQLDatabase) -> (sql: String, arguments: SQLArguments) {
        guard ids.count > db.dialect.maxIDsInList else {
            return ("issue_id IN (\(databaseQuestionMarks(count: ids.count))) AND ", SQLArguments(ids))
        }
        return ("", [])
    }

    /// Rows of counts per issue and bucket, filled from a rollup read whose rows may name issues
    /// not asked for (see `idFilter`). Issue ids are a store's row ids, dense from 1: an issue's
    /// slot is found by its offset from the least id asked for, not by hashing each row's id
    /// (which took most of a list's time).
    struct BucketRows {
        private let least: Int64
        /// Per id from `least`, its row's index plus one (0: not asked for).
        private var slot: [Int32]
        private var ids: [Int64] = []
        private var rows: [[Int]] = []
        private let width: Int

        init(_ asked: [Int64], width: Int) {
            self.width = width
            least = asked.min() ?? 0
            slot = [Int32](repeating: 0, count: asked.isEmpty ? 0 : Int((asked.max() ?? 0) - least) + 1)
            for id in asked where slot[Int(id - least)] == 0 {
                ids.append(id)
                rows.append([])
                slot[Int(id - least)] = Int32(rows.count)
            }
        }

        /// Sets an issue's bucket; issues not asked for are ignored.
        mutating func set(_ issue: Int64, _ bucket: Int, _ value: Int) {
            let offset = issue - least
            guard offset >= 0, offset < slot.count else { return }
            let i = Int(slot[Int(offset)]) - 1
            guard i >= 0 else { return }
            if rows[i].isEmpty { rows[i] = [Int](repeating: 0, count: width) }
            rows[i][bucket] = value
        }

        /// Each issue that had a row, with its buckets.
        var byIssue: [Int64: [Int]] {
            var result: [Int64: [Int]] = [:]
            for (id, row) in zip(ids, rows) where !row.isEmpty { result[id] = row }
            return result
        }
    }

    /// The hours the spike rule reads, up to `now`.
    static let spikeHours = 192

    /// Each issue's events per hour over the last `spikeHours` hours, in one read.
    static func lastHours(_ db: SQLDatabase, issueIDs ids: [Int64], now: Timestamp) throws -> [Int64: [Int]] {
        guard !ids.isEmpty else { return [:] }
        let first = now.hour - Int64(spikeHours - 1)
        var read = BucketRows(ids, width: spikeHours)
        let (filter, arguments) = idFilter(ids, db)
        try db.forEachIntegers(sql: """
            SELECT issue_id, hour, events FROM issue_hour WHERE \(filter)hour BETWEEN ? AND ?
            """, arguments: arguments + [first, now.hour], columns: 3) { row in
            read.set(row[0], Int(row[1] - first), Int(row[2]))
        }
        return read.byIssue
    }

    /// NEW, SPIKE and REGRESSED for one issue, from the issue row and its last hours.
    static func signals(_ c: Candidate, hourly: [Int], now: Timestamp) -> [Signal] {
        var result: [Signal] = []
        if c.status == .regressed { result.append(.regressed) }
        if !hourly.isEmpty, SpikeRule.fires(hourly: hourly) { result.append(.spike) }
        if c.firstSeen <= now, c.firstSeen > now.adding(millis: -7 * Timestamp.millisPerDay) { result.append(.new) }
        return result
    }
}

extension TriageStore {
    /// Whether any chain in the store has a link of this domain.
    public func knowsDomain(_ domain: String) throws(StoreError) -> Bool {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM domain_short WHERE domain = ?", arguments: [domain]) ?? 0 > 0 }
    }

    /// The root-cause pivot of every issue a query lets through (its `top` aside): issues grouped by
    /// the link a layer picks, ranked by the query's mode, and the list they were grouped from.
    public func layerPivot(_ query: IssueQuery, by layer: Layer, now: Timestamp) throws(StoreError) -> (groups: [LayerGroup], list: IssueList) {
        var all = query
        all.top = .max
        let list = try issueList(all, now: now)
        return (LayerGroup.pivot(list.issues, by: layer, mode: query.mode), list)
    }
}

extension TriageStore {
    /// Records what a server refused in the minute ending `at` (replacing the previous minute's).
    public func recordIntakeRejections(_ rejections: IntakeRejections) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM meta WHERE key LIKE ?", arguments: [IntakeRejections.keyPrefix + "%"])
            for (key, value) in [(IntakeRejections.atKey, rejections.at.millis)]
                + rejections.byReason.filter({ $0.value > 0 }).map({ (IntakeRejections.keyPrefix + $0.key, Int64($0.value)) }) {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            }
        }
    }

    /// What a server last recorded it refused; nil when no server ever did.
    static func intakeRejections(_ db: SQLDatabase) throws -> IntakeRejections? {
        let rows = try SQLRow.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key = ? OR key LIKE ?",
                                    arguments: [IntakeRejections.atKey, IntakeRejections.keyPrefix + "%"])
        guard let at = try rows.first(where: { ((try $0.decode(0)) as String) == IntakeRejections.atKey }).map({ Timestamp(millis: (try $0.decode(1))) }) else { return nil }
        var counts: [String: Int] = [:]
        for row in rows where ((try row.decode(0)) as String).hasPrefix(IntakeRejections.keyPrefix) {
            counts[String(((try row.decode(0)) as String).dropFirst(IntakeRejections.keyPrefix.count))] = Int((try row.decode(1)) as Int64)
        }
        return IntakeRejections(at: at, byReason: counts)
    }
}


/// An issue row as `candidates` and the detail select it: `id, key, status, first_seen, last_seen,
/// first_version, last_version, tracker_url, kind, assignee, owner, group_id` (a merged issue's
/// status, link, kind, assignee and owner its head's).
extension TriageStore.Candidate: RowDecodable {
    init(row: SQLRow) throws(StoreError) {
        self.init(id: try row.decode(0), key: try row.decode(1), status: IssueStatus(rawValue: try row.decode(2)) ?? .open,
                  firstSeen: Timestamp(millis: try row.decode(3)), lastSeen: Timestamp(millis: try row.decode(4)),
                  firstVersion: try row.decode(5), lastVersion: try row.decode(6), trackerURL: try row.decode(7),
                  kind: try row.decode(8, as: String?.self).flatMap(EventKind.init(rawValue:)), assignee: try row.decode(9),
                  owner: try row.decode(10), groupID: try row.decode(11))
    }
}
