import Presentation
import TriageModel

/// The styles statuses and badges take on screen; the text is `Format`'s, shared with every output.
extension Format {
    /// The style of a status.
    static func style(of status: IssueStatus) -> Style {
        switch status {
        case .open: .statusOpen
        case .regressed: .statusRegressed
        case .resolved: .statusResolved
        case .muted: .statusMuted
        }
    }

    /// The style of a signal badge.
    static func style(of signal: Signal) -> Style {
        switch signal {
        case .new: .badgeNew
        case .regressed: .badgeRegressed
        case .spike: .badgeSpike
        }
    }

    /// An issue's badges in order: its kind (`CRASH`, `ANR`, `UNHANDLED`; a non-fatal has none), its signals, then a merged group's `+N`.
    static func badges(of issue: IssueSummary) -> [(text: String, style: Style)] {
        let kind: [(text: String, style: Style)] = issue.kind.flatMap { kind in
            kind.badge.map { [($0, kind == .crash ? Style.badgeRegressed : .badgeSpike)] }
        } ?? []
        let merged: [(text: String, style: Style)] = mergeBadge(issue).map { [($0, Style.badgeNew)] } ?? []
        return kind + issue.signals.map { ($0.rawValue, style(of: $0)) } + merged
    }

    /// A badge in a narrow list: its first letter (`C`, `S`), a merged group's `+N` whole.
    static func compactBadge(_ text: String) -> String {
        text.hasPrefix("+") ? text : String(text.prefix(1))
    }
}
