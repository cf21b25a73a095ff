import ChainRules
import Foundation
import TestSupport
import Testing
@testable import ErrorChainKit

/// `logicError(_:)`: one link whose key is its place's, the same as errtriage's ELK importer
/// gives `LogicError(File.swift:34 >>> f())`; reported when the debug assertion is turned off.
@Suite struct LogicErrorTests {
    @Test func theKeyIsThePlacesAsErrtriageReadsIt() throws {
        let failure = LogicFailure("cache without an id", fileID: "App/ProfileCache.swift", line: 88, function: "load(_:)")
        #expect(failure.origin.text == "ProfileCache.swift:88 >>> load(_:)")
        let read = try #require(LogicOrigin("LogicError(ProfileCache.swift:88 >>> load(_:))"))
        #expect(failure.shortCodesChain == "LO\(read.code)")
        #expect(failure.fullChain == "LogicError.ProfileCache.swift:88 >>> load(_:)")
        #expect(failure.origin.reportedDomain == "LogicError(ProfileCache.swift:88 >>> load(_:))")
    }

    @Test func thePlaceKeepsItsKeyAndAnotherPlaceHasAnother() {
        let key = { (line: Int) in LogicFailure("x", fileID: "App/A.swift", line: line, function: "f()").shortCodesChain }
        #expect(key(10) == key(10))
        #expect(key(10) != key(11))
        // The message is the report's, not the key's.
        #expect(LogicFailure("one", fileID: "App/A.swift", line: 10, function: "f()").shortCodesChain
                == LogicFailure("two", fileID: "App/A.swift", line: 10, function: "f()").shortCodesChain)
    }

    @Test func theCallersPlaceIsTaken() {
        let failure = LogicFailure("here")
        #expect(failure.origin.text == "LogicErrorTests.swift:\(#line - 1) >>> theCallersPlaceIsTaken()")
    }

    @Test func withTheAssertionTurnedOffALogicErrorIsReportedWithItsMessage() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = try ReporterDeliveryTests.reporter(folder, transport)
        reporter.assertsOnLogicErrors = false
        let failure = reporter.logicError("the cache holds a user without an id", additionalInfo: ["cache": "profile"])
        #expect(reporter.flush(timeout: 10))
        let line = try #require(transport.lines.first)
        #expect(line["codes"] as? String == failure.shortCodesChain)
        #expect(line["message"] as? String == "the cache holds a user without an id")
        #expect((line["chain"] as? [[String: Any]])?.first?["name"] as? String == failure.origin.text)
        #expect(line["keys"] as? [String: String] == ["cache": "profile"])
        reporter.close()
    }
}
