import Testing
import TriageModel

/// What one event may bring to the store (`EventBounds`): a chain past 100 links keeps its 50
/// outermost and 50 innermost and says how many it left out; 1,000 tags keep the 50 the rollup
/// counts, their values cut as it cuts them, and say how many were left out — counted exactly as
/// before the bound.
@Suite struct EventBoundsTests {
    static func chain(_ count: Int) -> ErrorChain {
        ErrorChain(links: (0..<count).map { ChainLink(domain: "Layer\($0)Error", short: "LA", code: $0, name: "failed\($0)") })
    }

    @Test func aChainPastTheBoundKeepsItsEnds() {
        var event = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(4000))
        event.bound()
        #expect(event.chain.links.count == 100)
        #expect(event.chain.links.prefix(50).map(\.code) == Array(0..<50))
        #expect(event.chain.links.suffix(50).map(\.code) == Array(3950..<4000))
        #expect(event.customKeys.map(\.key) == [EventBounds.chainLinksLeftOutKey] && event.customKeys.first?.value == "3900")
        // Bounded again, it is the same.
        let once = event
        event.bound()
        #expect(event == once && event.customKeys.count == 1)
        for count in [1, 99, 100] {
            var within = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(count))
            within.bound()
            #expect(within.chain.links.count == count && within.customKeys.isEmpty)
        }
        var past = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(101))
        past.bound()
        #expect(past.chain.links.count == 100 && past.customKeys.first?.value == "1")
    }

    @Test func aThousandTagsKeepTheFiftyCountedAndSaySo() {
        let tags = (0..<1000).map { (key: "k\($0)", value: String(repeating: "v", count: 300)) }
        let own = [(key: "exception_chain", value: "A.a - B.b")]
        let odd = [(key: "", value: "x"), (key: String(repeating: "é", count: 40), value: "y"), (key: "empty", value: "")]
        var event = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(1), customKeys: odd + own + tags)
        let counted = EventFacets.pairs(of: event)
        event.bound()
        #expect(event.customKeys.count == 52, "own key, 50 tags, the count left out")
        // The key of 40 characters (80 bytes, no facet as it came) is cut to 32 (64 bytes) and counted first.
        #expect(event.customKeys.first?.key == String(repeating: "é", count: 32))
        #expect(event.customKeys.dropFirst().first?.key == "exception_chain")
        #expect(event.customKeys.dropFirst(2).prefix(49).map(\.key) == (0..<49).map { "k\($0)" })
        #expect(event.customKeys.dropFirst(2).prefix(49).allSatisfy { $0.value.count == EventFacets.maxValueLength })
        #expect(event.customKeys.last?.key == EventBounds.tagsLeftOutKey && event.customKeys.last?.value == "953")
        let after = EventFacets.pairs(of: event)
        #expect(after.map(\.facet) == [EventFacets.tagFacet(String(repeating: "é", count: 32))] + counted.prefix(49).map(\.facet))
        #expect(after.dropFirst().map(\.value) == counted.prefix(49).map(\.value))
        // Fifty short tags are left as they are.
        var few = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(1), customKeys: Array(tags.prefix(50)).map { ($0.key, "v") })
        let before = few.customKeys.map(\.key)
        few.bound()
        #expect(few.customKeys.map(\.key) == before)
    }

    /// Keys past 32 characters are cut to them, the first of two that cut the same kept; a
    /// sender's own `tags.folded` is not taken (errtriage's key), and an event errtriage folded
    /// is counted under the folded facet, once.
    @Test func longKeysAreCutAndTheFoldedKeyIsErrtriagesOwn() {
        let long = String(repeating: "a", count: 32)
        var event = ErrorEvent(eventID: "e", timestamp: Timestamp(millis: 0), chain: Self.chain(1),
                               customKeys: [(long + "-one", "1"), (long + "-two", "2"), (EventBounds.tagsFoldedKey, "9"), ("short", "s")])
        event.bound()
        #expect(event.customKeys.map(\.key) == [long, "short", EventBounds.tagsLeftOutKey])
        #expect(event.customKeys.map(\.value) == ["1", "s", "1"])
        #expect(!EventFacets.pairs(of: event).contains { $0.facet == EventFacets.foldedFacet })
        let folded = EventFacets.pairs(customKeys: [("short", "s"), (EventBounds.tagsFoldedKey, "3")], facets: [])
        #expect(folded.map(\.facet) == ["tag:short", EventFacets.foldedFacet] && folded.last?.value == EventFacets.foldedValue)
    }

    /// Steps 4 and 5 resumed where the last derivation stopped give the same names as derived
    /// afresh, without trying every name taken before.
    @Test func aResumedDerivationGivesTheSameNames() {
        #expect(DomainShortName.extended("SI", 0) == "SIA" && DomainShortName.extended("SI", 25) == "SIZ")
        #expect(DomainShortName.extended("SI", 26) == "SIAA" && DomainShortName.extended("SI", 26 + 26 * 26) == "SIAAA")
        #expect(DomainShortName.extended("SI", 26 + 676 + 17_576 + 456_976 + 11_881_376 + 308_915_776) == nil)
        var taken = Set<String>()
        var cursor = 0
        var tries = 0
        for n in 0..<3000 {
            let domain = "Layer\(n)Error"
            let fresh = DomainShortName.derive(domain) { taken.contains($0) }
            let (resumed, index) = DomainShortName.derive(domain, isTaken: { tries += 1; return taken.contains($0) }, extendedFrom: cursor)
            #expect(resumed == fresh, "\(domain)")
            if let index { cursor = index }
            taken.insert(resumed)
        }
        #expect(tries < 3000 * 10, "\(tries) tries for 3,000 domains of one first candidate")
    }
}
