import Presentation
import TriageModel

/// The Complaints pane: each complaint's time, channel, category and user, then its text wrapped;
/// the newest first, and those before the window under a line that says so, so the pane never
/// seems to contradict the window's count on the Chain pane.
enum ComplaintsPane {
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        guard !detail.complaints.isEmpty else { return [[Span("No complaints cite this issue.", .dim)]] }
        let start = detail.window.start(now: detail.now) ?? Timestamp(millis: .min)
        let inWindow = detail.complaints.filter { $0.timestamp >= start }.count
        var lines: [[Span]] = [[Span("\(Format.grouped(inWindow)) in the last \(detail.window.rawValue)", .heading),
                                Span(inWindow == detail.complaints.count ? "" : ", then older ones (the newest \(detail.complaints.count) in all)", .dim)]]
        var olderShown = false
        for complaint in detail.complaints {
            lines.append([])
            if complaint.timestamp < start, !olderShown {
                olderShown = true
                lines.append([Span("Before the last \(detail.window.rawValue): not counted in the window", .heading)])
                lines.append([])
            }
            let dash = unicode ? "—" : "-"
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
