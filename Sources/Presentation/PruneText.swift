import TriageModel

/// What `prune`, `retention` and `check` say about retention and the store's size.
public enum PruneText {
    /// One prune, one line: what was kept and deleted, and the store's size before and after.
    public static func summary(_ r: PruneResult, keepDays: Int) -> String {
        summary(eventsDeleted: r.eventsDeleted, complaintsDeleted: r.complaintsDeleted, eventsSince: r.eventsSince, keepDays: keepDays,
                bytesBefore: r.bytesBefore, bytesAfter: r.bytesAfter, spaceNote: r.spaceNote)
    }

    /// What a round of upkeep did, a line each, as `ingest` prints them and `serve` logs them.
    public static func upkeep(_ u: Upkeep) -> [String] {
        var lines: [String] = []
        if let pruned = u.pruned, let keep = u.keepDays { lines.append(summary(pruned, keepDays: keep)) }
        for key in u.revived { lines.append("\(key): muted → open (its mute condition is met)") }
        return lines
    }

    /// One line: what a prune removed, where raw events begin now, and the space.
    public static func summary(eventsDeleted: Int, complaintsDeleted: Int, eventsSince: Timestamp?, keepDays: Int,
                               bytesBefore: Int64, bytesAfter: Int64, spaceNote: String) -> String {
        var line = "prune: kept \(RetentionPeriod.text(days: keepDays)); \(eventsDeleted) events and \(complaintsDeleted) complaints deleted"
        if let since = eventsSince { line += "; raw events kept since \(since.dateText)" } else { line += "; nothing was old enough" }
        line += "; store \(ByteCount.text(bytesBefore)) → \(ByteCount.text(bytesAfter))"
        if !spaceNote.isEmpty { line += " (\(spaceNote))" }
        return line
    }

    /// The retention setting and the raw horizon, one line.
    public static func setting(keepDays: Int?, eventsSince: Timestamp?, prunedAt: Timestamp?) -> String {
        var line = "retention: " + (keepDays.map { "raw events kept \(RetentionPeriod.text(days: $0)), applied by ingest and serve at most once a day" } ?? "off (raw events kept for ever)")
        if let since = eventsSince { line += "; raw events since \(since.dateText), older days answered from rollups" }
        if let at = prunedAt { line += "; last pruned \(at.minuteText)" }
        return line
    }

    /// The Events pane's and `show`'s note where an issue's raw events stop.
    public static func rawEventsNote(since: Timestamp) -> String {
        "raw events before \(since.dateText) were pruned; counts before it come from the rollups"
    }

    /// `check`'s size lines: each table, then the projection at the current daily rate.
    public static func sizeLines(tables: [(table: String, bytes: Int64)], total: Int64, eventsPerDay: Int, bytesPerEvent: Int64,
                                 keepDays: Int?) -> [String] {
        var lines = ["size: \(ByteCount.text(total)) in all"]
        for (table, bytes) in tables.prefix(12) where bytes > 0 {
            lines.append("size:   \(table) \(ByteCount.text(bytes))")
        }
        let perDay = Int64(eventsPerDay) * bytesPerEvent
        var projection = "size: at the last 7 days' rate (\(eventsPerDay) events a day, about \(bytesPerEvent) bytes each) raw events add \(ByteCount.text(perDay)) a day"
        if let keepDays {
            projection += "; with retention \(RetentionPeriod.text(days: keepDays)) they level off near \(ByteCount.text(perDay * Int64(keepDays + 31))) plus the rollups"
        } else {
            projection += ", \(ByteCount.text(perDay * 365)) a year (no retention set: errtriage retention set 90d)"
        }
        lines.append(projection)
        return lines
    }
}
