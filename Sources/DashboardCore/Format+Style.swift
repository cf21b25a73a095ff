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
}
