import Presentation
import TriageModel

/// The saved views: one a row, the selected one highlighted; Enter opens it on the list.
public struct ViewsScreen: Hashable, Sendable {
    /// The views, by name; nil until they arrive.
    public var views: [SavedView]?
    /// The selected view and the first view row shown.
    public var rows = ListSelection()

    public init() {}
}

extension KeyHelp {
    /// `v` on the list opens the saved views; on them, goes back.
    static let views = KeyHelp("v", [.char("v")], "saved views (errtriage view save), one a row (again: back)", hint: "views", .list)
}

extension ViewsScreen: ScreenModule {
    static let name = "saved views"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { visibleRows($0.size) }) { state, delta in
        select(state.views.rows.selected.addingClamped(delta), &state)
    } + [
        KeyBinding("Enter", [.enter], "open the view on the list", hint: "open on the list", .views) { state, _ in openSelected(&state) },
        Meeting.resume,
        Meeting.start,
        KeyBinding(.views) { state, _ in
            state.screens.removeLast()
            return []
        },
        .dataEnd,
        .back { $0.screens.removeLast() },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if event.wheel != 0 {
            select(state.views.rows.selected + event.wheel, &state)
            return []
        }
        guard let index = ListLayout(size: state.size).issueIndex(atRow: event.row, scroll: state.views.rows.scroll,
                                                                   count: state.views.views?.count ?? 0) else { return [] }
        select(index, &state)
        return event.kind == .doubleClick ? openSelected(&state) : []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        state.screens.contains(.views) ? [.loadViews] : []
    }

    /// Rows of views between the heading and the status line.
    static func visibleRows(_ size: Size) -> Int { ListLayout(size: size).visibleIssues }

    /// `v`: the saved views, loaded from the store.
    static func open(_ state: inout DashboardState) -> [DashboardEffect] {
        state.screens.append(.views)
        state.views = ViewsScreen()
        return [.loadViews]
    }

    /// Takes the loaded views, keeping the selected one when it is still there.
    static func loaded(_ views: [SavedView], _ state: inout DashboardState) {
        let selected = state.views.views?[safe: state.views.rows.selected]?.name
        state.views.views = views
        select(selected.flatMap { name in views.firstIndex { $0.name == name } } ?? state.views.rows.selected, &state)
    }

    /// Opens the selected view on the list: its query, ranking and window.
    static func openSelected(_ state: inout DashboardState) -> [DashboardEffect] {
        guard let view = state.views.views?[safe: state.views.rows.selected] else { return [] }
        state.screens = [.list]
        state.message = StatusMessage("View \(view.name): \(view.query)")
        // A view that saved no ranking opens ranked by events, not by whatever the last view used.
        return state.changeQuery { $0 = view.applied(to: $0); if view.mode == nil { $0.mode = .events } }
    }

    /// Selects a view row, clamped to the views.
    static func select(_ index: Int, _ state: inout DashboardState) {
        state.views.rows.select(index, count: state.views.views?.count ?? 0, visible: visibleRows(state.size))
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let dot = state.unicode ? " · " : " | "
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(" Saved views\(dot)\(state.storeName)", row: layout.headerRow, col: 0, style: .header)
        buffer.write([Span(" now: ", .dim), Span(state.query.text.isEmpty ? "no query" : state.query.text)],
                     row: layout.controlsRow, col: 0, width: buffer.size.cols)
        guard let views = state.views.views else {
            buffer.write(state.unicode ? "loading…" : "loading...", row: layout.firstIssueRow, col: 1, style: .dim)
            StatusBar.render(state, row: layout.statusRow, into: &buffer)
            return
        }
        if views.isEmpty {
            buffer.write("No saved views yet.", row: layout.firstIssueRow, col: 1)
            if layout.visibleIssues > 1 {
                buffer.write("errtriage view save NAME --query 'os:17* has:complaints' saves one for everyone on this store.",
                             row: layout.firstIssueRow + 1, col: 1, style: .dim)
            }
        } else {
            let width = buffer.size.cols
            let name = nameWidth(views, unicode: state.unicode)
            let query = queryWidth(views, width: width, unicode: state.unicode)
            let columns = [(1, name, "NAME"), (1 + name + 2, query, "QUERY"), (width - rank - window - 1, rank, "RANKING"),
                           (width - window, window, "WINDOW")]
            for (x, w, heading) in columns { buffer.write(heading, row: layout.columnsRow, col: x, width: w, style: .heading) }
            for i in 0..<layout.visibleIssues {
                let index = state.views.rows.scroll + i
                guard index < views.count else { break }
                let row = layout.firstIssueRow + i
                let view = views[index]
                let cells = [view.name, view.query, view.mode?.rawValue ?? "events", view.window?.rawValue ?? "as is"]
                for ((x, w, _), text) in zip(columns, cells) {
                    buffer.write(text, row: row, col: x, width: w, style: text == cells[3] && view.window == nil ? .dim : .normal)
                }
                if index == state.views.rows.selected { buffer.paint(row: row, col: 0, width: width, style: .selected) }
            }
        }
        // The selected view's query, whole in the status line, where its row cuts it.
        let query = state.views.views?[safe: state.views.rows.selected].map { TextSanitizer.sanitize($0.query, unicode: state.unicode) }
        let whole = query.flatMap {
            TextSanitizer.width($0, unicode: state.unicode) > queryWidth(state.views.views ?? [], width: buffer.size.cols, unicode: state.unicode) ? $0 : nil
        }
        StatusBar.render(state, row: layout.statusRow, whole: whole, into: &buffer)
    }

    static let rank = 10, window = 6

    /// The name column: the longest name, up to 24 cells.
    static func nameWidth(_ views: [SavedView], unicode: Bool) -> Int {
        min(24, max(4, views.map { TextSanitizer.width($0.name, unicode: unicode, limit: 24) }.max() ?? 4))
    }

    /// The query column: what the name, ranking and window leave.
    static func queryWidth(_ views: [SavedView], width: Int, unicode: Bool) -> Int {
        max(8, width - 1 - nameWidth(views, unicode: unicode) - 2 - rank - 1 - window - 1)
    }
}

/// What the views screen asks of the store, and how the answer lands.
extension ViewsScreen {
    /// The saved views, by name.
    public struct Load: StoreLoad {
        public func perform(_ context: StoreContext) throws -> Loaded { Loaded(views: try context.store.savedViews()) }
    }

    public struct Loaded: StoreAnswer {
        public var views: [SavedView]
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            ViewsScreen.loaded(views, &state)
            return []
        }
    }
}

extension DashboardEffect {
    /// The views screen's load.
    public static var loadViews: Self { .load(ViewsScreen.Load()) }
}

extension DashboardAction {
    /// The views screen's answer.
    public static func viewsLoaded(_ views: [SavedView]) -> Self { .answer(ViewsScreen.Loaded(views: views)) }
}
