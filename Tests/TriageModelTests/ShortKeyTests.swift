import PropertyBased
import TestSupport
import Testing
@testable import TriageModel

@Suite("ShortKey.parse and printing")
struct ShortKeyTests {
    @Test func parsesEachLinkIntoShortNameAndCode() throws {
        let codes = try ShortKey.parse("US14-LO43-AP7-NE8")
        #expect(codes == [
            ShortKey.Code(short: "US", code: 14),
            ShortKey.Code(short: "LO", code: 43),
            ShortKey.Code(short: "AP", code: 7),
            ShortKey.Code(short: "NE", code: 8),
        ])
    }

    @Test func printsAParsedKeyBackUnchanged() throws {
        let codes = try ShortKey.parse("US14-LO43-AP7-NE8")
        let chain = ErrorChain(links: codes.map { ChainLink(short: $0.short, code: $0.code) })
        #expect(chain.shortKey == "US14-LO43-AP7-NE8")
        #expect(ShortKey.canonical("US14-LO43-AP7-NE8") == "US14-LO43-AP7-NE8")
    }

    @Test func writesANegativeCodeWithLowercaseNForTheMinus() {
        #expect(ShortKey.encode(code: -1009) == "n1009")
        #expect(ChainLink(short: "NS", code: -1009).shortCode == "NSn1009")
    }

    @Test func readsLowercaseNAsAMinus() throws {
        #expect(try ShortKey.parse("NSn1009") == [ShortKey.Code(short: "NS", code: -1009)])
    }

    @Test func negativeAndPositiveCodesRoundTripWithoutAmbiguity() throws {
        let key = "US14-NSn1009-NS1009-NE0"
        let codes = try ShortKey.parse(key)
        #expect(codes.map(\.code) == [14, -1009, 1009, 0])
        #expect(codes.map(\.short) == ["US", "NS", "NS", "NE"])
        #expect(ShortKey.canonical(key) == key)
    }

    @Test(arguments: [Int.max, Int.min, Int.min + 1, 1_000_000_000_000, -1_000_000_000_000, 4_294_967_296])
    func anyCodeThatALinkPrintsReadsBack(_ code: Int) throws {
        let printed = ChainLink(short: "NS", code: code).shortCode
        #expect(try ShortKey.parse(printed) == [ShortKey.Code(short: "NS", code: code)])
    }

    @Test func everyIntCodeRoundTrips() async {
        await propertyCheck(count: 300, input: ChainGen.short, Gen.int()) { short, code in
            guard let codes = recordingErrors({ try ShortKey.parse(ChainLink(short: short, code: code).shortCode) })
            else { return }
            #expect(codes == [ShortKey.Code(short: short, code: code)])
        }
    }

    @Test func rejectsACodeTooLargeForAnInt() {
        #expect(throws: ChainError.badShortCode("NS9223372036854775808")) { try ShortKey.parse("NS9223372036854775808") }
        #expect(throws: ChainError.badShortCode("NSn9223372036854775809")) { try ShortKey.parse("NSn9223372036854775809") }
    }

    @Test(arguments: ["US", "14", "US14-", "us14", "US-14", ""])
    func rejectsABadKey(_ key: String) {
        #expect(throws: ChainError.self) { try ShortKey.parse(key) }
    }

    @Test func rejectsAnEmptyKeyAsEmpty() {
        #expect(throws: ChainError.empty) { try ShortKey.parse("") }
    }

    @Test func namesTheBadLinkInTheError() {
        #expect(throws: ChainError.badShortCode("lo43")) { try ShortKey.parse("US14-lo43") }
    }

    @Test func givesBackTheCodesOfAnyGeneratedChain() async {
        await propertyCheck(count: 200, input: ChainGen.chain) { chain in
            guard let codes = recordingErrors({ try ShortKey.parse(chain.shortKey) }) else { return }
            #expect(codes.map(\.short) == chain.links.map(\.short))
            #expect(codes.map(\.code) == chain.links.map(\.code))
        }
    }
}

@Suite("ShortKey.find(in:)")
struct ShortKeyFindTests {
    @Test func findsAKeyCitedTwiceOnlyOnce() {
        #expect(ShortKey.find(in: "got error US14-LO43-AP7-NE8 again (US14-LO43-AP7-NE8)") == ["US14-LO43-AP7-NE8"])
    }

    @Test func findsTwoDifferentKeysInOrder() {
        let text = "first LO43-AP7-NE8, then US14-LO43-AP7-NE8 and LO43-AP7-NE8 again"
        #expect(ShortKey.find(in: text) == ["LO43-AP7-NE8", "US14-LO43-AP7-NE8"])
    }

    @Test(arguments: ["updated to iOS17 yesterday", "served over HTTP2", "the app keeps crashing on login", ""])
    func findsNothingInTextWithoutKeys(_ text: String) {
        #expect(ShortKey.find(in: text) == [])
    }

    @Test func findsAKeyAtTheStartOfText() {
        #expect(ShortKey.find(in: "US14-LO43 happened") == ["US14-LO43"])
    }

    @Test func findsAKeyAtTheEndOfText() {
        #expect(ShortKey.find(in: "it said US14-LO43") == ["US14-LO43"])
    }

    @Test(arguments: ["code: US14-LO43.", "\"US14-LO43\"", "[US14-LO43]", "(US14-LO43),", "US14-LO43!", "US14-LO43?"])
    func findsAKeyNextToPunctuation(_ text: String) {
        #expect(ShortKey.find(in: text) == ["US14-LO43"])
    }

    @Test func findsAKeyWithANegativeCode() {
        #expect(ShortKey.find(in: "offline again: US14-NSn1009") == ["US14-NSn1009"])
        #expect(ShortKey.find(in: "error NSn1009 when offline") == ["NSn1009"])
    }
}
