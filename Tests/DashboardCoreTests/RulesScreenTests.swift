@testable import DashboardCore
import Testing
import TriageModel

/// `F`: the grouping rules screen, one rule a row, and Enter opening the issue a rule gathers under.
@Suite struct RulesScreenTests {
    static let at = Timestamp.parse("2026-11-20T09:00:00Z")!
    static let rules = [
        GroupingRule(number: 1, name: "coupon", query: #"message:"load coupon *: not found""#, headKey: "CH3-WR51601-ES1", by: "ana", at: at),
        GroupingRule(number: 2, name: "timeouts-behind-the-gateway", query: "root:NetworkError.timeout outer:GatewayError.* domain:APIError",
                     headKey: nil, by: "ben", at: at),
    ]

    @Test func fOpensTheRulesAndLoadsThem() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("F"))) == [.load(RulesScreen.Load())])
        #expect(state.screen == .rules)
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: Self.rules)))
        #expect(state[RulesScreen.self].rules == Self.rules)
    }

    @Test func enterOpensTheIssueARuleGathersUnderAndEscapeComesBack() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("F")))
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: Self.rules)))
        #expect(reduce(&state, .key(.enter)) == [.loadDetail(key: "CH3-WR51601-ES1", window: state.query.window)])
        #expect(state.screen == .detail && state.detail.key == "CH3-WR51601-ES1")
    }

    @Test func aRuleNoIssueMatchedYetSaysSo() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("F")))
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: Self.rules)))
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.screen == .rules)
        #expect(state.message?.text.hasPrefix("No issue matches rule timeouts-behind-the-gateway yet") == true, "\(String(describing: state.message))")
    }

    @Test func theRulesFollowTheStoreAndKeepTheSelectedRule() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("F")))
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: Self.rules)))
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .storeChanged).contains(.load(RulesScreen.Load())))
        let added = GroupingRule(number: 0, name: "first", query: "root:DBError.locked", headKey: nil, by: "cy", at: Self.at)
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: [added] + Self.rules)))
        #expect(state[RulesScreen.self].rows.selected == 2)
        // Closed, it asks nothing.
        _ = reduce(&state, .key(.char("F")))
        #expect(state.screen == .list)
        #expect(!reduce(&state, .storeChanged).contains(.load(RulesScreen.Load())))
    }

    @Test func helpListsTheScreensKeysUnderItsOwnHeading() {
        let lines = HelpScreen.lines(for: .rules, unicode: true).map { $0.map(\.text).joined() }
        #expect(lines.first == "Keys on the grouping rules screen")
        #expect(lines.contains("  Grouping rules"))
        #expect(lines.contains { $0.contains("open the issue the rule gathers under") })
        #expect(HelpScreen.lines(for: .list, unicode: true).map { $0.map(\.text).joined() }.contains { $0.contains("grouping rules (errtriage rule add)") })
    }

    @Test func rulesAt80x24AndAt160x48() {
        for size in [Size(rows: 24, cols: 80), Size(rows: 48, cols: 160)] {
            var state = Fixtures.loadedState(size)
            _ = reduce(&state, .key(.char("F")))
            expectSnapshot(render(state, size: state.size), "rules-loading-\(size.cols)x\(size.rows)")
            _ = reduce(&state, .answer(RulesScreen.Loaded(rules: Self.rules)))
            _ = reduce(&state, .key(.down))
            expectSnapshot(render(state, size: state.size), "rules-\(size.cols)x\(size.rows)")
        }
    }

    @Test func noRulesSaysHowToMakeOne() {
        var state = Fixtures.loadedState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .key(.char("F")))
        _ = reduce(&state, .answer(RulesScreen.Loaded(rules: [])))
        expectSnapshot(render(state, size: state.size), "rules-none-80x24")
    }
}
