#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageModel

/// `check`'s recounts that read every event, made in one pass over `event_row` where the engine
/// reads rows in place (SQLite, `SQLDatabase.scansInPlace`): each event is read once and counted
/// into every recount at once — its hour, its user's last hour and months per issue, its
/// breakdown values per day, its kind, its tags and contexts, the term ids it names — and each
/// rollup table is then read once and compared with its recount. In SQL these were seven
/// GROUP BYs over every event, five of them sorting texts (users, breakdown values): nine tenths
/// of `check`. The comparisons are those the SQL made: a row that only one side holds is one
/// place, a key both hold with other counts two.
///
/// Texts (users, app versions, breakdown values) are compared by their bytes, as SQLite's BINARY
/// collation compares them (`ByteInterner`).
struct EventRecount {
    /// The events read (from the raw horizon on).
    var events = 0
    /// Events per issue and hour.
    var hours: [Rollups.DayKey: Int] = [:]
    /// Per issue and user (interned), the user's last hour.
    var lastHours: [IssueUser: Int64] = [:]
    /// Who was seen in which month, per issue (interned users; months that `months` holds).
    var monthUsers = Set<IssueMonthUser>()
    /// Events per issue, day, dimension and value (interned), for each dimension.
    var dims: [DimCount: Int] = [:]
    /// Events per issue, day and stored tags and contexts (term ids), for the facet rollup.
    var facets: [FacetCombination: Int] = [:]
    /// The kinds (term ids) each issue's events name.
    var kinds = Set<Rollups.DayKey>()
    /// Each issue's kinds as their texts (a kind whose term is missing left out, as a join leaves it).
    var kindTexts: [(issue: Int64, kind: String)] = []
    /// Events (all of them, before the horizon too) that name a term id `term` does not hold.
    var missingTerms = 0
    var users = ByteInterner()
    var values = ByteInterner()

    struct IssueUser: Hashable { var issue: Int64; var user: Int32 }
    struct IssueMonthUser: Hashable { var issue: Int64; var month: Int64; var user: Int32 }
    struct DimCount: Hashable { var issue: Int64; var day: Int64; var dim: Int32; var value: Int32 }
    struct FacetCombination: Hashable { var issue: Int64; var day: Int64; var customKeys: Int64?; var facets: Int64? }

    /// The columns read, in order: `issue_id, ts, user_id, app_version`, then `termColumns` (a
    /// dimension's field is one of these).
    static let fixedColumns = ["issue_id", "ts", "user_id", "app_version"]

    /// Reads every event once, and counts those from `since` (the raw horizon; nil: all). `monthSpan`: the months a
    /// user is counted in (the SQL's month table, which spans `issue_day`'s days).
    static func read(_ db: SQLDatabase, since horizon: Int64?, monthSpan: ClosedRange<Int64>?) throws -> EventRecount {
        var recount = EventRecount()
        // The term texts (a store holds a few hundred to a few hundred thousand): which ids exist, and each one's bytes.
        var termBytes: [Int64: [UInt8]] = [:]
        try db.scan(sql: "SELECT id, value FROM term") { row in
            termBytes[row.integer(0)] = row.text(1).map { Array($0) } ?? []
        }
        let unknown = recount.values.intern(Array("unknown".utf8))
        let columns = fixedColumns + TriageStore.termColumns.map { "\($0)_term" }
        func termColumn(_ name: String) -> Int32 { Int32(columns.firstIndex(of: "\(name)_term")!) }
        // How each dimension's value is read (`Dimension.declaration`'s fields), as the SQL recount
        // reads it (`TriageStore.expression`), interned: a term's text (a term the dictionary does
        // not hold reads as NULL there, and so here), a text the event row holds itself, or two
        // terms' texts joined by a space.
        let readings: [DimensionReading] = Dimension.allCases.map { dim in
            let fields = dim.declaration.fields
            if fields.count == 2 { return .joined(termColumn(fields[0]), termColumn(fields[1])) }
            if TriageStore.termColumns.contains(fields[0]) { return .term(termColumn(fields[0])) }
            return .text(Int32(columns.firstIndex(of: fields[0])!))
        }
        let kindColumn = termColumn("kind")
        let customKeys = termColumn("custom_keys"), facetsColumn = termColumn("facets")
        let termColumns = Int32(fixedColumns.count)..<Int32(columns.count)
        var termValue: [Int64: Int32] = [:]
        func value(ofTerm id: Int64?) -> Int32 {
            guard let id else { return unknown }
            if let known = termValue[id] { return known }
            let interned = termBytes[id].map { recount.values.intern($0) } ?? unknown
            termValue[id] = interned
            return interned
        }
        var joinedValue: [TermPair: Int32] = [:]
        func joined(_ name: Int64?, _ version: Int64?) -> Int32 {
            let key = TermPair(name: name, version: version)
            if let known = joinedValue[key] { return known }
            let n = name.flatMap { termBytes[$0] }, v = version.flatMap { termBytes[$0] }
            let label: [UInt8]? = if let n, let v { n + [0x20] + v } else { n ?? v }
            let interned = label.map { recount.values.intern($0) } ?? unknown
            joinedValue[key] = interned
            return interned
        }
        var month: (day: Int64, month: Int64?) = (.min, nil)
        let h = horizon ?? .min
        try db.scan(sql: "SELECT \(columns.joined(separator: ", ")) FROM event_row") { row in
            for column in termColumns where !row.isNull(column) && termBytes[row.integer(column)] == nil {
                recount.missingTerms += 1
                break
            }
            let issue = row.integer(0), ts = row.integer(1)
            guard ts >= h else { return }
            recount.events += 1
            let hour = floorDivide(ts, Timestamp.millisPerHour), day = floorDivide(ts, Timestamp.millisPerDay)
            recount.hours[Rollups.DayKey(issue: issue, bucket: hour), default: 0] += 1
            if let bytes = row.text(2) {
                let user = recount.users.intern(bytes)
                let key = IssueUser(issue: issue, user: user)
                if recount.lastHours[key].map({ $0 < hour }) ?? true { recount.lastHours[key] = hour }
                if month.day != day {
                    let first = Timestamp.monthStart(ofDay: day)
                    month = (day, monthSpan.map { $0.contains(first) } == true ? first : nil)
                }
                if let m = month.month { recount.monthUsers.insert(IssueMonthUser(issue: issue, month: m, user: user)) }
            }
            for (dim, reading) in readings.enumerated() {
                let value = switch reading {
                case .term(let column): value(ofTerm: row.optionalInteger(column))
                case .text(let column): row.text(column).map { recount.values.intern($0) } ?? unknown
                case .joined(let first, let second): joined(row.optionalInteger(first), row.optionalInteger(second))
                }
                recount.dims[DimCount(issue: issue, day: day, dim: Int32(dim), value: value), default: 0] += 1
            }
            if let kind = row.optionalInteger(kindColumn) { recount.kinds.insert(Rollups.DayKey(issue: issue, bucket: kind)) }
            let keys = row.optionalInteger(customKeys), facets = row.optionalInteger(facetsColumn)
            if keys != nil || facets != nil {
                recount.facets[FacetCombination(issue: issue, day: day, customKeys: keys, facets: facets), default: 0] += 1
            }
        }
        recount.kindTexts = recount.kinds.compactMap { key in
            termBytes[key.bucket].map { (key.issue, String(decoding: $0, as: UTF8.self)) }
        }
        return recount
    }

    private struct TermPair: Hashable { var name: Int64?; var version: Int64? }

    /// Where a dimension's value lies in the row read: a term id, a text, or two term ids whose texts are joined.
    private enum DimensionReading { case term(Int32), text(Int32), joined(Int32, Int32) }

    /// Where the hourly events rollup and this recount differ (`issue_hour` from `since`).
    func hourlyEventsDiffer(_ db: SQLDatabase, since hour: Int64?) throws -> Int {
        var naive = hours
        var differ = 0
        try db.scan(sql: "SELECT issue_id, hour, events FROM issue_hour WHERE events != 0 AND hour >= ?", arguments: [hour ?? .min]) { row in
            differ += Self.place(naive.removeValue(forKey: Rollups.DayKey(issue: row.integer(0), bucket: row.integer(1))), row.integer(2))
        }
        return differ + naive.count
    }

    /// Where `issue_user` (from `since`) and each user's last hour per issue differ.
    func issueUsersDiffer(_ db: SQLDatabase, since hour: Int64?) throws -> Int {
        var naive = lastHours
        var differ = 0
        try db.scan(sql: "SELECT issue_id, user_id, last_hour FROM issue_user WHERE last_hour >= ?", arguments: [hour ?? .min]) { row in
            guard let bytes = row.text(1), let user = users.find(bytes) else { differ += 1; return }
            differ += Self.place(naive.removeValue(forKey: IssueUser(issue: row.integer(0), user: user)), row.integer(2))
        }
        return differ + naive.count
    }

    /// Where `issue_month_user` (from `since`) and the months each user was seen in but their
    /// last, per issue, differ.
    func monthUsersDiffer(_ db: SQLDatabase, since day: Int64?) throws -> Int {
        var last: [IssueUser: Int64] = [:]
        for key in monthUsers {
            let pair = IssueUser(issue: key.issue, user: key.user)
            if last[pair].map({ $0 < key.month }) ?? true { last[pair] = key.month }
        }
        var naive = monthUsers.filter { $0.month < last[IssueUser(issue: $0.issue, user: $0.user)]! }
        var differ = 0
        try db.scan(sql: "SELECT month, issue_id, user_id FROM issue_month_user WHERE month >= ?", arguments: [day ?? .min]) { row in
            guard let bytes = row.text(2), let user = users.find(bytes),
                  naive.remove(IssueMonthUser(issue: row.integer(1), month: row.integer(0), user: user)) != nil else {
                differ += 1
                return
            }
        }
        return differ + naive.count
    }

    /// Where `issue_day_dim` (from `since`) and the events' breakdown values per day differ.
    func breakdownDiffers(_ db: SQLDatabase, since day: Int64?) throws -> Int {
        var naive = dims
        var differ = 0
        let dims = Dictionary(uniqueKeysWithValues: Dimension.allCases.enumerated().map { (Array($1.rawValue.utf8), Int32($0)) })
        try db.scan(sql: "SELECT issue_id, dim, value, day, events FROM issue_day_dim WHERE events != 0 AND day >= ?",
                    arguments: [day ?? .min]) { row in
            guard let dimBytes = row.text(1), let dim = dims[Array(dimBytes)], let bytes = row.text(2), let value = values.find(bytes) else {
                differ += 1
                return
            }
            differ += Self.place(naive.removeValue(forKey: DimCount(issue: row.integer(0), day: row.integer(3), dim: dim, value: value)),
                                 row.integer(4))
        }
        return differ + naive.count
    }

    /// The places one rollup row makes with the recount's count for its key (nil: none): 0 when
    /// they agree, 1 when only the rollup holds the key, 2 when both hold it with other counts.
    private static func place(_ naive: Int?, _ rolled: Int64) -> Int {
        guard let naive else { return 1 }
        return Int64(naive) == rolled ? 0 : 2
    }
    private static func place(_ naive: Int64?, _ rolled: Int64) -> Int {
        guard let naive else { return 1 }
        return naive == rolled ? 0 : 2
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// Texts by their bytes, each given a small id: equal bytes, equal id (SQLite's BINARY
/// comparison, which Swift's `String` does not make: it compares by Unicode equivalence).
struct ByteInterner {
    private var bytes: [UInt8] = []
    private var spans: [(start: Int, count: Int)] = []
    private var slots: [Int32] = Array(repeating: -1, count: 1 << 10)

    /// The id of these bytes, given one if they have none yet.
    mutating func intern(_ text: UnsafeRawBufferPointer) -> Int32 {
        var slot = Self.hash(text) & (slots.count - 1)
        while slots[slot] >= 0 {
            if equal(slots[slot], text) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        let id = Int32(spans.count)
        spans.append((bytes.count, text.count))
        bytes.append(contentsOf: text)
        slots[slot] = id
        if spans.count * 2 > slots.count { grow() }
        return id
    }

    mutating func intern(_ text: [UInt8]) -> Int32 { text.withUnsafeBytes { intern($0) } }

    /// The id of these bytes; nil when they have none.
    func find(_ text: UnsafeRawBufferPointer) -> Int32? {
        var slot = Self.hash(text) & (slots.count - 1)
        while slots[slot] >= 0 {
            if equal(slots[slot], text) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private func equal(_ id: Int32, _ text: UnsafeRawBufferPointer) -> Bool {
        let span = spans[Int(id)]
        guard span.count == text.count else { return false }
        return bytes.withUnsafeBytes { all in
            span.count == 0 || memcmp(all.baseAddress! + span.start, text.baseAddress!, span.count) == 0
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        for id in spans.indices {
            let span = spans[id]
            var slot = bytes.withUnsafeBytes { Self.hash(UnsafeRawBufferPointer(rebasing: $0[span.start..<(span.start + span.count)])) }
                & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(id)
        }
    }

    /// FNV-1a over the bytes.
    private static func hash(_ text: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
