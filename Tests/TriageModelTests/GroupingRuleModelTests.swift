import Testing
@testable import TriageModel

/// What a grouping rule may say and what it matches, before any store.
@Suite struct GroupingRuleModelTests {
    static func coupon(_ code: String, wrapperCode: Int) -> ErrorChain {
        ErrorChain(links: [
            ChainLink(domain: "CheckoutError", short: "CH", code: 3, name: "applyCouponFailed"),
            ChainLink(domain: "*fmt.wrapError", short: "WR", code: wrapperCode, name: "load coupon \(code): not found"),
            ChainLink(domain: "*errors.errorString", short: "ES", code: 1, name: "not found"),
        ])
    }

    @Test(arguments: [
        ("load coupon *: not found", "load coupon SAVE10: not found", true),
        ("load coupon *", "load coupon SAVE10: not found", true),
        ("*not found", "load coupon SAVE10: not found", true),
        ("load * found", "load coupon SAVE10: not found", true),
        ("load coupon *: not found", "load coupon SAVE10: timed out", false),
        ("LOAD COUPON *", "load coupon x", true),
        ("load coupon", "load coupon SAVE10", false),
        ("a*b*a", "aba", true), ("a*b*a", "ab", false), ("*", "", true),
    ])
    func messageWordsMatchWithStarsAnywhere(_ pattern: String, _ text: String, _ matches: Bool) {
        #expect(SearchValue(pattern).matchesWords(text) == matches)
    }

    @Test func aTrailingUnquotedStarIsAPrefix() throws {
        let query = try SearchQuery.parse("message:load*")
        #expect(query.admits(chain: Self.coupon("X", wrapperCode: 10_001), key: "CH3-WR10001-ES1"))
    }

    @Test func aRuleTakesCodesAndWordsNeverSeenBefore() throws {
        let rule = GroupingRule(number: 1, name: "coupon", query: #"message:"load coupon *: not found""#, headKey: nil, by: "ana", at: Timestamp(millis: 0))
        for code in ["SAVE10", "XMAS24", "Ünïcödé", "a b c", ""] {
            let chain = Self.coupon(code, wrapperCode: MessageTemplate.derivedCode(domain: "*fmt.wrapError", name: code))
            #expect(rule.matches(chain: chain, key: chain.shortKey), "\(code)")
        }
        let other = ErrorChain(links: [ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")])
        #expect(!rule.matches(chain: other, key: "NE8"))
        #expect(GroupingRule.firstMatch([rule], chain: other, key: "NE8") == nil)
    }

    @Test(arguments: ["events:>1", "status:open", "env:production", "user:u1", "version:>=2", "tag:a=b", "-root:NE8", "-key:X* -domain:Y"])
    func aQueryARuleCannotHoldToIsRefused(_ text: String) throws {
        #expect(GroupingRule.refusal(of: try SearchQuery.parse(text)) != nil)
        #expect(throws: SearchQueryError.self) { try GroupingRule.parse(text) }
    }

    @Test(arguments: ["root:NE8", "key:US14-*", "domain:APIError -root:NE8", "outer:US14 message:timeout*", "timeout"])
    func aQueryAboutTheChainIsARule(_ text: String) throws {
        #expect(GroupingRule.refusal(of: try SearchQuery.parse(text)) == nil)
    }

    @Test func theSuggestionForMergedIssuesTakesThemAndTheNextLikeThemButNoOther() throws {
        let merged = [Self.coupon("SAVE10", wrapperCode: 51_601), Self.coupon("XMAS24", wrapperCode: 51_687)].map { (key: $0.shortKey, chain: $0) }
        let text = try #require(GroupingRule.suggestion(for: merged))
        #expect(text == #"key:CH3-* root:ES1 message:"load coupon *: not found""#)
        let query = try GroupingRule.parse(text)
        let next = Self.coupon("SPRING", wrapperCode: 40_001)
        #expect(query.admits(chain: next, key: next.shortKey))
        let unrelated = ErrorChain(links: [ChainLink(domain: "CheckoutError", short: "CH", code: 3, name: "applyCouponFailed"),
                                           ChainLink(domain: "*errors.errorString", short: "ES", code: 1, name: "not found")])
        #expect(!query.admits(chain: unrelated, key: unrelated.shortKey))
    }

    @Test func chainsThatShareNothingGetNoSuggestion() {
        let a = ErrorChain(links: [ChainLink(domain: "A", short: "AA", code: 1, name: "x")])
        let b = ErrorChain(links: [ChainLink(domain: "B", short: "BB", code: 2, name: "y")])
        #expect(GroupingRule.suggestion(for: [(a.shortKey, a), (b.shortKey, b)]) == nil)
        #expect(GroupingRule.suggestion(for: [(a.shortKey, a)]) == nil)
    }

    @Test func aUserIsFoundByEveryFormTheStoreKeepsOfIt() {
        let forms = UserIdentity.storedForms(of: "Ana@Example.com")
        #expect(forms.first == "Ana@Example.com")
        #expect(forms.contains(UserIdentity.hashed("email", "ana@example.com")))
        #expect(forms.contains(UserIdentity.hashed("email", "Ana@Example.com")))
        #expect(forms.contains(UserIdentity.hashed("username", "Ana@Example.com")))
        #expect(Set(forms).count == forms.count)
    }
}
