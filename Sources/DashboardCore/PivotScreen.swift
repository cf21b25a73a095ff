import Presentation
import TriageModel

/// The root-cause pivot: one row per link (the root cause, the user-facing error, or a domain's link)
/// with the events, complaints and issues behind it and the user-facing errors it surfaces as
/// (or, grouped by the user-facing error, the root causes behind it). Its layer, groups and
/// selection stay while it is closed: the list it narrows comes back to it.
public struct PivotScreen: Hashable, Sendable {
    /// The link each chain is grouped by.
    public var layer: Layer = .root
    /// The groups for `layer` and the list's query; nil until they arrive.
    public var groups: [LayerGroup]?
    /// The query the groups were computed for.
    public var query: IssueQuery?
    /// The domain asked for (`d`) is one no chain in the store has.
    public var unknownDomain = false
    /// The selected group and the first group row shown.
    public var rows = ListSelection()

    public init() {}

    public init(layer: Layer) { self.layer = layer }

    /// The selected group, if the groups are loaded.
    public var selectedGroup: LayerGroup? { groups?[safe: rows.selected] }
}

extension KeyHelp {
    /// `p` on the list opens the pivot; on the pivot it goes back.
    static let pivot = KeyHelp("p", [.char("p")], "root-cause pivot: issues grouped by one link (again: back)", hint: "pivot", .list)
}

extension PivotScreen: ScreenModule {
    static let name = "pivot"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { visibleRows($0.size) }) { state, delta in
        state.pivot.rows.move(by: delta, count: state.pivot.groups?.count ?? 0, visible: visibleRows(state.size))
    } + [
        KeyBinding("Enter", [.enter], "the list, narrowed to the group's issues (Esc on the list comes back here)", hint: "its issues",
                   .pivot) { state, _ in narrowList(&state) },
        Meeting.resume,
        .rank, .window, .status,
        KeyBinding(.pivot) { state, _ in
            state.screens = [.list]
            return []
        },
        KeyBinding("l", [.char("l")], "group by the root cause / the user-facing error", hint: "root/user-facing", .pivot) { state, _ in
            changeLayer(state.pivot.layer == .root ? .outer : .root, &state)
        },
        KeyBinding("d", [.char("d")], "group by a domain's link (prompt), e.g. TolokaBackendError", hint: "domain", .pivot) { state, _ in
            if case .domain(let name) = state.pivot.layer {
                state.prompt = Prompt(purpose: .pivotDomain, text: name)
            } else {
                state.prompt = Prompt(purpose: .pivotDomain)
            }
            return []
        },
        Meeting.start,
        .dataEnd,
        .back { $0.screens = [.list] },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        let count = state.pivot.groups?.count ?? 0
        if event.wheel != 0 {
            state.pivot.rows.move(by: event.wheel, count: count, visible: visibleRows(state.size))
            return []
        }
        guard let index = ListLayout(size: state.size).issueIndex(atRow: event.row, scroll: state.pivot.rows.scroll, count: count) else { return [] }
        state.pivot.rows.select(index, count: count, visible: visibleRows(state.size))
        return event.kind == .doubleClick ? narrowList(&state) : []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        state.screens.contains(.pivot) ? [.loadPivot(state.query, state.pivot.layer)] : []
    }

    static func queryChanged(from old: IssueQuery, _ state: inout DashboardState) -> [DashboardEffect] {
        guard state.screens.contains(.pivot) else { return [] }
        state.pivot.groups = nil
        return [.loadPivot(state.query, state.pivot.layer)]
    }

    static func settle(_ state: inout DashboardState) {
        state.pivot.rows.settle(count: state.pivot.groups?.count ?? 0, visible: visibleRows(state.size))
    }

    /// Group rows that fit between the column headings and the status line.
    static func visibleRows(_ size: Size) -> Int { ListLayout(size: size).visibleIssues }

    /// Opens the pivot over what the list lets through.
    static func open(_ state: inout DashboardState) -> [DashboardEffect] {
        state.screens = [.list, .pivot]
        if state.pivot.query != state.query { state.pivot.groups = nil }
        return [.loadPivot(state.query, state.pivot.layer)]
    }

    /// Takes loaded groups if they are still the ones wanted, keeping the selected link.
    static func loaded(layer: Layer, query: IssueQuery, groups: [LayerGroup], unknownDomain: Bool, _ state: inout DashboardState) {
        guard layer == state.pivot.layer, query == state.query else { return }
        state.pivot.unknownDomain = unknownDomain
        let selectedLink = state.pivot.selectedGroup.map { ($0.link.short, $0.link.code) }
        state.pivot.groups = groups
        state.pivot.query = query
        if let (short, code) = selectedLink, let index = groups.firstIndex(where: { $0.link.short == short && $0.link.code == code }) {
            state.pivot.rows.selected = index
        } else {
            state.pivot.rows.selected = state.pivot.rows.selected.clampedRow(count: groups.count)
        }
        state.settleScrolling()
    }

    /// Groups by another layer and reloads.
    static func changeLayer(_ layer: Layer, _ state: inout DashboardState) -> [DashboardEffect] {
        guard layer != state.pivot.layer else { return [] }
        state.pivot.layer = layer
        state.pivot.groups = nil
        state.pivot.rows = ListSelection()
        return [.loadPivot(state.query, layer)]
    }

    /// Back to the list, narrowed to the selected group's issues.
    static func narrowList(_ state: inout DashboardState) -> [DashboardEffect] {
        guard let group = state.pivot.selectedGroup else { return [] }
        let label = "\(state.pivot.layer.label) \(group.link.shortCode) \(group.link.name ?? group.link.domain ?? "")"
        state.screens = [.list]
        return state.changeQuery { $0.scope = IssueScope(label: label.trimmedSpaces, keys: Set(group.issues)) }
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let width = buffer.size.cols
        buffer.fill(row: layout.headerRow, style: .header)
        _ = buffer.write(ScreenHeader.spans(state, title: "Pivot by \(state.pivot.layer.label)", window: state.query.window.rawValue, width: width),
                         row: layout.headerRow, col: 0, width: width)

        var controls = [Span(" layer: ", .dim), Span(state.pivot.layer.label, .ranked),
                        Span("  rank: ", .dim), Span(state.query.mode.rawValue),
                        Span("  status: ", .dim), Span(state.query.filter.label)]
        if !state.query.text.isEmpty { controls += [Span("  filter: ", .dim), Span("\"\(state.query.text)\"")] }
        if let scope = state.query.scope { controls += [Span("  only: ", .dim), Span(scope.label)] }
        buffer.write(controls, row: layout.controlsRow, col: 0, width: width)

        guard let groups = state.pivot.groups else {
            buffer.write(state.unicode ? "loading…" : "loading...", row: layout.firstIssueRow, col: 1, style: .dim)
            StatusBar.render(state, row: layout.statusRow, into: &buffer)
            return
        }
        if groups.isEmpty {
            var text = "No issue in this window has a \(state.pivot.layer.label) link"
            if case .domain(let name) = state.pivot.layer {
                text = state.pivot.unknownDomain ? "No chain in the store has the domain \(name)"
                    : "No issue in this window passes through \(state.pivot.layer.label)"
            }
            buffer.write(text + ".", row: layout.firstIssueRow, col: 1, width: width - 1)
            if layout.visibleIssues > 1 {
                buffer.write("l switches root cause / user-facing error, d picks a domain, w the window.",
                             row: layout.firstIssueRow + 1, col: 1, width: width - 1, style: .dim)
            }
            StatusBar.render(state, row: layout.statusRow, into: &buffer)
            return
        }

        let columns = Columns(groups, width: width)
        writeHeadings(columns, layer: state.pivot.layer, mode: state.query.mode, unicode: state.unicode, row: layout.columnsRow, into: &buffer)
        let scroll = state.pivot.rows.shownScroll(count: groups.count, visible: layout.visibleIssues)
        for line in 0..<layout.visibleIssues {
            let index = scroll + line
            guard index < groups.count else { break }
            let row = layout.firstIssueRow + line
            writeRow(groups[index], rank: index + 1, columns: columns, layer: state.pivot.layer, row: row, into: &buffer)
            if index == state.pivot.rows.selected { buffer.paint(row: row, col: 0, width: width, style: .selected) }
        }
        // The selected link's `domain.name`, whole in the status line, where its row cuts it.
        let name = state.pivot.selectedGroup.map { TextSanitizer.sanitize($0.link.fullName, unicode: state.unicode) }
        let whole = name.flatMap { TextSanitizer.width($0, unicode: state.unicode) > columns.name ? $0 : nil }
        StatusBar.render(state, row: layout.statusRow, whole: whole, into: &buffer)
    }

    /// Column widths for a width: the name takes what the numbers leave, "surfaces as" the rest.
    struct Columns {
        var rank = 3
        var link: Int
        var name: Int
        let events = 7
        let complaints = 6
        let issues = 6
        var surfaces: Int

        init(_ groups: [LayerGroup], width: Int) {
            link = min(12, max(4, groups.map { TextSanitizer.width($0.link.shortCode, limit: 12) }.max() ?? 4))
            let fixed = rank + 1 + link + 1 + events + 1 + complaints + 1 + issues + 1
            let left = max(0, width - fixed)
            // The name (domain.name) takes its room first; "surfaces as" takes what is left, if enough to read.
            let longest = groups.map { TextSanitizer.width($0.link.fullName, limit: width) }.max() ?? 8
            name = max(4, min(longest, left - 1))
            surfaces = left - name - 2
            if surfaces < 12 {
                name = max(4, left - 1)
                surfaces = 0
            }
        }

        var nameX: Int { rank + 1 + link + 1 }
        var eventsX: Int { nameX + name + 1 }
        var complaintsX: Int { eventsX + events + 1 }
        var issuesX: Int { complaintsX + complaints + 1 }
        var surfacesX: Int { issuesX + issues + 2 }
    }

    static func writeHeadings(_ c: Columns, layer: Layer, mode: RankMode, unicode: Bool, row: Int, into buffer: inout ScreenBuffer) {
        let mark = unicode ? "▼" : "v"
        buffer.write(Format.right("#", c.rank), row: row, col: 0, style: .heading)
        buffer.write("LINK", row: row, col: c.rank + 1, width: c.link, style: .heading)
        buffer.write("DOMAIN.NAME", row: row, col: c.nameX, width: c.name, style: .heading)
        buffer.write(Format.right((mode == .complaints ? "" : mark) + "EVENTS", c.events), row: row, col: c.eventsX,
                     style: mode == .complaints ? .heading : .ranked)
        buffer.write(Format.right((mode == .complaints ? mark : "") + "COMPL", c.complaints), row: row, col: c.complaintsX,
                     style: mode == .complaints ? .ranked : .heading)
        buffer.write(Format.right("ISSUES", c.issues), row: row, col: c.issuesX, style: .heading)
        if c.surfaces > 0 { buffer.write(layer == .outer ? "ROOT CAUSES" : "SURFACES AS", row: row, col: c.surfacesX, width: c.surfaces, style: .heading) }
    }

    static func writeRow(_ group: LayerGroup, rank: Int, columns c: Columns, layer: Layer, row: Int, into buffer: inout ScreenBuffer) {
        buffer.write(Format.right(String(rank), c.rank), row: row, col: 0, style: .dim)
        buffer.write(group.link.shortCode, row: row, col: c.rank + 1, width: c.link, style: .key)
        buffer.write(group.link.fullName, row: row, col: c.nameX, width: c.name, style: .rootCause)
        buffer.write(Format.right(Format.count(group.events), c.events), row: row, col: c.eventsX)
        buffer.write(Format.right(Format.count(group.complaints), c.complaints), row: row, col: c.complaintsX)
        buffer.write(Format.right(String(group.issues.count), c.issues), row: row, col: c.issuesX)
        if c.surfaces > 0 {
            let text = group.related(for: layer).map { "\($0.link.name ?? $0.link.shortCode) \(Format.count($0.events))" }
                .joined(separator: ", ")
            buffer.write(text, row: row, col: c.surfacesX, width: c.surfaces, style: .dim)
        }
    }
}

/// What the pivot asks of the store, and how the answer lands.
extension PivotScreen {
    /// Every issue the query lets through, grouped by the link a layer picks.
    public struct Load: StoreLoad {
        public var query: IssueQuery
        public var layer: Layer
        public func perform(_ context: StoreContext) throws -> Loaded {
            let groups = try context.store.layerPivot(query, by: layer, now: context.now).groups
            var unknown = false
            if case .domain(let name) = layer, groups.isEmpty { unknown = try !context.store.knowsDomain(name) }
            return Loaded(layer: layer, query: query, groups: groups, unknownDomain: unknown)
        }
    }

    /// The groups for a layer and the list query they were computed for. `unknownDomain`: a domain
    /// pivot whose domain no chain in the store has.
    public struct Loaded: StoreAnswer {
        public var layer: Layer
        public var query: IssueQuery
        public var groups: [LayerGroup]
        public var unknownDomain: Bool
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            PivotScreen.loaded(layer: layer, query: query, groups: groups, unknownDomain: unknownDomain, &state)
            return []
        }
    }
}

extension DashboardEffect {
    /// The pivot's load.
    public static func loadPivot(_ query: IssueQuery, _ layer: Layer) -> Self { .load(PivotScreen.Load(query: query, layer: layer)) }
}

extension DashboardAction {
    /// The pivot's answer.
    public static func pivotLoaded(layer: Layer, query: IssueQuery, groups: [LayerGroup], unknownDomain: Bool = false) -> Self {
        .answer(PivotScreen.Loaded(layer: layer, query: query, groups: groups, unknownDomain: unknownDomain))
    }
}
