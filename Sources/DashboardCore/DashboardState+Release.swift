import TriageModel

/// The release screen's state: the newest version against the one before it.
public struct ReleaseScreenState: Hashable, Sendable {
    /// The comparison shown; nil while it loads.
    public var comparison: ReleaseComparison?
    /// Whether the store answered (a store whose events name no version answers nil).
    public var loaded = false
    /// The window the comparison counts over.
    public var window: TimeWindow = .d7
    /// The selected issue, an index into `comparison.all`.
    public var selected = 0
    /// The first line shown (section headings count as lines).
    public var scroll = 0

    public init() {}

    /// The selected issue, if loaded.
    public var selectedIssue: ReleaseIssue? { comparison?.all[safe: selected] }
}

extension DashboardState {
    /// Opens the release screen over the list's window.
    mutating func openRelease() -> [DashboardEffect] {
        screens = [.list, .release]
        if release.window != query.window || !release.loaded {
            release.window = query.window
            release.comparison = nil
            release.loaded = false
        }
        return [.loadRelease(window: release.window)]
    }

    /// Takes a loaded comparison if it is for the window wanted, keeping the selected issue.
    mutating func releaseLoaded(_ comparison: ReleaseComparison?, window: TimeWindow) {
        guard window == release.window else { return }
        let selectedKey = release.selectedIssue?.key
        release.comparison = comparison
        release.loaded = true
        let all = comparison?.all ?? []
        release.selected = selectedKey.flatMap { key in all.firstIndex { $0.key == key } } ?? min(release.selected, max(0, all.count - 1))
        settleScrolling()
    }

    mutating func releaseKey(_ key: Key) -> [DashboardEffect] {
        let count = release.comparison?.all.count ?? 0
        let page = max(1, ListLayout(size: size).visibleIssues)
        switch key {
        case .escape, .backspace, .char("q"), .char("V"):
            screens = [.list]
        case .enter:
            return openReleaseIssue()
        case .char("w"):
            release.window = release.window.cycled()
            release.comparison = nil
            release.loaded = false
            release.selected = 0
            release.scroll = 0
            return [.loadRelease(window: release.window)]
        default:
            if let delta = scrollDelta(key, page: page) { selectReleaseIssue(release.selected.addingClamped(delta), count: count) }
        }
        return []
    }

    /// Selects an issue row, clamped to the comparison's issues.
    mutating func selectReleaseIssue(_ index: Int, count: Int) {
        release.selected = index.clampedRow(count: count)
        settleScrolling()
    }

    /// Opens the selected issue's detail; Esc comes back here.
    mutating func openReleaseIssue() -> [DashboardEffect] {
        guard let issue = release.selectedIssue else { return [] }
        screens = [.list, .release, .detail]
        return showDetail(issue.key)
    }
}
