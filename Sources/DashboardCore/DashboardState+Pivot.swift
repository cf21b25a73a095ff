import TriageModel

extension DashboardState {
    /// Opens the root-cause pivot over what the list lets through.
    mutating func openPivot() -> [DashboardEffect] {
        screens = [.list, .pivot]
        if pivot.query != query { pivot.groups = nil }
        return [.loadPivot(query, pivot.layer)]
    }

    /// Takes loaded groups if they are still the ones wanted, keeping the selected link.
    mutating func pivotLoaded(layer: Layer, query loaded: IssueQuery, groups: [LayerGroup], unknownDomain: Bool = false) {
        guard layer == pivot.layer, loaded == query else { return }
        pivot.unknownDomain = unknownDomain
        let selectedLink = pivot.selectedGroup.map { ($0.link.short, $0.link.code) }
        pivot.groups = groups
        pivot.query = loaded
        if let (short, code) = selectedLink, let index = groups.firstIndex(where: { $0.link.short == short && $0.link.code == code }) {
            pivot.selected = index
        } else {
            pivot.selected = pivot.selected.clampedRow(count: groups.count)
        }
        settleScrolling()
    }

    /// Groups by another layer and reloads.
    mutating func changeLayer(_ layer: Layer) -> [DashboardEffect] {
        guard layer != pivot.layer else { return [] }
        pivot.layer = layer
        pivot.groups = nil
        pivot.selected = 0
        pivot.scroll = 0
        return [.loadPivot(query, layer)]
    }

    mutating func pivotKey(_ key: Key) -> [DashboardEffect] {
        let count = pivot.groups?.count ?? 0
        let page = max(1, PivotView.visibleRows(size))
        switch key {
        case .escape, .backspace, .char("q"), .char("p"):
            screens = [.list]
        case .enter:
            return narrowList()
        case .char("l"):
            return changeLayer(pivot.layer == .root ? .outer : .root)
        case .char("d"):
            if case .domain(let name) = pivot.layer {
                prompt = Prompt(purpose: .pivotDomain, text: name)
            } else {
                prompt = Prompt(purpose: .pivotDomain)
            }
        case .char("s"): return changeQuery { $0.mode = $0.mode.cycled() }
        case .char("w"): return changeQuery { $0.window = $0.window.cycled() }
        case .char("f"): return changeQuery { $0.filter = $0.filter.cycled() }
        default:
            if let delta = scrollDelta(key, page: page) { selectGroup(pivot.selected.addingClamped(delta), count: count) }
        }
        return []
    }

    /// Selects a group row, clamped to the groups.
    mutating func selectGroup(_ index: Int, count: Int) {
        pivot.selected = index.clampedRow(count: count)
        settleScrolling()
    }

    /// Back to the list, narrowed to the selected group's issues.
    mutating func narrowList() -> [DashboardEffect] {
        guard let group = pivot.selectedGroup else { return [] }
        let label = "\(pivot.layer.label) \(group.link.shortCode) \(group.link.name ?? group.link.domain ?? "")"
        screens = [.list]
        selectedKey = group.issues.first
        selectedIndex = 0
        return changeQuery { $0.scope = IssueScope(label: label.trimmedSpaces, keys: Set(group.issues)) }
    }
}
