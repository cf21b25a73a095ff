import Testing
import TriageModel

@Suite struct MergeRuleTests {
    static func link(_ domain: String, _ short: String, _ code: Int) -> ChainLink {
        ChainLink(domain: domain, short: short, code: code, name: "n\(code)")
    }
    static let user = link("UserError", "US", 9), interactor = link("InteractorError", "IN", 240)
    static let repository = link("RepositoryError", "RE", 3), api = link("TolokaAPIError", "TA", 120), http = link("HTTPError", "HT", 429)

    static func issue(_ links: [ChainLink], _ first: String?, _ last: String?, events: Int = 10) -> MergeCandidate {
        let chain = ErrorChain(links: links)
        return MergeCandidate(key: chain.shortKey, chain: chain, firstVersion: first, lastVersion: last, events: events)
    }

    @Test func aLayerInsertedBetweenTheSameOuterAndRootIsFound() {
        let before = ErrorChain(links: [Self.user, Self.interactor, Self.api, Self.http])
        let after = ErrorChain(links: [Self.user, Self.interactor, Self.repository, Self.api, Self.http])
        #expect(MergeRule.insertedLayer(before, after) == Self.repository)
        #expect(MergeRule.insertedLayer(after, before) == nil)
        // A new outer layer changes what the user saw: not the same problem by this rule.
        let wrapped = ErrorChain(links: [Self.repository, Self.user, Self.interactor, Self.api, Self.http])
        #expect(MergeRule.insertedLayer(before, wrapped) == nil)
    }

    @Test func theSameCodesUnderARenamedDomainAreFound() {
        let old = ErrorChain(links: [Self.user, Self.api, Self.http])
        let renamed = ErrorChain(links: [Self.user, Self.link("TolokaApiError", "TP", 120), Self.http])
        #expect(MergeRule.renamedDomain(old, renamed)! == ("TolokaAPIError", "TolokaApiError"))
        let otherCode = ErrorChain(links: [Self.user, Self.link("TolokaApiError", "TP", 121), Self.http])
        #expect(MergeRule.renamedDomain(old, otherCode) == nil)
    }

    @Test func aChainThatTakesOverInTheNextVersionWithTheSameEndsIsSuggested() {
        let a = Self.issue([Self.user, Self.api, Self.http], "1.9", "1.11")
        let b = Self.issue([Self.user, Self.interactor, Self.link("CacheError", "CA", 3), Self.http], "1.12", "1.13")
        let late = Self.issue([Self.user, Self.link("GeoError", "GE", 5), Self.http], "1.13", "1.13")
        let suggestions = MergeRule.suggest([a, b, late], versions: ["1.9", "1.10", "1.11", "1.12", "1.13"])
        #expect(suggestions.map { [$0.older.key, $0.newer.key] } == [[a.key, b.key]])
        #expect(suggestions.first?.reasons == [.succeeds(lastVersion: "1.11", firstVersion: "1.12")])
    }

    @Test func structuralReasonsComeFirstAndTheOlderIssueLeads() {
        let before = Self.issue([Self.user, Self.interactor, Self.api, Self.http], "1.7", "1.12", events: 5)
        let after = Self.issue([Self.user, Self.interactor, Self.repository, Self.api, Self.http], "1.13", "1.13", events: 3)
        let a = Self.issue([Self.user, Self.link("CacheError", "CA", 3), Self.http], "1.7", "1.11", events: 500)
        let b = Self.issue([Self.user, Self.link("GeoError", "GE", 5), Self.http], "1.12", "1.13", events: 500)
        let suggestions = MergeRule.suggest([after, a, b, before], versions: ["1.7", "1.11", "1.12", "1.13"])
        #expect(suggestions.first?.older.key == before.key)
        #expect(suggestions.first?.newer.key == after.key)
        #expect(suggestions.first?.reasons == [.layerAdded(Self.repository), .succeeds(lastVersion: "1.12", firstVersion: "1.13")])
        #expect(suggestions.count == 2)
    }

    @Test func unrelatedChainsAreNeverPaired() {
        let a = Self.issue([Self.user, Self.api, Self.http], "1.7", "1.13")
        let b = Self.issue([Self.interactor, Self.link("GeoError", "GE", 5)], "1.7", "1.13")
        #expect(MergeRule.suggest([a, b], versions: ["1.7", "1.13"]).isEmpty)
    }
}
