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

    /// Takes the loaded views, keeping the selected one when it is still there.
    mutating func viewsLoaded(_ views: [SavedView]) {
        let selected = savedViews.views?[safe: savedViews.selected]?.name
        savedViews.views = views
        selectView(selected.flatMap { name in views.firstIndex { $0.name == name } } ?? savedViews.selected)
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
        // A view that saved no ranking opens ranked by events, not by whatever the last view used.
        return changeQuery { $0 = view.applied(to: $0); if view.mode == nil { $0.mode = .events } }
    }

    /// Selects a view row, clamped to the views.
    mutating func selectView(_ index: Int) {
        let count = savedViews.views?.count ?? 0
        savedViews.selected = index.clampedRow(count: count)
        savedViews.scroll = Scrolling.keep(savedViews.selected, visible: SavedViewsView.visibleRows(size),
                                           scroll: savedViews.scroll, count: count)
    }
}
