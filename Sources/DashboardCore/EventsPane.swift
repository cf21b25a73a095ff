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
        var columns = [Column(heading: "TIME", width: 19) { $0.timestamp.secondText },
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
