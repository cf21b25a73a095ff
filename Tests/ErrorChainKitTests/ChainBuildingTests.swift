import ErrorChainKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The four layers of the approach's example, declared as an app declares them.
struct NetworkError: ChainedError {
    enum Code: Int, ErrorCode { case timeout = 8 }
    let code: Code
    var underlying: (any Error)? = nil
}

struct APIError: ChainedError {
    enum Code: Int, ErrorCode { case getTokenFailed = 7 }
    let code: Code
    var underlying: (any Error)? = nil
    var systemMessage: String? = nil
    var additionalInfo: [String: String] = [:]
}

struct LogicError: ChainedError {
    enum Code: Int, ErrorCode { case loginFailed = 43 }
    let code: Code
    var underlying: (any Error)? = nil
    var additionalInfo: [String: String] = [:]
}

struct UserError: ChainedError {
    enum Code: Int, ErrorCode { case connectionIssue = 14 }
    let code: Code
    var underlying: (any Error)? = nil
}

/// A layer that names itself: domain, short name and code name overridden.
struct GeoError: ChainedError {
    enum Code: Int, ErrorCode { case noLocation = 3 }
    let code: Code
    var shortName: String { "GX" }
}

/// A plain Swift error, not a layer of the approach.
enum ParserFailure: Error {
    case badJSON
    case missingField(String)
}

@Suite struct ChainBuildingTests {
    static let approach = UserError(code: .connectionIssue, underlying: LogicError(code: .loginFailed, underlying:
        APIError(code: .getTokenFailed, underlying: NetworkError(code: .timeout))))

    @Test func theApproachsOwnChainHasItsKeyAndFullForm() {
        #expect(Self.approach.shortCodesChain == "US14-LO43-AP7-NE8")
        #expect(Self.approach.fullChain == "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
    }

    @Test func linksAreValuesWithTheLayersFacts() {
        let links = Self.approach.errorChain.links
        #expect(links.map(\.domain) == ["UserError", "LogicError", "APIError", "NetworkError"])
        #expect(links.map(\.shortName) == ["US", "LO", "AP", "NE"])
        #expect(links.map(\.code) == [14, 43, 7, 8])
        #expect(links.map(\.codeName) == ["connectionIssue", "loginFailed", "getTokenFailed", "timeout"])
        #expect(links.map(\.shortCode) == ["US14", "LO43", "AP7", "NE8"])
    }

    @Test func anOverriddenShortNameIsUsed() {
        #expect(UserError(code: .connectionIssue, underlying: GeoError(code: .noLocation)).shortCodesChain == "US14-GX3")
    }

    @Test func aURLErrorJoinsAsNSWithItsNegativeCode() {
        let error = APIError(code: .getTokenFailed, underlying: URLError(.notConnectedToInternet))
        #expect(error.shortCodesChain == "AP7-NSn1009")
        #expect(error.fullChain == "APIError.getTokenFailed - NSURLErrorDomain.notConnectedToInternet")
    }

    @Test func nsErrorUnderlyingErrorsAreFollowedDownTheChain() {
        // An NSError from a framework, whose own cause is a URLError, under an app layer.
        let framework = NSError(domain: "NSCocoaErrorDomain", code: 4097, userInfo: [
            NSUnderlyingErrorKey: NSError(domain: NSURLErrorDomain, code: -1001, userInfo: [
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: 60),
            ]),
        ])
        let chain = APIError(code: .getTokenFailed, underlying: framework).errorChain
        #expect(chain.shortCodesChain == "AP7-NC4097-NSn1001-NP60")
        #expect(chain.links.map(\.codeName) == ["getTokenFailed", "code(4097)", "timedOut", String(describing: POSIXErrorCode(rawValue: 60)!)])
    }

    @Test func anNSErrorAtTheTopIsFollowedToo() {
        let top = NSError(domain: "com.example.feed.decoding", code: 666, userInfo: [NSUnderlyingErrorKey: NetworkError(code: .timeout)])
        let chain = ErrorChain(top)
        #expect(chain.shortCodesChain == "DE666-NE8")
        #expect(chain.fullChain == "decoding.code(666) - NetworkError.timeout")
    }

    @Test func aSwiftEnumErrorIsNamedByItsCase() {
        #expect(ErrorChain(ParserFailure.badJSON).links[0].codeName == "badJSON")
        #expect(ErrorChain(ParserFailure.missingField("id")).links[0].codeName == "missingField")
        #expect(ErrorChain(ParserFailure.badJSON).links[0].domain == "ParserFailure")
    }

    @Test func theSystemMessageNearestTheRootCauseIsTheChains() {
        let error = APIError(code: .getTokenFailed, underlying: NSError(domain: NSURLErrorDomain, code: -1009, userInfo: [
            NSLocalizedDescriptionKey: "The Internet connection appears to be offline.",
        ]), systemMessage: "token endpoint failed")
        #expect(error.errorChain.links.map(\.systemMessage) == ["token endpoint failed", "The Internet connection appears to be offline."])
        #expect(error.errorChain.systemMessage == "The Internet connection appears to be offline.")
    }

    @Test func anOuterLayersAdditionalInfoWinsOverAnInnerOnes() {
        let error = LogicError(code: .loginFailed, underlying: APIError(code: .getTokenFailed, additionalInfo: ["endpoint": "/token", "try": "1"]),
                               additionalInfo: ["try": "2"])
        #expect(error.errorChain.additionalInfo == ["endpoint": "/token", "try": "2"])
    }

    @Test func aChainLongerThanSixteenLinksIsCut() {
        var error: any Error = NetworkError(code: .timeout)
        for _ in 0..<40 { error = APIError(code: .getTokenFailed, underlying: error) }
        #expect(ErrorChain(error).links.count == ErrorChain.maxLinks)
    }

    @Test func aReverseDNSOrDashedDomainIsWrittenSoTheFullFormReadsBack() {
        let chain = ErrorChain(NSError(domain: "my-domain", code: 1))
        #expect(chain.links[0].domain == "my_domain")
        #expect(chain.fullChain == "my_domain.code(1)")
    }
}
