/// A moment in UTC, in milliseconds since the Unix epoch.
public struct Timestamp: Hashable, Comparable, Sendable, Codable {
    public var millis: Int64

    public init(millis: Int64) { self.millis = millis }
    public init(seconds: Int64) { self.millis = seconds * 1000 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.millis < b.millis }

    public static let millisPerHour: Int64 = 3_600_000
    public static let millisPerDay: Int64 = 86_400_000

    /// Days since the epoch (UTC), the bucket of the daily rollups.
    public var day: Int64 { floorDiv(millis, Timestamp.millisPerDay) }
    /// Hours since the epoch, the bucket of the hourly rollups.
    public var hour: Int64 { floorDiv(millis, Timestamp.millisPerHour) }

    /// Adds milliseconds.
    public func adding(millis delta: Int64) -> Timestamp { Timestamp(millis: millis + delta) }

    /// `2026-10-04T22:33:00Z` (milliseconds shown only when present).
    public var iso8601: String {
        let (date, time) = components
        let base = "\(date)T\(time)"
        let ms = floorMod(millis, 1000)
        return ms == 0 ? base + "Z" : base + "." + pad(Int(ms), 3) + "Z"
    }

    /// `2026-10-04 22:33`, for people.
    public var minuteText: String {
        let (date, time) = components
        return "\(date) \(time.prefix(5))"
    }

    /// `2026-10-04 22:33:07`: an event's time in a list, where events a minute apart must differ.
    public var secondText: String {
        let (date, time) = components
        return "\(date) \(time.prefix(8))"
    }

    /// `2026-10-04`.
    public var dateText: String { components.date }

    var components: (date: String, time: String) {
        let (y, m, d) = Timestamp.civil(fromDays: day)
        let secs = floorMod(millis, Timestamp.millisPerDay) / 1000
        let time = "\(pad(Int(secs / 3600), 2)):\(pad(Int(secs / 60 % 60), 2)):\(pad(Int(secs % 60), 2))"
        return ("\(pad(Int(y), 4))-\(pad(Int(m), 2))-\(pad(Int(d), 2))", time)
    }

    /// Reads every timestamp form errtriage accepts: ISO 8601 with or without fraction and zone
    /// offset, `2026-10-04 22:33:00.123456 UTC` (BigQuery), `2026-10-04 22:33:00`, a bare date,
    /// or epoch seconds (integer or fraction) as text. A time without a zone is UTC.
    public static func parse(_ text: String) -> Timestamp? {
        var b = Array(text.utf8)
        while let last = b.last, last == 32 { b.removeLast() }
        while let first = b.first, first == 32 { b.removeFirst() }
        guard !b.isEmpty else { return nil }
        if b.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 }), b.count <= 4 || b[4] != 45 {
            guard let seconds = Double(String(decoding: b, as: UTF8.self)) else { return nil }
            return Timestamp(epochSeconds: seconds)
        }
        var p = Reader(bytes: b)
        guard let year = p.number(4), p.expect(45), let month = p.number(2), p.expect(45), let dayOfMonth = p.number(2),
              (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        let days = daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(dayOfMonth))
        // 2026-02-30 is no date: the day must exist in its month (the civil date reads back).
        guard civil(fromDays: days) == (Int64(year), Int64(month), Int64(dayOfMonth)) else { return nil }
        var ms: Int64 = days * millisPerDay
        if p.atEnd { return Timestamp(millis: ms) }
        guard p.expect(84) || p.expect(116) || p.expect(32) else { return nil }  // T, t or space
        guard let hh = p.number(2), p.expect(58), let mm = p.number(2), hh < 24, mm < 60 else { return nil }
        var ss = 0
        if p.expect(58) {
            guard let s = p.number(2), s <= 60 else { return nil }
            ss = s
        }
        ms += Int64(hh * 3600 + mm * 60 + ss) * 1000
        if p.expect(46) || p.expect(44) {
            var digits = 0
            var frac: Int64 = 0
            while let d = p.digit() {
                if digits < 3 { frac = frac * 10 + Int64(d) }
                digits += 1
            }
            guard digits > 0 else { return nil }
            var scale = digits
            while scale < 3 { frac *= 10; scale += 1 }
            ms += frac
        }
        p.skipSpaces()
        if p.atEnd || p.expectWord("Z") || p.expectWord("z") || p.expectWord("UTC") || p.expectWord("GMT") {
            return p.atEnd ? Timestamp(millis: ms) : nil
        }
        let sign: Int64
        if p.expect(43) { sign = 1 } else if p.expect(45) { sign = -1 } else { return nil }
        guard let oh = p.number(2) else { return nil }
        _ = p.expect(58)
        let om = p.number(2) ?? 0
        guard p.atEnd, oh < 24, om < 60 else { return nil }
        return Timestamp(millis: ms - sign * Int64(oh * 60 + om) * 60_000)
    }

    /// A timestamp from epoch seconds with a fraction; nil when out of the years 1970…9999.
    public init?(epochSeconds: Double) {
        guard epochSeconds.isFinite, epochSeconds >= 0, epochSeconds < 253_402_300_800 else { return nil }
        self.millis = Int64((epochSeconds * 1000).rounded())
    }

    /// Days since 1970-01-01 of a civil date (proleptic Gregorian).
    public static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day since 1970-01-01.
    public static func civil(fromDays z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The first day of the calendar month that holds `day` (days since 1970-01-01): a month
    /// bucket is named by it.
    public static func monthStart(ofDay day: Int64) -> Int64 {
        day - civil(fromDays: day).day + 1
    }

    /// The first day of the calendar month after the one that holds `day`.
    public static func nextMonthStart(ofDay day: Int64) -> Int64 {
        let (year, month, _) = civil(fromDays: day)
        return month == 12 ? daysFromCivil(year: year + 1, month: 1, day: 1) : daysFromCivil(year: year, month: month + 1, day: 1)
    }

    /// The first millisecond of a day bucket.
    public static func startOf(day: Int64) -> Timestamp { Timestamp(millis: day * millisPerDay) }
    /// The first millisecond of an hour bucket.
    public static func startOf(hour: Int64) -> Timestamp { Timestamp(millis: hour * millisPerHour) }
}

private struct Reader {
    let bytes: [UInt8]
    var i = 0
    init(bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { i >= bytes.count }
    mutating func expect(_ b: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == b else { return false }
        i += 1
        return true
    }
    mutating func expectWord(_ w: String) -> Bool {
        let wb = Array(w.utf8)
        guard i + wb.count <= bytes.count, Array(bytes[i..<i + wb.count]) == wb else { return false }
        i += wb.count
        return true
    }
    mutating func digit() -> Int? {
        guard i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 else { return nil }
        i += 1
        return Int(bytes[i - 1] - 48)
    }
    mutating func number(_ count: Int) -> Int? {
        var v = 0
        for _ in 0..<count {
            guard let d = digit() else { return nil }
            v = v * 10 + d
        }
        return v
    }
    mutating func skipSpaces() { while i < bytes.count, bytes[i] == 32 { i += 1 } }
}

func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
