import TriageModel

/// The first screen: totals, then one ranked row per issue; the bottom of the stack.
public struct ListScreen: Hashable, Sendable {
    /// The last list loaded; nil until the first arrives.
    public var loaded: IssueList?
    /// The selected row of `loaded.issues`, and the first row shown.
    public var rows = ListSelection()
    /// The selected issue's key, which survives reloads; the selected row follows it.
    public var selectedKey: String?
    /// The columns as last fitted, with what they were fitted for: fitting measures every loaded
    /// row's texts, so it is done when they change, not at every frame.
    var fitted: FittedColumns?
    /// The keys picked for a merge (`Space`), which `J` merges with the selected issue.
    public var picked: Set<String> = []

    public init() {}

    /// The selected row's issue, if any.
    public var selectedIssue: IssueSummary? { loaded?.issues[safe: rows.selected] }

    /// The loaded row of an issue, if the list shows it.
    func row(_ key: String) -> IssueSummary? { loaded?.issues.first { $0.key == key } }

    /// Changes an issue's row where the list shows it (a mark, or its undo, before the store answers).
    mutating func updateRow(_ key: String, _ change: (inout IssueSummary) -> Void) {
        guard let i = loaded?.issues.firstIndex(where: { $0.key == key }) else { return }
        change(&loaded!.issues[i])
    }
}

extension ListScreen: ScreenModule {
    static let name = "list"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { ListLayout(size: $0.size).visibleIssues }) { state, delta in
        select(state.list.rows.selected.addingClamped(delta), &state)
    } + [
        KeyBinding(.openIssue) { state, _ in open(&state) },
        Meeting.resume,
        .rank, .window, .status,
        KeyBinding("/", [.char("/")], "filter by a query (os:17* has:complaints); Esc in the prompt puts the last filter back",
                   hint: "filter", .list) { state, _ in
            state.prompt = Prompt(purpose: .filter, text: state.query.text)
            return []
        },
        KeyBinding(.pivot) { state, _ in PivotScreen.open(&state) },
        Meeting.start,
        KeyBinding(.views) { state, _ in ViewsScreen.open(&state) },
        RulesScreen.open,
        KeyBinding(.release) { state, _ in ReleaseScreen.open(&state) },
    ] + Marks.bindings { $0.list.selectedIssue } + [
        KeyBinding("Space", [.char(" ")], "pick the issue for a merge (again: unpick)", .marks) { state, _ in
            guard let key = state.list.selectedIssue?.key else { return [] }
            if state.list.picked.remove(key) == nil { state.list.picked.insert(key) }
            let n = state.list.picked.count
            state.message = StatusMessage(n == 0 ? "Nothing picked." : "\(n) picked: J merges \(n == 1 ? "it" : "them") with the selected issue.")
            return []
        },
        KeyBinding("J", [.char("J")], "merge the picked issues and the selected one into the first seen; then offers a rule for later ones",
                   hint: "merge", .marks, offered: { !$0.list.picked.isEmpty }) { state, _ in merge(&state) },
    ] + [
        .dataEnd,
        KeyBinding("Esc", [.escape, .backspace], "clear the filter, or the pivot's narrowing (back to the pivot)", .navigation) { state, _ in
            if !state.query.text.isEmpty { return state.changeQuery { $0.text = "" } }
            // A list narrowed from the pivot goes back to the pivot it came from.
            if state.query.scope != nil {
                state.screens = [.list, .pivot]
                return state.changeQuery { $0.scope = nil }
            }
            return []
        },
        KeyBinding("q", [.char("q")], "quit", hint: "quit", .other) { _, _ in [.quit] },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if event.wheel != 0 {
            select(state.list.rows.selected + event.wheel, &state)
            return []
        }
        guard let count = state.list.loaded?.issues.count,
              let index = ListLayout(size: state.size).issueIndex(atRow: event.row, scroll: shownScroll(state), count: count) else { return [] }
        select(index, &state)
        return event.kind == .doubleClick ? open(&state) : []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] { [.loadList(state.query)] }

    static func queryChanged(from old: IssueQuery, _ state: inout DashboardState) -> [DashboardEffect] {
        state.list.selectedKey = nil
        state.list.picked = []
        state.list.rows = ListSelection()
        return [.loadList(state.query)]
    }

    static func settle(_ state: inout DashboardState) {
        state.list.rows.scroll = shownScroll(state)
    }

    /// The first row shown at the state's size.
    static func shownScroll(_ state: DashboardState) -> Int {
        state.list.rows.shownScroll(count: state.list.loaded?.issues.count ?? 0, visible: ListLayout(size: state.size).visibleIssues)
    }

    /// Selects a row, clamped to the list.
    static func select(_ index: Int, _ state: inout DashboardState) {
        let count = state.list.loaded?.issues.count ?? 0
        state.list.rows.select(index, count: count, visible: ListLayout(size: state.size).visibleIssues)
        state.list.selectedKey = state.list.selectedIssue?.key
    }

    /// Opens the selected issue's detail.
    static func open(_ state: inout DashboardState) -> [DashboardEffect] {
        guard let issue = state.list.selectedIssue else { return [] }
        state.screens.append(.detail)
        return DetailScreen.show(issue.key, &state)
    }

    /// The filter prompt's text changed: a query filters the list as it is typed; text that is
    /// not one (yet) shows why, and the list shows what it showed before the prompt, not a
    /// half-typed word's matches.
    static func filterEdited(_ prompt: Prompt, _ state: inout DashboardState) -> [DashboardEffect] {
        do {
            _ = try SearchQuery.parse(prompt.text)
            state.prompt?.error = nil
            return state.changeQuery { $0.text = prompt.text }
        } catch {
            state.prompt?.error = error.description
            return state.query.text == prompt.original ? [] : state.changeQuery { $0.text = prompt.original }
        }
    }

    /// Esc in the filter prompt: the filter it opened with comes back.
    static func filterCancelled(_ prompt: Prompt, _ state: inout DashboardState) -> [DashboardEffect] {
        state.query.text == prompt.original ? [] : state.changeQuery { $0.text = prompt.original }
    }

    /// Takes a loaded list, keeping the selection on the same issue when it is still there.
    /// After a change of query (no selected key) the selection is the top row, and a list loaded for
    /// the query before the change does not pick the key for the one asked for. Anchored to the
    /// data, a list counted to an older end (new events came in) is asked again.
    static func loaded(_ newList: IssueList, _ state: inout DashboardState) -> [DashboardEffect] {
        state.list.loaded = newList
        state.loading = false
        if let end = newList.latestEvent { state.dataEnd = end }
        let current = newList.query == state.query
        if let key = state.list.selectedKey, let index = newList.issues.firstIndex(where: { $0.key == key }) {
            state.list.rows.selected = index
        } else {
            state.list.rows.selected = state.list.rows.selected.clampedRow(count: newList.issues.count)
            if current || state.list.selectedKey != nil { state.list.selectedKey = state.list.selectedIssue?.key }
        }
        state.settleScrolling()
        if state.anchoredToData, let end = newList.latestEvent, end != newList.now, current { return state.reloadEffects() }
        return []
    }

    /// Refits the columns when what they were fitted for changed (run after every action).
    static func refit(_ state: inout DashboardState) {
        guard let issues = state.list.loaded?.issues, !issues.isEmpty else {
            state.list.fitted = nil
            return
        }
        let key = FittedColumns.Key(issues: issues, mode: state.query.mode, width: state.size.cols, unicode: state.unicode,
                                    visible: visibleRange(state, size: state.size))
        if state.list.fitted?.key != key { state.list.fitted = FittedColumns(key: key) }
    }

    /// The rows on screen at a size, whose keys are told apart.
    static func visibleRange(_ state: DashboardState, size: Size) -> Range<Int> {
        let visible = ListLayout(size: size).visibleIssues
        let scroll = state.list.rows.shownScroll(count: state.list.loaded?.issues.count ?? 0, visible: visible)
        return scroll..<(scroll + visible)
    }

    /// The columns for the rows as drawn at a size: the fitted ones when they were fitted for them.
    static func columns(_ state: DashboardState, size: Size) -> ListColumns {
        let key = FittedColumns.Key(issues: state.list.loaded?.issues ?? [], mode: state.query.mode, width: size.cols,
                                    unicode: state.unicode, visible: visibleRange(state, size: size))
        if let fitted = state.list.fitted, fitted.key == key { return fitted.columns }
        return FittedColumns(key: key).columns
    }
}

extension ListScreen {
    /// `J`: the picked issues and the selected one become one group under the first seen of them
    /// (which keeps the long-term key), as `errtriage merge` makes it.
    static func merge(_ state: inout DashboardState) -> [DashboardEffect] {
        guard !state.readOnly else { return state.refuseReadOnly() }
        guard let list = state.list.loaded, let selected = state.list.selectedIssue else { return [] }
        let keys = state.list.picked.union([selected.key])
        guard keys.count >= 2 else {
            state.message = StatusMessage("Pick the issues to merge with Space first, then J on one of them.", isError: true)
            return []
        }
        let issues = list.issues.filter { keys.contains($0.key) }.sorted { ($0.firstSeen, $0.key) < ($1.firstSeen, $1.key) }
        guard issues.count == keys.count else {
            state.message = StatusMessage("A picked issue is not in the list any more; pick again.", isError: true)
            state.list.picked = []
            return []
        }
        state.message = StatusMessage("Merging \(issues.count) issues into \(issues[0].key)…")
        return [.load(Merge(keys: issues.map(\.key)))]
    }

    /// The store merged them: the list is read again, and a rule that would take later issues
    /// like these is offered (`GroupingRule.suggestion`), named after the group's key's ends.
    static func merged(head: String, keys: [String], _ state: inout DashboardState) -> [DashboardEffect] {
        state.list.picked = []
        state.list.selectedKey = head
        let chains = keys.compactMap { key in state.list.loaded?.issues.first { $0.key == key }.map { (key: key, chain: $0.chain) } }
        state.message = StatusMessage("Merged \(keys.count - 1) into \(head).", ticksLeft: 10)
        if let query = GroupingRule.suggestion(for: chains) {
            // Named by the group's outermost and root links, which the rule keeps (`ap63478-es56620`).
            let links = head.lowercased().split(separator: "-")
            let name = links.count > 2 ? "\(links.first!)-\(links.last!)" : head.lowercased()
            state.prompt = Prompt(purpose: .rule(head: head), suggesting: name + " " + query)
        }
        return state.reloadEffects()
    }

    /// The rule prompt's text: a name, then a query a rule can hold to.
    static func submitRule(_ prompt: Prompt, text: String, _ state: inout DashboardState) -> [DashboardEffect] {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return state.reopen(prompt, because: "a name, then the query: coupon-missing message:\"load coupon *\"") }
        do {
            let query = try SearchQuery.parse(parts[1])
            if let why = GroupingRule.refusal(of: query) { return state.reopen(prompt, because: why) }
        } catch {
            return state.reopen(prompt, because: error.description)
        }
        state.message = StatusMessage("Making rule \(parts[0])…")
        return [.load(AddRule(name: parts[0], query: parts[1]))]
    }

    /// The store made the rule.
    static func ruleAdded(_ preview: GroupingPreview, _ state: inout DashboardState) -> [DashboardEffect] {
        let head = preview.taken.first { $0.role == .head }?.key
        state.message = StatusMessage("Rule \(preview.name): \(preview.taken.count) issues under \(head ?? "the first that matches"); "
            + "new issues that match join it (errtriage rule rm \(preview.name) undoes it).", ticksLeft: 15)
        return state.reloadEffects()
    }
}

/// What the list asks of the store, and how each answer lands.
extension ListScreen {
    /// The issues a query lets through.
    public struct Load: StoreLoad {
        public var query: IssueQuery
        public func perform(_ context: StoreContext) throws -> Loaded {
            Loaded(list: try context.store.issueList(query, now: context.now))
        }
    }

    public struct Loaded: StoreAnswer {
        public var list: IssueList
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { ListScreen.loaded(list, &state) }
    }

    /// `J`: issues into one group under the first key.
    public struct Merge: StoreLoad {
        public var keys: [String]
        public var writes: Bool { true }
        public func perform(_ context: StoreContext) throws -> Merged {
            Merged(head: keys[0], keys: keys, receipt: try context.store.merge(keys, into: keys[0], by: context.user, at: context.now))
        }
    }

    /// The store merged them; the receipt, where it gave one, is what `u` takes back.
    public struct Merged: StoreAnswer {
        public var head: String
        public var keys: [String]
        public var receipt: MergeReceipt?
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            if let receipt { state.marks.undoable.append(.merge(receipt)) }
            return ListScreen.merged(head: head, keys: keys, &state)
        }
    }

    /// A grouping rule, as offered after a merge.
    public struct AddRule: StoreLoad {
        public var name: String
        public var query: String
        public var writes: Bool { true }
        public func perform(_ context: StoreContext) throws -> RuleAdded {
            RuleAdded(preview: try context.store.addGroupingRule(query: query, name: name, by: context.user, at: context.now))
        }
    }

    public struct RuleAdded: StoreAnswer {
        public var preview: GroupingPreview
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { ListScreen.ruleAdded(preview, &state) }
    }
}

extension DashboardEffect {
    /// The list's load.
    public static func loadList(_ query: IssueQuery) -> Self { .load(ListScreen.Load(query: query)) }
}

extension DashboardAction {
    /// The list's answer.
    public static func listLoaded(_ list: IssueList) -> Self { .answer(ListScreen.Loaded(list: list)) }
    /// The merge's answer.
    public static func merged(head: String, keys: [String], receipt: MergeReceipt? = nil) -> Self {
        .answer(ListScreen.Merged(head: head, keys: keys, receipt: receipt))
    }
    /// The rule's answer.
    public static func ruleAdded(_ preview: GroupingPreview) -> Self { .answer(ListScreen.RuleAdded(preview: preview)) }
}
