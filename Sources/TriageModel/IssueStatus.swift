/// Where an issue stands in triage.
public enum IssueStatus: String, CaseIterable, Sendable, Codable {
    case open, regressed, resolved, muted
}

/// Which statuses a list shows.
public enum StatusFilter: String, CaseIterable, Sendable, Codable {
    /// Open and regressed: what still needs a decision.
    case active = "open"
    case regressed, resolved, muted, all

    /// The statuses this filter lets through.
    public var statuses: Set<IssueStatus> {
        switch self {
        case .active: [.open, .regressed]
        case .regressed: [.regressed]
        case .resolved: [.resolved]
        case .muted: [.muted]
        case .all: Set(IssueStatus.allCases)
        }
    }

    /// How the dashboard names the filter.
    public var label: String { self == .active ? "open+regressed" : rawValue }
}

/// What ranks the top-N list.
public enum RankMode: String, CaseIterable, Sendable, Codable {
    case events, complaints, users
}

/// When a muted issue comes back by itself.
public enum MuteCondition: Hashable, Sendable {
    /// At this time.
    case until(Timestamp)
    /// After this many more events.
    case events(Int)
    /// After this many more distinct users.
    case users(Int)

    /// How the history row says it, e.g. `until 100 more events`.
    public var text: String {
        switch self {
        case .until(let t): "until \(t.minuteText) UTC"
        case .events(let n): "until \(n) more events"
        case .users(let n): "until \(n) more users"
        }
    }
}
