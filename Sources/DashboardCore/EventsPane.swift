import Presentation
import TriageModel

/// The Events pane: the newest events one per line; the selected one opens in full.
enum EventsPane {
    /// A column of the event list: heading, width, and the value it shows.
    struct Column {
        var heading: String
        var width: Int
        var value: (ErrorEvent) -> String
    }

    /// The columns that fit the width; the message takes what is left.
    static func columns(width: Int) -> [Column] {
        let dash = "-"
        var columns = [Column(heading: "TIME", width: 16) { $0.timestamp.minuteText },
                       Column(heading: "VERSION", width: 8) { $0.appVersion ?? dash }]
        if width >= 60 {
            columns.append(Column(heading: "DEVICE", width: 12) { $0.deviceModel ?? dash })
            columns.append(Column(heading: "OS", width: 12) { $0.osLabel ?? dash })
        }
        if width >= 100 {
            columns.append(Column(heading: "NETWORK", width: 8) { $0.network ?? dash })
            columns.append(Column(heading: "USER", width: 12) { $0.userID ?? dash })
        }
        return columns
    }

    /// A heading line, then one line per event: event `i` is line `i + 1`.
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        guard !detail.recentEvents.isEmpty else {
            return [[Span(detail.rawEventsSince.map { "No recent events: " + PruneText.rawEventsNote(since: $0) } ?? "No recent events.", .dim)]]
        }
        let columns = columns(width: width)
        var heading: [Span] = columns.map { Span(Format.left($0.heading, $0.width) + " ", .heading) }
        heading.append(Span("MESSAGE", .heading))
        var lines = [heading]
        for event in detail.recentEvents {
            var spans: [Span] = columns.map { column in
                let cut = TextSanitizer.sanitize(column.value(event), unicode: unicode, maxWidth: column.width)
                return Span(Format.left(cut, column.width, unicode: unicode) + " ")
            }
            spans.append(Span(event.message ?? "", .dim))
            lines.append(spans)
        }
        // Where the raw events stop: after the last event, so event `i` stays line `i + 1`.
        if let since = detail.rawEventsSince { lines.append([Span(PruneText.rawEventsNote(since: since), .dim)]) }
        return lines
    }
}

/// The screen of one event: every field, then its message and custom keys.
enum EventDetailView {
    static func lines(_ event: ErrorEvent, width: Int, unicode: Bool) -> [[Span]] {
        var fields: [(String, String?)] = [
            ("Event ID", event.eventID), ("Time", event.timestamp.iso8601), ("Chain", event.chain.shortKey),
            ("App version", event.appVersion), ("Build", event.appBuild), ("Platform", event.platform),
            ("OS", event.osLabel), ("Device", event.deviceModel.map(DeviceName.label)), ("Network", event.network),
            ("Orientation", event.orientation), ("App state", event.appState),
            ("Free RAM", event.freeRAM.map { Format.grouped(Int($0)) }),
            ("Free disk", event.freeDisk.map { Format.grouped(Int($0)) }),
            ("Jailbroken", event.jailbroken.map { $0 ? "yes" : "no" }),
            ("User", event.userID), ("Session", event.sessionID), ("Environment", event.environment),
            ("Source", event.source), ("Kind", event.kind?.rawValue),
        ]
        fields.removeAll { $0.1 == nil }
        var lines: [[Span]] = fields.flatMap { ChainLadder.field($0.0, $0.1!, width: width, unicode: unicode) }
        lines.append([])
        lines.append([Span("Message", .heading)])
        let message = TextWrap.wrap(event.message ?? "(none)", width: max(1, width - 2), unicode: unicode)
        lines += message.map { [Span("  " + $0)] }
        lines.append([])
        lines.append([Span("Custom keys", .heading)])
        if event.customKeys.isEmpty { lines.append([Span("  (none)", .dim)]) }
        for (key, value) in event.customKeys {
            let keyText = TextSanitizer.sanitize(key, unicode: unicode, maxWidth: 30)
            let wrapped = TextWrap.wrap(value, width: max(1, width - 4), unicode: unicode, maxLines: 50)
            lines.append([Span("  " + keyText, .key)])
            lines += wrapped.map { [Span("    " + $0)] }
        }
        return lines
    }
}
