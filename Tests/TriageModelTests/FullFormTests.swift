import PropertyBased
import TestSupport
import Testing
@testable import ChainRules
@testable import TriageModel

@Suite("FullForm.parse")
struct FullFormTests {
    static let spaceless = "InteractorError.getMapPins-TolokaAPIError.taskSuites-"
        + "TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-"
        + "HTTPError.no400BadRequest-NetworkError.responseValidationFailed"

    @Test func readsTheSpacedFormIntoDomainsAndNames() throws {
        let names = try FullForm.parse(
            "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
        #expect(names == [
            FullForm.Name(domain: "UserError", name: "connectionIssue"),
            FullForm.Name(domain: "LogicError", name: "loginFailed"),
            FullForm.Name(domain: "APIError", name: "getTokenFailed"),
            FullForm.Name(domain: "NetworkError", name: "timeout"),
        ])
    }

    @Test func readsTheSpacelessFormAppsWriteIntoACustomKey() throws {
        let names = try FullForm.parse(Self.spaceless)
        #expect(names.map(\.domain) == [
            "InteractorError", "TolokaAPIError", "TolokaBackendError", "HTTPError", "NetworkError",
        ])
        #expect(names.map(\.name) == [
            "getMapPins", "taskSuites", "validationFailure(ValidationError.valueOutOfBounds)",
            "no400BadRequest", "responseValidationFailed",
        ])
    }

    @Test func neverSplitsAtADashInsideParentheses() throws {
        let names = try FullForm.parse("APIError.failed(reason-code - other) - NetworkError.timeout")
        #expect(names == [
            FullForm.Name(domain: "APIError", name: "failed(reason-code - other)"),
            FullForm.Name(domain: "NetworkError", name: "timeout"),
        ])
    }

    @Test func keepsDotsAfterTheFirstInTheName() throws {
        let names = try FullForm.parse("DecodingError.keyNotFound.items")
        #expect(names == [FullForm.Name(domain: "DecodingError", name: "keyNotFound.items")])
    }

    @Test func rejectsAnUnclosedParenthesis() {
        #expect(throws: ChainError.self) { try FullForm.parse("APIError.failed(reason - NetworkError.timeout") }
        #expect(throws: ChainError.unbalancedParentheses("APIError.failed(reason - NetworkError.timeout")) {
            try FullForm.parse("APIError.failed(reason - NetworkError.timeout")
        }
    }

    @Test func rejectsAClosingParenthesisWithoutAnOpeningOne() {
        #expect(throws: ChainError.unbalancedParentheses("APIError.failed)reason( - NetworkError.timeout")) {
            try FullForm.parse("APIError.failed)reason( - NetworkError.timeout")
        }
    }

    @Test func rejectsEmptyText() {
        #expect(throws: ChainError.empty) { try FullForm.parse("") }
        #expect(throws: ChainError.empty) { try FullForm.parse("   ") }
    }

    @Test(arguments: ["timeout", "NetworkError.", ".timeout", "UserError.a - - NetworkError.b", "User Error.a"])
    func rejectsALinkThatIsNotDomainDotName(_ text: String) {
        #expect(throws: ChainError.self) { try FullForm.parse(text) }
    }

    @Test func givesBackTheDomainsAndNamesOfAnyGeneratedSpacedForm() async {
        await propertyCheck(count: 200, input: ChainGen.chain) { chain in
            guard let names = recordingErrors({ try FullForm.parse(chain.fullForm) }) else { return }
            #expect(names.map(\.domain) == chain.links.map(\.domain))
            #expect(names.map(\.name) == chain.links.map(\.name))
        }
    }

    @Test func givesBackTheDomainsAndNamesOfAnyGeneratedSpacelessForm() async {
        await propertyCheck(count: 200, input: ChainGen.chain) { chain in
            guard let names = recordingErrors({ try FullForm.parse(chain.spacelessFullForm) }) else { return }
            #expect(names.map(\.domain) == chain.links.map(\.domain))
            #expect(names.map(\.name) == chain.links.map(\.name))
        }
    }

    /// ASCII text of the characters that matter to a split: separators, parentheses, \r\n, letters.
    static let asciiText = Gen<Int>.value(in: 0...7).map { ["-", ".", "(", ")", " ", "\r\n", "a", "B"][$0] }
        .array(of: 0...30).map { $0.joined() }

    @Test func theByteSplitOfASCIITextEqualsTheCharacterSplit() async {
        await propertyCheck(count: 500, input: zip(Self.asciiText, Gen<Int>.value(in: 1...3))) { text, maxSplits in
            for separator in ["-", "."] as [Character] {
                let bytes = Result { () throws(ChainError) in
                    try FullForm.splitTopLevel(ascii: text, separator: separator.asciiValue!, maxSplits: maxSplits)
                }
                let characters = Result { () throws(ChainError) in
                    try FullForm.splitTopLevel(characters: text, separator: separator, maxSplits: maxSplits)
                }
                #expect(String(describing: bytes) == String(describing: characters), "\(text.debugDescription)")
            }
        }
    }
}
