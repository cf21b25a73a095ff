import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing
@testable import ErrorChainKit

/// `isReportable`: a cancelled request is not worth a report, whatever wraps it; a layer and the
/// app can say so too. What is not reportable is never queued.
@Suite struct ReportabilityTests {
    struct QuietError: ChainedError {
        enum Code: Int, ErrorCode { case userLeft = 1 }
        let code = Code.userLeft
        var isReportable: Bool { false }
    }

    @Test func aCancelledURLRequestIsNotReportableUnderAnyLayers() {
        let error = UserError(code: .connectionIssue, underlying: APIError(code: .getTokenFailed, underlying: URLError(.cancelled)))
        #expect(!error.errorChain.isReportable)
        #expect(ErrorChain(APIError(code: .getTokenFailed, underlying: URLError(.timedOut))).isReportable)
    }

    @Test func cancellationErrorAndCocoasUserCancelledAreNotReportable() {
        #expect(!ErrorChain(APIError(code: .getTokenFailed, underlying: CancellationError())).isReportable)
        #expect(!ErrorChain(CocoaError(.userCancelled)).isReportable)
    }

    @Test func aLayerCanSayItIsNotWorthAReport() {
        #expect(!ErrorChain(UserError(code: .connectionIssue, underlying: QuietError())).isReportable)
    }

    @Test func whatIsNotReportableIsNeverQueuedAndReportSaysNil() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let reporter = ErrorReporter()
        var options = ReporterOptions()
        options.queueDirectory = folder.path("queue")
        options.transport = RecordingTransport(answer: TransportResponse(status: 200))
        try reporter.configure(dsn: "http://k@127.0.0.1:9/1", options: options)
        reporter.isReportable = { !($0 is GeoError) }
        #expect(reporter.report(APIError(code: .getTokenFailed, underlying: URLError(.cancelled))) == nil)
        #expect(reporter.report(GeoError(code: .noLocation)) == nil)
        #expect(reporter.report(QuietError()) == nil)
        #expect(reporter.status.queued == 0)
        #expect(reporter.report(NetworkError(code: .timeout))?.shortCodesChain == "NE8")
        #expect(reporter.flush(timeout: 10))
        reporter.close()
    }
}
