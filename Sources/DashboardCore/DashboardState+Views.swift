import TriageModel

/// The saved views screen's state: the views the store holds and the selected one.
public struct ViewsState: Hashable, Sendable {
    /// The views, by name; nil until they arrive.
    public var views: [SavedView]?
    public var selected = 0
    /// The first view row shown.
    public var scroll = 0

    public init() {}
}

extension DashboardState {
    /// `v`: the saved views, loaded from the store.
    mutating func openViews() -> [DashboardEffect] {
        screens.append(.views)
        savedViews = ViewsState()
        return [.loadViews]
    }

    /// Takes the loaded views.
    mutating func viewsLoaded(_ views: [SavedView]) {
        savedViews.views = views
        selectView(savedViews.selected)
    }

    mutating func viewsKey(_ key: Key) -> [DashboardEffect] {
        switch key {
        case .escape, .backspace, .char("q"), .char("v"):
            screens.removeLast()
        case .enter:
            return openSelectedView()
        default:
            if let delta = scrollDelta(key, page: max(1, SavedViewsView.visibleRows(size))) {
                selectView(savedViews.selected.addingClamped(delta))
            }
        }
        return []
    }

    /// Opens the selected view on the list: its query, ranking and window.
    mutating func openSelectedView() -> [DashboardEffect] {
        guard let view = savedViews.views?[safe: savedViews.selected] else { return [] }
        screens = [.list]
        message = StatusMessage("View \(view.name): \(view.query)")
        return changeQuery { $0 = view.applied(to: $0) }
    }

    /// Selects a view row, clamped to the views.
    mutating func selectView(_ index: Int) {
        let count = savedViews.views?.count ?? 0
        savedViews.selected = index.clampedRow(count: count)
        savedViews.scroll = Scrolling.keep(savedViews.selected, visible: SavedViewsView.visibleRows(size),
                                           scroll: savedViews.scroll, count: count)
    }
}
