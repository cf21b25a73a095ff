import Presentation
import TriageModel

/// The Notes & history pane: the tracker link, the notes, and every status change.
enum NotesPane {
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        var lines: [[Span]] = [[Span(ChainLadder.label("Tracker")),
                                detail.summary.trackerURL.map { Span($0, .link) } ?? Span("none (t sets one)", .dim)]]
        lines += ChainLadder.field("Resolved in", detail.resolvedVersion ?? (unicode ? "—" : "-"), width: width, unicode: unicode)
        lines.append([])
        lines.append([Span("Notes", .heading), Span("  (n adds one)", .dim)])
        if detail.notes.isEmpty { lines.append([Span("  (none)", .dim)]) }
        for note in detail.notes {
            lines.append([Span("  " + note.at.minuteText, .dim), Span("  " + note.by)])
            lines += TextWrap.wrap(note.text, width: max(1, width - 4), unicode: unicode, maxLines: 40).map { [Span("    " + $0)] }
        }
        lines.append([])
        lines.append([Span("History", .heading)])
        if detail.history.isEmpty { lines.append([Span("  (no changes)", .dim)]) }
        for change in detail.history { lines += changeLines(change, width: width, unicode: unicode) }
        return lines
    }

    /// One status change: when, from and to (and in which version), who, and the note after them
    /// where it fits the width, else wrapped on the lines below, never cut.
    static func changeLines(_ change: StatusChange, width: Int, unicode: Bool) -> [[Span]] {
        var text = (change.from?.rawValue ?? "new") + (unicode ? " → " : " -> ") + change.to.rawValue
        if let version = change.version, !version.isEmpty { text += " in \(version)" }
        let head = [Span("  " + change.at.minuteText, .dim), Span("  " + text, Format.style(of: change.to)),
                    Span("  by \(change.by)", .dim)]
        guard let note = change.note, !note.isEmpty else { return [head] }
        let used = head.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: unicode) }
        if used + 2 + TextSanitizer.width(note, unicode: unicode) <= width { return [head + [Span("  " + note)]] }
        return [head] + TextWrap.wrap(note, width: max(1, width - 4), unicode: unicode, maxLines: 20).map { [Span("    " + $0)] }
    }
}
