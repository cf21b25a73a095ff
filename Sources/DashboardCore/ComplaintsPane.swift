import Presentation
import TriageModel

/// The Complaints pane: each complaint's time, channel, category and user, then its text wrapped.
enum ComplaintsPane {
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        guard !detail.complaints.isEmpty else { return [[Span("No complaints cite this issue.", .dim)]] }
        var lines: [[Span]] = []
        for complaint in detail.complaints {
            if !lines.isEmpty { lines.append([]) }
            let dash = "-"
            lines.append([
                Span(complaint.timestamp.minuteText, .heading),
                Span("  " + (complaint.channel ?? dash)),
                Span("  " + (complaint.category ?? dash), .dim),
                Span("  " + (complaint.userID ?? dash)),
            ])
            if let subject = complaint.subject, !subject.isEmpty {
                lines += TextWrap.wrap(subject, width: max(1, width - 2), unicode: unicode, maxLines: 3).map { [Span("  " + $0, .heading)] }
            }
            lines += TextWrap.wrap(complaint.text, width: max(1, width - 2), unicode: unicode, maxLines: 60).map { [Span("  " + $0)] }
        }
        return lines
    }
}
