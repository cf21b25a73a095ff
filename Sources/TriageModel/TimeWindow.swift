/// A period ending now that lists and counts look at.
///
/// Windows are whole buckets: `24h` is the 24 hours ending with the hour of now; `7d`, `30d`
/// and `90d` are that many UTC days ending with the day of now; `all` is everything.
public enum TimeWindow: String, CaseIterable, Sendable, Codable {
    case h24 = "24h", d7 = "7d", d30 = "30d", d90 = "90d", all

    /// Whether the window is counted in hours (its series has one point an hour).
    public var isHourly: Bool { self == .h24 }

    /// The number of day buckets, nil for `all`; 24h spans at most two days.
    public var days: Int64? {
        switch self {
        case .h24: nil
        case .d7: 7
        case .d30: 30
        case .d90: 90
        case .all: nil
        }
    }

    /// The first and last day buckets of a daily window ending at `now`; `all` starts at `firstDay`.
    public func dayRange(now: Timestamp, firstDay: Int64) -> ClosedRange<Int64> {
        let last = now.day
        switch self {
        case .h24: return (now.adding(millis: -23 * Timestamp.millisPerHour).day)...last
        case .all: return min(firstDay, last)...last
        default: return (last - days! + 1)...last
        }
    }

    /// The window's first instant when it ends at `now` (nil for `all`): what it counts is at or after it.
    public func start(now: Timestamp) -> Timestamp? {
        switch self {
        case .h24: Timestamp.startOf(hour: now.hour - 23)
        case .all: nil
        default: Timestamp.startOf(day: now.day - days! + 1)
        }
    }

    /// The first and last hour buckets of the 24h window ending at `now`.
    public static func hourRange(now: Timestamp) -> ClosedRange<Int64> { (now.hour - 23)...now.hour }
}

extension TimeWindow {
    /// The shortest window that spans this many milliseconds back from now.
    public static func smallest(covering millis: Int64) -> TimeWindow {
        if millis <= 24 * Timestamp.millisPerHour { return .h24 }
        for window in [TimeWindow.d7, .d30, .d90] where millis <= window.days! * Timestamp.millisPerDay { return window }
        return .all
    }
}
