import Presentation
import Testing
import TriageModel

/// A chain's displays bounded whatever the chain (a store made before links were bounded may
/// hold 10,000): the ladder shows at most the 50 outermost and 50 innermost links with a line
/// for the rest, its indentation stops deepening, and the full form leaves the middle out.
@Suite struct ChainBoundsTextTests {
    @Test func aDeepChainsLadderAndFullFormAreBounded() {
        let chain = ErrorChain(links: (0..<10_000).map { ChainLink(domain: "Layer\($0)Error", short: "LA", code: $0, name: "failed") })
        #expect(ChainText.shown(10_000).count == 101 && ChainText.shown(10_000)[50] == nil && ChainText.shown(100) == Array(0..<100))
        let ladder = ChainText.ladder(key: "LA0-LA1", links: chain.links.map { (ShortKey.Code(short: $0.short, code: $0.code),
                                                                                   FullForm.Name(domain: $0.domain!, name: $0.name!), nil) })
        let lines = ladder.split(separator: "\n")
        #expect(lines.count == 102, "\(lines.count)")
        #expect(lines.contains { $0.contains("9,900 links left out") })
        #expect((lines.map { $0.prefix { $0 == " " }.count }.max() ?? 0) == 2 * ChainText.maxDepth)
        let full = ChainText.fullForm(chain)
        #expect(full.utf8.count < 5_000 && full.hasPrefix("Layer0Error.failed") && full.hasSuffix("Layer9999Error.failed"))
    }
}
