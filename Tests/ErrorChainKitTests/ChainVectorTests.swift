import ChainRules
import ErrorChainKit
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

    /// The vector's chain as errors, the outermost returned.
    static func error(_ vector: ChainVectors.Vector) -> any Error {
        if let place = vector.logic {
            return LogicFailure("a broken assumption", fileID: place.fileID, line: place.line, function: place.function)
        }
        var below: (any Error)? = nil
        for link in vector.links.reversed() {
            if link.nserror == true {
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
}
