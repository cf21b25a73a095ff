import TriageModel

/// What `ingest` (and `demo` building its store) says: the summary line of a run, and the
/// progress line drawn on a terminal while it reads.
public enum IngestText {
    /// `ingest: N events added, …, N rejected lines (copied to PATH)`.
    public static func summary(_ summary: IngestSummary, rejectsPath: String) -> String {
        let counts = summary.counts
        var parts = ["\(counts.eventsAdded) events added", "\(counts.duplicates) duplicates",
                     "\(counts.complaintsAdded) complaints added", "\(counts.issuesCreated) new issues"]
        if counts.complaintDuplicates > 0 { parts.append("\(counts.complaintDuplicates) duplicate complaints") }
        if counts.regressions > 0 { parts.append("\(counts.regressions) issues regressed") }
        let days = counts.adoptionRows - counts.sessionsAdded
        if days > 0 { parts.append("\(days) adoption rows") }
        if counts.sessionsAdded > 0 { parts.append("\(counts.sessionsAdded) sessions") }
        if counts.beforeRetention > 0 { parts.append("\(counts.beforeRetention) records older than the store's retention skipped") }
        if summary.envelopes > 0 {
            let skipped = summary.skippedItems.values.reduce(0, +)
            let kinds = summary.skippedItems.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }
            parts.append("\(summary.envelopes) envelopes" + (skipped > 0 ? " (\(skipped) item\(skipped == 1 ? "" : "s") not stored: \(kinds.joined(separator: ", ")))" : ""))
        }
        parts.append("\(summary.rejected) rejected lines" + (summary.rejected > 0 ? " (copied to \(rejectsPath))" : ""))
        return "ingest: " + parts.joined(separator: ", ")
    }

    /// The progress line: the input (made inert: it is a file's name), events and their rate, and
    /// a bar with the time left where the input's size is known, else the MiB read. Fitted to a
    /// terminal `width` cells wide, less one so that it never wraps: the input's name gives way
    /// first (its start elided, the file's own name kept), then the bar, then the line is cut.
    public static func progress(_ progress: IngestProgress, elapsedSeconds: Double, width: Int = .max) -> String {
        let elapsed = max(0.001, elapsedSeconds)
        let rate = Int(Double(progress.events) / elapsed)
        var name = TextSanitizer.sanitize(progress.input)
        let counts = ": \(progress.events) events, \(rate)/s"
        var bar = ""
        let figures: String
        if let total = progress.totalBytes, total > 0 {
            let fraction = min(1, Double(progress.bytesRead) / Double(total))
            let filled = Int(fraction * 24)
            let left = fraction > 0 ? Int(elapsed / fraction - elapsed) : 0
            bar = " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "]"
            figures = " \(Int(fraction * 100))%, \(left)s left"
        } else {
            figures = ", \(progress.bytesRead >> 20) MiB read"
        }
        let room = width == .max ? Int.max : max(1, width - 1)
        func cells(_ text: String) -> Int { TextSanitizer.width(text) }
        let shortestName = 12
        if cells(name) + cells(counts + bar + figures) > room {
            name = elidingStart(name, to: max(shortestName, room - cells(counts + bar + figures)))
        }
        if cells(name) + cells(counts + bar + figures) > room { bar = "" }
        if cells(name) + cells(counts + figures) > room {
            name = elidingStart(name, to: max(1, room - cells(counts + figures)))
        }
        return Format.cells(name + counts + bar + figures, room).text
    }

    /// The text in at most `width` cells, its start given way to `…` so that its end (a file's own name) stays.
    static func elidingStart(_ text: String, to width: Int) -> String {
        guard TextSanitizer.width(text) > width else { return text }
        var kept = Substring(text)
        while !kept.isEmpty, TextSanitizer.width(String(kept)) > width - 1 { kept = kept.dropFirst() }
        return "…" + kept
    }
}
