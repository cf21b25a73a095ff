import Presentation
import TriageModel

/// The grouping rules (`errtriage rule add`, or the rule offered after `J`): one a row, in the
/// order they are tried, each with the issue it gathers under; Enter opens that issue.
public struct RulesScreen: Hashable, Sendable {
    /// The rules, by number; nil until they arrive.
    public var rules: [GroupingRule]?
    /// The selected rule and the first row shown.
    public var rows = ListSelection()

    public init() {}
}

extension Screen {
    /// The grouping rules, to see what each one gathers.
    public static let rules = Screen(RulesScreen.self)
}

extension KeyHelp {
    /// `F` on the list opens the grouping rules; on them, goes back.
    /// (Help only: the list's key line keeps its room for the keys of every day.)
    static let rules = KeyHelp("F", [.char("F")], "grouping rules (errtriage rule add), one a row (again: back)", .list)
}

extension KeyHelp.Group {
    static let rules = KeyHelp.Group("Grouping rules")
}

extension RulesScreen: ScreenModule {
    static let name = "grouping rules"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { visibleRows($0.size) }) { state, delta in
        select(state[RulesScreen.self].rows.selected.addingClamped(delta), &state)
    } + [
        KeyBinding("Enter", [.enter], "open the issue the rule gathers under", hint: "open its issue", .rules,
                   offered: { $0[RulesScreen.self].rules?.isEmpty == false }) { state, _ in
            openSelected(&state)
        },
        KeyBinding(.rules) { state, _ in
            state.screens.removeLast()
            return []
        },
        .dataEnd,
        .back { $0.screens.removeLast() },
    ] + KeyBinding.shell

    /// `F` on the list: the rules, loaded from the store.
    static let open = KeyBinding(.rules) { state, _ in
        state.screens.append(.rules)
        state[RulesScreen.self] = RulesScreen()
        return [.load(Load())]
    }

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if event.wheel != 0 {
            select(state[RulesScreen.self].rows.selected + event.wheel, &state)
            return []
        }
        let screen = state[RulesScreen.self]
        guard let index = ListLayout(size: state.size).issueIndex(atRow: event.row, scroll: screen.rows.scroll,
                                                                   count: screen.rules?.count ?? 0) else { return [] }
        select(index, &state)
        return event.kind == .doubleClick ? openSelected(&state) : []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        state.screens.contains(.rules) ? [.load(Load())] : []
    }

    static func settle(_ state: inout DashboardState) {
        guard state.screens.contains(.rules) else { return }
        state[RulesScreen.self].rows.settle(count: state[RulesScreen.self].rules?.count ?? 0, visible: visibleRows(state.size))
    }

    /// Rows of rules between the heading and the status line.
    static func visibleRows(_ size: Size) -> Int { ListLayout(size: size).visibleIssues }

    /// Selects a rule's row, clamped to the rules.
    static func select(_ index: Int, _ state: inout DashboardState) {
        let count = state[RulesScreen.self].rules?.count ?? 0
        state[RulesScreen.self].rows.select(index, count: count, visible: visibleRows(state.size))
    }

    /// Opens the issue the selected rule gathers under; a rule no issue matched yet says so.
    static func openSelected(_ state: inout DashboardState) -> [DashboardEffect] {
        let screen = state[RulesScreen.self]
        guard let rule = screen.rules?[safe: screen.rows.selected] else { return [] }
        guard let head = rule.headKey else {
            state.message = StatusMessage("No issue matches rule \(TextSanitizer.sanitize(rule.name, unicode: state.unicode)) yet: "
                                          + "the first event that does opens its issue.", isError: true)
            return []
        }
        state.screens.append(.detail)
        return DetailScreen.show(head, &state)
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let screen = state[RulesScreen.self]
        let dot = state.unicode ? " · " : " | "
        buffer.fill(row: layout.headerRow, style: .header)
        buffer.write(" Grouping rules\(dot)\(state.storeName)", row: layout.headerRow, col: 0, style: .header)
        buffer.write([Span(" tried in this order; an event a rule matches goes to its issue", .dim)],
                     row: layout.controlsRow, col: 0, width: buffer.size.cols)
        guard let rules = screen.rules else {
            buffer.write(state.unicode ? "loading…" : "loading...", row: layout.firstIssueRow, col: 1, style: .dim)
            StatusBar.render(state, row: layout.statusRow, into: &buffer)
            return
        }
        let columns = Columns(rules, width: buffer.size.cols, unicode: state.unicode)
        if rules.isEmpty {
            buffer.write("No grouping rules yet.", row: layout.firstIssueRow, col: 1)
            if layout.visibleIssues > 1 {
                buffer.write("errtriage rule add QUERY --as NAME makes one; so does J on the list.",
                             row: layout.firstIssueRow + 1, col: 1, style: .dim)
            }
        } else {
            for (x, w, heading) in columns.all { buffer.write(heading, row: layout.columnsRow, col: x, width: w, style: .heading) }
            for i in 0..<layout.visibleIssues {
                let index = screen.rows.scroll + i
                guard index < rules.count else { break }
                let row = layout.firstIssueRow + i
                let rule = rules[index]
                let cells = [String(rule.number), rule.name, rule.query, rule.headKey ?? "none yet", rule.by, rule.at.dateText].prefix(columns.all.count)
                for (i, ((x, w, _), text)) in zip(columns.all, cells).enumerated() {
                    let style: Style = i == 3 && rule.headKey != nil ? .key : (i == 3 || i == 0 ? .dim : .normal)
                    buffer.write(text, row: row, col: x, width: w, style: style)
                }
                if index == screen.rows.selected { buffer.paint(row: row, col: 0, width: buffer.size.cols, style: .selected) }
            }
        }
        // The selected rule's query, whole in the status line, where its row cuts it.
        let query = rules[safe: screen.rows.selected].map { TextSanitizer.sanitize($0.query, unicode: state.unicode) }
        let whole = query.flatMap { TextSanitizer.width($0, unicode: state.unicode) > columns.query ? $0 : nil }
        StatusBar.render(state, row: layout.statusRow, whole: whole, into: &buffer)
    }

    /// The columns: number, name (up to 24 cells), the query (what is left), the issue's key (up
    /// to 24), who made it and when — these two left out where the query would get under 24 cells.
    struct Columns {
        var all: [(Int, Int, String)]
        var query: Int

        init(_ rules: [GroupingRule], width: Int, unicode: Bool) {
            func widest(_ texts: [String], _ heading: String, _ most: Int) -> Int {
                min(most, max(heading.count, texts.map { TextSanitizer.width($0, unicode: unicode, limit: most) }.max() ?? 0))
            }
            let number = widest(rules.map { String($0.number) }, "#", 4)
            let name = widest(rules.map(\.name), "NAME", 24)
            let issue = widest(rules.map { $0.headKey ?? "none yet" }, "ISSUE", 24)
            var after = [(issue, "ISSUE"), (widest(rules.map(\.by), "BY", 12), "BY"), (10, "SINCE")]
            // Each column but the query takes its width and 2 cells before the next; 1 cell at each edge.
            func left() -> Int { width - 2 - (number + 2) - (name + 2) - after.reduce(0) { $0 + $1.0 + 2 } }
            if left() < 24 { after.removeLast(2) }
            query = max(8, left())
            var x = 1
            all = []
            for (w, heading) in [(number, "#"), (name, "NAME"), (query, "QUERY")] + after {
                all.append((x, w, heading))
                x += w + 2
            }
        }
    }
}

/// What the rules screen asks of the store, and how the answer lands.
extension RulesScreen {
    /// The grouping rules, in the order they are tried.
    public struct Load: StoreLoad {
        public init() {}
        public func perform(_ context: StoreContext) throws -> Loaded { Loaded(rules: try context.store.groupingRules()) }
    }

    /// The rules; the selected one stays selected while it is still there.
    public struct Loaded: StoreAnswer {
        public var rules: [GroupingRule]
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            let screen = state[RulesScreen.self]
            let selected = screen.rules?[safe: screen.rows.selected]?.name
            state[RulesScreen.self].rules = rules
            select(selected.flatMap { name in rules.firstIndex { $0.name == name } } ?? screen.rows.selected, &state)
            return []
        }
    }
}
