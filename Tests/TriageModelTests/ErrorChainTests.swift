import PropertyBased
import TestSupport
import Testing
@testable import TriageModel

@Suite("ErrorChain")
struct ErrorChainTests {
    static let spacedForm =
        "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout"

    static let login = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 14, name: "connectionIssue"),
        ChainLink(domain: "LogicError", short: "LO", code: 43, name: "loginFailed"),
        ChainLink(domain: "APIError", short: "AP", code: 7, name: "getTokenFailed"),
        ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout"),
    ])

    @Test func zipsAShortKeyWithTheSpacelessFullFormIntoFiveLinks() throws {
        let chain = try ErrorChain.zip(shortKey: "IN500-TA202-TB30-HT400-NE29", fullForm: FullFormTests.spaceless)
        #expect(chain.links == [
            ChainLink(domain: "InteractorError", short: "IN", code: 500, name: "getMapPins"),
            ChainLink(domain: "TolokaAPIError", short: "TA", code: 202, name: "taskSuites"),
            ChainLink(domain: "TolokaBackendError", short: "TB", code: 30,
                      name: "validationFailure(ValidationError.valueOutOfBounds)"),
            ChainLink(domain: "HTTPError", short: "HT", code: 400, name: "no400BadRequest"),
            ChainLink(domain: "NetworkError", short: "NE", code: 29, name: "responseValidationFailed"),
        ])
        #expect(chain.shortKey == "IN500-TA202-TB30-HT400-NE29")
        #expect(chain.fullForm == "InteractorError.getMapPins - TolokaAPIError.taskSuites - "
            + "TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds) - "
            + "HTTPError.no400BadRequest - NetworkError.responseValidationFailed")
    }

    @Test func zipsAShortKeyWithTheSpacedFullForm() throws {
        let chain = try ErrorChain.zip(shortKey: "US14-LO43-AP7-NE8", fullForm: Self.spacedForm)
        #expect(chain == Self.login)
        #expect(chain.fullForm == Self.spacedForm)
    }

    @Test func rejectsAShortKeyAndFullFormOfDifferentLengths() {
        #expect(throws: ChainError.mismatchedLengths(codes: 3, names: 4)) {
            try ErrorChain.zip(shortKey: "US14-LO43-AP7", fullForm: Self.spacedForm)
        }
    }

    @Test func rejectsAFullFormWithUnbalancedParentheses() {
        #expect(throws: ChainError.unbalancedParentheses("UserError.a(b - NetworkError.timeout")) {
            try ErrorChain.zip(shortKey: "US14-NE8", fullForm: "UserError.a(b - NetworkError.timeout")
        }
    }

    @Test func rejectsABadShortKeyWhenZipping() {
        #expect(throws: ChainError.badShortCode("us14")) {
            try ErrorChain.zip(shortKey: "us14-LO43-AP7-NE8", fullForm: Self.spacedForm)
        }
    }

    @Test func titlesAChainWithTheOutermostAndRootCauseNames() {
        #expect(Self.login.title == "connectionIssue … timeout")
    }

    @Test func titlesAOneLinkChainWithItsOnlyName() {
        let chain = ErrorChain(links: [ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")])
        #expect(chain.title == "timeout")
    }

    @Test func titlesUnnamedLinksWithTheirShortCodes() {
        let chain = ErrorChain(links: [ChainLink(short: "US", code: 14), ChainLink(short: "NS", code: -1009)])
        #expect(chain.title == "US14 … NSn1009")
    }

    @Test func titlesAnEmptyChainWithNothing() {
        #expect(ErrorChain(links: []).title == "")
    }

    @Test func rootCauseIsTheInnermostLink() {
        #expect(Self.login.rootCause == ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout"))
        #expect(ErrorChain(links: []).rootCause == nil)
    }

    @Test func shortKeyOfAOneLinkChainHasNoDash() {
        #expect(ErrorChain(links: [ChainLink(short: "NE", code: 8)]).shortKey == "NE8")
        #expect(ErrorChain(links: [ChainLink(short: "NS", code: -1009)]).shortKey == "NSn1009")
    }

    @Test func fullFormMarksUnknownPartsWithAQuestionMark() {
        #expect(ErrorChain(links: [ChainLink(short: "NE", code: 8)]).fullForm == "?.?")
    }

    @Test func zipRebuildsAnyGeneratedChainFromItsSpacedForm() async {
        await propertyCheck(count: 200, input: ChainGen.chain) { chain in
            let rebuilt = recordingErrors { try ErrorChain.zip(shortKey: chain.shortKey, fullForm: chain.fullForm) }
            #expect(rebuilt == chain)
        }
    }

    @Test func zipRebuildsAnyGeneratedChainFromItsSpacelessForm() async {
        await propertyCheck(count: 200, input: ChainGen.chain) { chain in
            let rebuilt = recordingErrors { try ErrorChain.zip(shortKey: chain.shortKey, fullForm: chain.spacelessFullForm) }
            #expect(rebuilt == chain)
        }
    }
}
