import Foundation
import TestSupport
import Testing
@testable import ErrorChainKit

/// Several processes of one app (an app and its extension, a tool started twice) each get a
/// queue, what one launch left in its queue is sent by the next, and reports made before
/// `configure` are on disk like the rest.
@Suite(.serialized) struct QueueSharingTests {
    static let error = APIError(code: .getTokenFailed, underlying: NetworkError(code: .timeout))
    static let limits = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 1000, segmentBytes: 1 << 16)

    /// The records waiting in a queue folder, once no process holds it (a sender that drained a
    /// queue lets it go a moment after the flush that waited for it returns).
    static func waiting(_ folder: String) throws -> Int {
        let queue = try DiskQueue(directory: folder, limits: limits)
        defer { queue.close() }
        return queue.waiting
    }

    @Test func twoReportersOnOneFolderEachGetAQueueOfTheirOwn() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let (first, second) = (RecordingTransport(answer: TransportResponse(status: 200)), RecordingTransport(answer: TransportResponse(status: 200)))
        let a = try ReporterDeliveryTests.reporter(folder, first)
        let b = try ReporterDeliveryTests.reporter(folder, second)  // refused with QueueError.busy before
        for _ in 0..<2 { a.report(Self.error) }
        for _ in 0..<3 { b.report(Self.error) }
        #expect(a.flush(timeout: 10) && b.flush(timeout: 10))
        #expect(first.lines.count == 2)
        #expect(second.lines.count == 3)
        #expect(FileManager.default.fileExists(atPath: folder.path("queue.2") + "/lock"))
        a.close()
        b.close()
    }

    @Test func whatASecondQueueWasLeftHoldingIsSentByTheNextLaunch() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let a = try ReporterDeliveryTests.reporter(folder, RecordingTransport(answer: TransportResponse(status: 200)))
        // The second process's server is down until it ends: its reports stay in queue.2.
        let b = try ReporterDeliveryTests.reporter(folder, RecordingTransport(answer: TransportResponse(status: 503))) {
            $0.retryBase = 0.05
            $0.retryCap = 0.2
        }
        for n in 0..<3 { b.report(Self.error, additionalInfo: ["n": String(n)]) }
        a.close()
        b.close()
        #expect(try Self.waiting(folder.path("queue.2")) == 3)

        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let next = try ReporterDeliveryTests.reporter(folder, transport)
        next.report(Self.error, additionalInfo: ["n": "own"])
        #expect(next.flush(timeout: 10))
        #expect(Set(transport.lines.compactMap { ($0["keys"] as? [String: String])?["n"] }) == ["0", "1", "2", "own"])
        #expect(next.status.queued == 0)
        // Sent, the folder is let go: another process may take it.
        #expect(try Self.waiting(folder.path("queue.2")) == 0)
        next.close()
    }

    @Test func reportsBeforeConfigureAreOnDiskWhenTheLaunchEndsWithoutIt() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let early = ErrorReporter(earlyDirectory: { folder.path("queue") })
        early.report(Self.error, additionalInfo: ["n": "0"])
        early.complain("It says AP7-NE8", citing: "AP7-NE8")
        #expect(early.status.queued == 2)
        early.close()  // the launch ends before configure
        #expect(try Self.waiting(folder.path("queue")) == 2)

        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let next = try ReporterDeliveryTests.reporter(folder, transport)
        #expect(next.flush(timeout: 10))
        #expect(transport.lines.count == 2)
        #expect(transport.lines.first?["codes"] as? String == "AP7-NE8")
        next.close()
    }

    @Test func reportsBeforeConfigureInTheDefaultFolderAreSentWhenConfigureNamesAnother() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let reporter = ErrorReporter(earlyDirectory: { folder.path("default") })
        for n in 0..<2 { reporter.report(Self.error, additionalInfo: ["n": String(n)]) }
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        try reporter.configure(dsn: ReporterDeliveryTests.dsn, options: ReporterDeliveryTests.options(folder, transport))
        reporter.report(Self.error, additionalInfo: ["n": "2"])
        #expect(reporter.flush(timeout: 10))
        #expect(transport.lines.compactMap { ($0["keys"] as? [String: String])?["n"] }.sorted() == ["0", "1", "2"])
        #expect(try Self.waiting(folder.path("default")) == 0)
        reporter.close()
    }
}
