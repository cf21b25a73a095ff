/// A retention period as written on the command line: `90d`, `12w`, `1y` (365 days) or a number of days.
public enum RetentionPeriod {
    /// Days in `text`; nil when it is not a period of at least one day.
    public static func days(_ text: String) -> Int? {
        guard let last = text.last else { return nil }
        let (number, scale): (Substring, Int) = switch last {
        case "d", "D": (text.dropLast(), 1)
        case "w", "W": (text.dropLast(), 7)
        case "y", "Y": (text.dropLast(), 365)
        default: (Substring(text), 1)
        }
        guard let n = Int(number), n >= 1, n <= 100 * 365 / scale else { return nil }
        return n * scale
    }

    /// `90d`: how a period is shown.
    public static func text(days: Int) -> String { "\(days)d" }
}
