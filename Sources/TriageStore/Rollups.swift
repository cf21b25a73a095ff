import GRDB
import TriageModel

/// A batch's increments to the rollup tables, summed in memory and written with one upsert per row.
struct Rollups {
    struct DayKey: Hashable { var issue: Int64; var bucket: Int64 }
    struct DimKey: Hashable { var issue: Int64; var dim: Dimension; var value: String; var day: Int64 }
    struct UserKey: Hashable { var issue: Int64; var day: Int64; var user: String }

    var days: [DayKey: (events: Int, complaints: Int)] = [:]
    var hours: [DayKey: (events: Int, complaints: Int)] = [:]
    var dims: [DimKey: Int] = [:]
    var users: Set<UserKey> = []

    /// The value a dimension's rollup files an event under; missing values count as `unknown`.
    static func value(_ dimension: Dimension, of event: ErrorEvent) -> String {
        dimension.value(of: event) ?? "unknown"
    }

    mutating func add(_ event: ErrorEvent, issueID: Int64) {
        let day = event.timestamp.day
        days[DayKey(issue: issueID, bucket: day), default: (0, 0)].events += 1
        hours[DayKey(issue: issueID, bucket: event.timestamp.hour), default: (0, 0)].events += 1
        for dim in Dimension.allCases {
            dims[DimKey(issue: issueID, dim: dim, value: Rollups.value(dim, of: event), day: day), default: 0] += 1
        }
        if let user = event.userID { users.insert(UserKey(issue: issueID, day: day, user: user)) }
    }

    mutating func addComplaint(at time: Timestamp, issueID: Int64) {
        days[DayKey(issue: issueID, bucket: time.day), default: (0, 0)].complaints += 1
        hours[DayKey(issue: issueID, bucket: time.hour), default: (0, 0)].complaints += 1
    }

    func flush(_ db: Database) throws {
        let day = try db.cachedStatement(sql: """
            INSERT INTO issue_day (issue_id, day, events, complaints) VALUES (?, ?, ?, ?)
            ON CONFLICT (issue_id, day) DO UPDATE SET events = events + excluded.events, complaints = complaints + excluded.complaints
            """)
        for (k, v) in days { try day.execute(arguments: [k.issue, k.bucket, v.events, v.complaints]) }
        let hour = try db.cachedStatement(sql: """
            INSERT INTO issue_hour (issue_id, hour, events, complaints) VALUES (?, ?, ?, ?)
            ON CONFLICT (issue_id, hour) DO UPDATE SET events = events + excluded.events, complaints = complaints + excluded.complaints
            """)
        for (k, v) in hours { try hour.execute(arguments: [k.issue, k.bucket, v.events, v.complaints]) }
        let dim = try db.cachedStatement(sql: """
            INSERT INTO issue_day_dim (issue_id, dim, value, day, events) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (issue_id, dim, value, day) DO UPDATE SET events = events + excluded.events
            """)
        for (k, v) in dims { try dim.execute(arguments: [k.issue, k.dim.rawValue, k.value, k.day, v]) }
        let user = try db.cachedStatement(sql: "INSERT OR IGNORE INTO issue_day_user (issue_id, day, user_id) VALUES (?, ?, ?)")
        for k in users { try user.execute(arguments: [k.issue, k.day, k.user]) }
    }
}

/// Custom keys as stored: a JSON object, keys in their order.
enum CustomKeys {
    static func encode(_ pairs: [(key: String, value: String)]) -> String {
        var out = "{"
        for (i, pair) in pairs.enumerated() {
            if i > 0 { out += "," }
            JSONText.string(pair.key, to: &out)
            out += ":"
            JSONText.string(pair.value, to: &out)
        }
        return out + "}"
    }

    /// Reads what `encode` wrote; tolerant of anything else (returns what it can).
    static func decode(_ text: String?) -> [(key: String, value: String)] {
        guard let text else { return [] }
        var result: [(key: String, value: String)] = []
        var scanner = JSONText.Scanner(Array(text.utf8))
        guard scanner.take(UInt8(ascii: "{")) else { return [] }
        while let key = scanner.string() {
            guard scanner.take(UInt8(ascii: ":")), let value = scanner.string() else { break }
            result.append((key, value))
            guard scanner.take(UInt8(ascii: ",")) else { break }
        }
        return result
    }
}

/// The minimal JSON string writing and reading the store needs for its own columns.
enum JSONText {
    static func string(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        mutating func take(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out = [UInt8]()
            while i < b.count {
                let c = b[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard c == UInt8(ascii: "\\"), i < b.count else { out.append(c); continue }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "u"):
                    guard i + 4 <= b.count, let v = UInt32(String(decoding: b[i..<i + 4], as: UTF8.self), radix: 16),
                          let s = Unicode.Scalar(v) else { return nil }
                    out.append(contentsOf: Array(String(Character(s)).utf8))
                    i += 4
                default: out.append(e)
                }
            }
            return nil
        }
    }
}
