import ChainRules
@testable import ErrorChainKit
import Foundation
import TestSupport
import Testing

/// The library side of Tests/Fixtures/chain-vectors.json: each chain built from real errors (the
/// app's layers, Foundation's NSErrors under `NSUnderlyingErrorKey`, logic errors) gives the key,
/// full form and `error_codes_stack` errtriage reads (TriageImportTests' ChainVectorTests).
@Suite struct ChainVectorTests {
    /// A layer whose domain, short name and code name come from the vector.
    struct VectorLayer: ChainedError {
        struct Code: ErrorCode { var rawValue: Int }
        let code: Code
        let domain: String
        let codeName: String
        let given: String?
        var underlying: (any Error)?
        var shortName: String { given ?? DomainShortName.derive(domain) }
    }

    /// A plain Swift error enum as an app first shipped it, and the same enum a release later,
    /// with a case added before `truncated`: Foundation numbers `truncated` 1, then 2.
    enum FirstRelease { enum ParseError: Error { case empty, truncated } }
    enum NextRelease { enum ParseError: Error { case empty, unexpectedEnd, truncated } }

    /// A case of the vector's plain Swift enum, as the first release or the next declares it.
    static func enumCase(_ link: ChainVectors.Link, nextRelease: Bool) -> any Error {
        switch (link.domain, link.name, nextRelease) {
        case ("ParseError", "truncated", false): FirstRelease.ParseError.truncated
        case ("ParseError", "truncated", true): NextRelease.ParseError.truncated
        default: fatalError("chain-vectors.json: no Swift enum here for \(link.domain).\(link.name ?? "nil")")
        }
    }

    /// The vector's chain as errors, the outermost returned (a plain Swift enum as `nextRelease` declares it).
    static func error(_ vector: ChainVectors.Vector, nextRelease: Bool = false) -> any Error {
        if let place = vector.logic {
            return LogicFailure("a broken assumption", fileID: place.fileID, line: place.line, function: place.function)
        }
        var below: (any Error)? = nil
        for link in vector.links.reversed() {
            if link.swiftEnum == true {
                below = enumCase(link, nextRelease: nextRelease)
            } else if link.nserror == true {
                below = NSError(domain: link.domain, code: link.code, userInfo: below.map { [NSUnderlyingErrorKey: $0] } ?? [:])
            } else {
                below = VectorLayer(code: .init(rawValue: link.code), domain: link.domain, codeName: link.name ?? "?",
                                    given: link.short, underlying: below)
            }
        }
        return below!
    }

    @Test(arguments: ChainVectors.all)
    func buildsTheVectorsKeyFullFormAndStack(_ vector: ChainVectors.Vector) {
        let chain = ErrorChain(Self.error(vector))
        #expect(chain.shortCodesChain == vector.key)
        #expect(chain.fullChain == vector.full)
        #expect(chain.codesStack == vector.stack)
        #expect(chain.links.map(\.code) == vector.links.map(\.code))
    }

    @Test(arguments: ChainVectors.all)
    func crashlyticsErrorCarriesTheKeyAsDomainAndTheStack(_ vector: ChainVectors.Vector) {
        let chain = ErrorChain(Self.error(vector))
        #expect(chain.crashlyticsError.domain == vector.key)
        #expect(chain.crashlyticsError.code == vector.links[0].code)
        #expect(chain.crashlyticsError.userInfo["error_codes_stack"] as? String == vector.stack)
        #expect(chain.crashlyticsKeys == ["error_codes_stack": vector.stack])
    }

    @Test(arguments: ChainVectors.all.filter { $0.links.contains { $0.swiftEnum == true } })
    func aSwiftEnumsCaseKeepsItsKeyWhenTheEnumGainsACase(_ vector: ChainVectors.Vector) {
        let first = ErrorChain(Self.error(vector)), next = ErrorChain(Self.error(vector, nextRelease: true))
        #expect((FirstRelease.ParseError.truncated as NSError).code != (NextRelease.ParseError.truncated as NSError).code)
        #expect(first.shortCodesChain == vector.key)
        #expect(next.shortCodesChain == vector.key)
        #expect(next.fullChain == vector.full)
    }

    @Test(arguments: ChainVectors.all.filter { $0.cited != nil })
    func aComplaintCitingTheKeyAsAUserTypedItCitesTheKey(_ vector: ChainVectors.Vector) throws {
        let cited = try #require(vector.cited)
        #expect(ShortKey.quoted(cited) == vector.key)
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = try ReporterDeliveryTests.reporter(folder, transport)
        reporter.complain("It says \(cited) again", citing: cited)
        #expect(reporter.flush(timeout: 10))
        #expect(transport.lines.first?["codes"] as? [String] == [vector.key])
        reporter.close()
    }
}
