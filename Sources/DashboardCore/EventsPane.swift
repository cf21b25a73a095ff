import Presentation
import TriageModel

/// The Events pane: the newest events one per line; the selected one opens in full.
enum EventsPane {
    /// A heading line, then one line per event: event `i` is line `i + 1`. The columns are
    /// `EventColumns.fitted`: a field no listed event has is left out, so that the message has room.
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        guard !detail.recentEvents.isEmpty else {
            return [[Span(detail.rawEventsSince.map { "No recent events: " + PruneText.rawEventsNote(since: $0) } ?? "No recent events.", .dim)]]
        }
        let columns = EventColumns.fitted(detail.recentEvents, width: width)
        var heading: [Span] = columns.map { Span(Format.left($0.heading, $0.width) + " ", .heading) }
        heading.append(Span("MESSAGE", .heading))
        var lines = [heading]
        for event in detail.recentEvents {
            var spans: [Span] = columns.map { column in
                let cut = TextSanitizer.sanitize(column.text(event), unicode: unicode, maxWidth: column.width)
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
