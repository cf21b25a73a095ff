@testable import DashboardCore
import Testing
import TriageModel

/// Keys that fit the list: derived codes make long keys, and from 80 columns up the counts and
/// the trend stay while a long key is cut in the middle (its outermost and root links kept).
@Suite struct LongKeyTests {
    static func link(_ domain: String, _ short: String, _ code: Int, _ name: String) -> ChainLink {
        ChainLink(domain: domain, short: short, code: code, name: name, origin: .derived)
    }

    /// A Go service's chains: pkg/errors wrappers with derived codes, and two coupons' issues whose
    /// keys differ only in the middle.
    static let issues: [IssueSummary] = [
        Fixtures.issue(ErrorChain(links: [
            link("UserError", "US", 9, "actionFailed"), link("*errors.withStack", "WS", 32184, "load profile"),
            link("*errors.withMessage", "WM", 74654, "read row"), link("APIError", "AP", 12, "getProfileFailed"),
            link("NetworkError", "NE", 29, "responseValidationFailed"),
        ]), .open, events: 812, users: 301, complaints: 7, versions: ("2.1.0", "2.3.0"), series: [90, 100, 120, 118, 130, 125, 129]),
        Fixtures.issue(ErrorChain(links: [
            link("APIError", "AP", 63478, "checkout"), link("*fmt.wrapError", "WR", 51601, "load coupon SAVE10: not found"),
            link("*errors.errorString", "ES", 56620, "not found"),
        ]), .open, events: 240, users: 180, complaints: 2, versions: ("2.3.0", "2.3.0"), series: [0, 0, 10, 40, 60, 60, 70],
           signals: [.new]),
        Fixtures.issue(ErrorChain(links: [
            link("APIError", "AP", 63478, "checkout"), link("*fmt.wrapError", "WR", 51687, "load coupon XMAS24: not found"),
            link("*errors.errorString", "ES", 56620, "not found"),
        ]), .open, events: 95, users: 80, complaints: 0, versions: ("2.3.0", "2.3.0"), series: [0, 0, 0, 5, 20, 30, 40],
           signals: [.new]),
        Fixtures.login, Fixtures.sync,
    ]

    static func state(_ size: Size) -> DashboardState { Fixtures.loadedState(size, issues: issues) }

    @Test(arguments: [80, 90, 100, 120, 140, 160, 200])
    func fromEightyColumnsUpTheCountsAndTheTrendStay(_ cols: Int) {
        let size = Size(rows: 24, cols: cols)
        let lines = render(Self.state(size), size: size).lines
        for heading in ["KEY", "TITLE", "EVENTS", "USERS", "COMPL", "TREND", "STAT"] {
            #expect(lines[2].contains(heading), "at \(cols): \(lines[2])")
        }
        let rows = lines[3..<8].map { String($0) }
        // Each row names its outermost and root links, and no two read the same.
        for (issue, row) in zip(Self.issues, rows) {
            let links = issue.key.split(separator: "-")
            #expect(row.contains(String(links.first!)) && row.contains(String(links.last!)), "at \(cols): \(row)")
        }
        #expect(Set(rows.map { $0.dropFirst(6).prefix(30) }).count == rows.count, "at \(cols): \(rows)")
    }

    @Test func theKeyIsCutInTheMiddleAndTheSlashAndShowTakeItWhole() {
        let size = Size(rows: 24, cols: 80)
        var state = Self.state(size)
        let screen = render(state, size: size)
        let rows = screen.lines[3..<8]
        #expect(!rows.contains { $0.contains("US9-WS32184-WM74654-AP12-NE29") })
        #expect(rows.contains { $0.contains("US9-WS32184") && $0.contains("…NE29") })
        // The selected row's key, whole, in the status line: what / and show take.
        #expect(screen.lines.last?.contains("US9-WS32184-WM74654-AP12-NE29") == true)
        _ = reduce(&state, .key(.char("/")))
        for c in "key:US9-WS32184-WM74654-AP12-NE29" { _ = reduce(&state, .key(.char(c))) }
        #expect(state.query.search.terms.first?.values.first?.text == "US9-WS32184-WM74654-AP12-NE29")
    }

    @Test func longDerivedKeysAt80x24() {
        let size = Size(rows: 24, cols: 80)
        expectSnapshot(render(Self.state(size), size: size), "list-long-keys-80x24")
    }

    @Test func longDerivedKeysAt120x40() {
        let size = Size(rows: 40, cols: 120)
        expectSnapshot(render(Self.state(size), size: size), "list-long-keys-120x40")
    }

    @Test func longDerivedKeysAt200x60() {
        let size = Size(rows: 60, cols: 200)
        expectSnapshot(render(Self.state(size), size: size), "list-long-keys-200x60")
    }
}

/// The dashboard's merge: `Space` picks issues, `J` merges them into the first seen, and a rule
/// that would take later ones like them is offered.
@Suite struct DashboardMergeTests {
    static func picked(_ size: Size = Size(rows: 24, cols: 80)) -> DashboardState {
        var state = LongKeyTests.state(size)
        _ = reduce(&state, .key(.down))          // the first coupon
        _ = reduce(&state, .key(.char(" ")))
        _ = reduce(&state, .key(.down))          // the second, selected
        return state
    }

    @Test func spacePicksAndJMergesIntoTheFirstSeen() {
        var state = Self.picked()
        #expect(state.list.picked == [LongKeyTests.issues[1].key])
        let effects = reduce(&state, .key(.char("J")))
        // Both were first seen at the same time: the key orders them.
        let keys = [LongKeyTests.issues[1].key, LongKeyTests.issues[2].key].sorted()
        #expect(effects == [.load(ListScreen.Merge(keys: keys))])
    }

    @Test func jWithNothingPickedSaysHow() {
        var state = LongKeyTests.state(Size(rows: 24, cols: 80))
        #expect(reduce(&state, .key(.char("J"))).isEmpty)
        #expect(state.message?.text.contains("Space") == true)
    }

    @Test func aReadOnlyStoreMergesNothing() {
        var state = Fixtures.loadedState(readOnly: true, issues: LongKeyTests.issues)
        _ = reduce(&state, .key(.char(" ")))
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.char("J"))).isEmpty)
        #expect(state.message?.isError == true)
    }

    @Test func theMergeOffersARuleThatTakesLaterOnesAndEnterMakesIt() {
        var state = Self.picked()
        let keys = [LongKeyTests.issues[1].key, LongKeyTests.issues[2].key].sorted()
        _ = reduce(&state, .key(.char("J")))
        let effects = reduce(&state, .merged(head: keys[0], keys: keys))
        #expect(effects.contains(.loadList(state.query)))
        #expect(state.list.picked.isEmpty)
        let prompt = try! #require(state.prompt)
        #expect(prompt.purpose == .rule(head: keys[0]))
        let text = prompt.text
        #expect(text.hasPrefix("ap63478-es56620 "))
        // The query holds to what the coupons share, and would take a coupon no one has seen yet.
        let query = try! GroupingRule.parse(String(text.split(separator: " ", maxSplits: 1)[1]))
        let next = ErrorChain(links: [
            LongKeyTests.link("APIError", "AP", 63478, "checkout"), LongKeyTests.link("*fmt.wrapError", "WR", 40001, "load coupon SPRING: not found"),
            LongKeyTests.link("*errors.errorString", "ES", 56620, "not found"),
        ])
        #expect(query.admits(chain: next, key: next.shortKey))
        #expect(!query.admits(chain: Fixtures.loginChain, key: Fixtures.loginChain.shortKey))
        expectSnapshot(render(state, size: state.size), "list-rule-offer-80x24")
        let made = reduce(&state, .key(.enter))
        #expect(made == [.load(ListScreen.AddRule(name: "ap63478-es56620", query: String(text.split(separator: " ", maxSplits: 1)[1])))])
    }

    @Test func aRuleTheStoreCannotHoldToIsRefusedInThePrompt() {
        var state = Self.picked()
        state.prompt = Prompt(purpose: .rule(head: "AP63478-WR51601-ES56620"), text: "coupon events:>3")
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt?.error?.contains("counts over issues") == true)
        state.prompt = Prompt(purpose: .rule(head: "AP63478-WR51601-ES56620"), text: "coupon")
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt?.error != nil)
    }

    @Test func escLeavesThemMergedWithoutARule() {
        var state = Self.picked()
        _ = reduce(&state, .merged(head: "AP63478-WR51601-ES56620", keys: ["AP63478-WR51601-ES56620", "AP63478-WR51687-ES56620"]))
        #expect(reduce(&state, .key(.escape)).isEmpty)
        #expect(state.prompt == nil)
        #expect(state.message?.text.hasPrefix("No rule") == true)
    }

    @Test func uTakesTheMergeBackAsItTakesBackAMark() {
        var state = Self.picked()
        let keys = ["AP63478-WR51601-ES56620", "AP63478-WR51687-ES56620"]
        let receipt = MergeReceipt(head: keys[0], moved: [.init(key: keys[1], formerHead: nil)])
        _ = reduce(&state, .merged(head: keys[0], keys: keys, receipt: receipt))
        _ = reduce(&state, .key(.escape))
        #expect(state.marks.undoable == [.merge(receipt)])
        #expect(state.marks.undoStack.isEmpty, "no mark among them")
        #expect(reduce(&state, .key(.char("u"))) == [.load(Marks.UndoMerge(receipt: receipt))])
        #expect(state.marks.undoable.isEmpty)
        #expect(state.message?.text.hasPrefix("Undoing: the merge of 1 into AP63478-WR51601-ES56620") == true)
        let effects = reduce(&state, .mergeUndone(receipt, restored: [keys[1]]))
        #expect(effects.contains(.loadList(state.query)))
        #expect(state.message?.text == "Undid: the merge into AP63478-WR51601-ES56620, AP63478-WR51687-ES56620 stands as before")
        expectSnapshot(render(state, size: state.size), "list-merge-undone-80x24")
        #expect(reduce(&state, .key(.char("u"))).isEmpty)
        #expect(state.message?.text == "Nothing to undo.")
    }

    @Test func aMergeWhoseIssuesMovedSinceIsSkippedAndTheMarkBeforeItUndone() {
        var state = Self.picked()
        let mark = MarkReceipt(key: "AP63478-WR51601-ES56620", mark: .status(.muted, version: nil), previousStatus: .open,
                               previousVersion: nil, previousTracker: nil, noteID: nil)
        _ = reduce(&state, .marked(mark))
        let receipt = MergeReceipt(head: "AP63478-WR51601-ES56620", moved: [.init(key: "AP63478-WR51687-ES56620", formerHead: nil)])
        _ = reduce(&state, .merged(head: receipt.head, keys: [receipt.head] + receipt.moved.map(\.key), receipt: receipt))
        _ = reduce(&state, .key(.escape))
        #expect(reduce(&state, .key(.char("u"))) == [.load(Marks.UndoMerge(receipt: receipt))])
        #expect(reduce(&state, .mergeUndone(receipt, restored: [])) == [.undo(mark)])
        _ = reduce(&state, .undone(mark))
        #expect(state.message?.text.hasPrefix("Skipped the merge into AP63478-WR51601-ES56620 (its issues were moved since); Undid:") == true)
    }

    @Test func theRuleMadeIsSaidAndTheListReloads() {
        var state = Self.picked()
        let preview = GroupingPreview(name: "coupon", query: "key:AP63478-*", issues: [
            .init(key: "AP63478-WR51601-ES56620", chain: LongKeyTests.issues[1].chain, events: 240, role: .head),
            .init(key: "AP63478-WR51687-ES56620", chain: LongKeyTests.issues[2].chain, events: 95, role: .joins),
        ])
        #expect(reduce(&state, .ruleAdded(preview)) == [.loadList(state.query)])
        #expect(state.message?.text.hasPrefix("Rule coupon: 2 issues under AP63478-WR51601-ES56620") == true)
    }

    @Test func aPickedRowShowsItsMarkAt80x24() {
        let state = Self.picked()
        expectSnapshot(render(state, size: state.size), "list-picked-80x24")
    }
}
