import TriageModel

/// The columns of an event list, the dashboard's Events pane and `show`'s Recent events alike: a
/// field no listed event has is not shown, and where the width is short the least telling
/// columns give way, so that the message keeps room.
public enum EventColumns {
    /// A column: its heading, its width in cells, and the event's value (nil or empty when it has none).
    public struct Column: Sendable {
        public let heading: String
        /// The cells it takes; `fitted` widens it up to `widest` for the longest value listed.
        public private(set) var width: Int
        /// The cells it may grow to.
        let widest: Int
        public let value: @Sendable (ErrorEvent) -> String?

        init(heading: String, width: Int, widest: Int? = nil, value: @escaping @Sendable (ErrorEvent) -> String?) {
            self.heading = heading
            self.width = width
            self.widest = widest ?? width
            self.value = value
        }

        /// The column as wide as the longest of the events' values needs, within `widest`.
        func widened(for events: [ErrorEvent]) -> Column {
            var column = self
            for event in events where column.width < widest {
                column.width = max(column.width, TextSanitizer.width(value(event) ?? "", limit: widest))
            }
            return column
        }

        /// The event's value, or `-` when it has none.
        public func text(_ event: ErrorEvent) -> String {
            guard let v = value(event), !v.isEmpty else { return "-" }
            return v
        }
    }

    /// Every column, in the order they are shown.
    public static let all: [Column] = [
        Column(heading: "TIME", width: 19) { $0.timestamp.secondText },
        // A release is often `package@version`: wider where the events need it.
        Column(heading: "VERSION", width: 8, widest: 16) { $0.appVersion },
        Column(heading: "DEVICE", width: 12) { $0.deviceModel },
        Column(heading: "OS", width: 12) { $0.osLabel },
        Column(heading: "NETWORK", width: 8) { $0.network },
        Column(heading: "USER", width: 12) { $0.userID },
    ]

    /// The headings in the order their columns give way when the width is short; the time never does.
    static let givingWay = ["NETWORK", "USER", "OS", "DEVICE", "VERSION"]

    /// The cells the message keeps before a column gives way to it.
    public static let messageRoom = 20

    /// The columns shown for `events` in `width` cells: each followed by one space, the message
    /// taking what is left. A column empty for every event is dropped first.
    public static func fitted(_ events: [ErrorEvent], width: Int) -> [Column] {
        var shown = all.filter { column in
            column.heading == "TIME" || events.contains { !(column.value($0) ?? "").isEmpty }
        }.map { $0.widened(for: events) }
        for heading in givingWay where taken(shown) + messageRoom > width {
            shown.removeAll { $0.heading == heading }
        }
        return shown
    }

    /// The cells the columns take, each with the space after it.
    public static func taken(_ columns: [Column]) -> Int {
        columns.reduce(0) { $0 + $1.width + 1 }
    }
}
