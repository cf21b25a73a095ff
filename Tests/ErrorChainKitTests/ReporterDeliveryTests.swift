import Foundation
import TestSupport
import Testing
@testable import ErrorChainKit

/// The reporter against scripted answers: batches, the server's pauses, backoff that outlives a
/// launch, a refused key said once, a batch too large, a bad batch, drops told to the server.
@Suite(.serialized) struct ReporterDeliveryTests {
    static let dsn = "http://k3y@127.0.0.1:9/1"

    /// Log lines, kept.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        func add(_ line: String) { lock.lock(); kept.append(line); lock.unlock() }
        var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }
    }

    static func reporter(_ folder: TemporaryFolder, _ transport: RecordingTransport, log: Log = Log(),
                         change: (inout ReporterOptions) -> Void = { _ in }) throws -> ErrorReporter {
        let reporter = ErrorReporter()
        try reporter.configure(dsn: dsn, environment: "test", appInfo: AppInfo(version: "2.0", build: "7"),
                               options: options(folder, transport, log: log, change: change))
        return reporter
    }

    static func options(_ folder: TemporaryFolder, _ transport: RecordingTransport, log: Log = Log(),
                        change: (inout ReporterOptions) -> Void = { _ in }) -> ReporterOptions {
        var options = ReporterOptions()
        options.queueDirectory = folder.path("queue")
        options.transport = transport
        options.linger = 0
        options.log = { log.add($0) }
        change(&options)
        return options
    }

    static let error = APIError(code: .getTokenFailed, underlying: NetworkError(code: .timeout))

    @Test func reportsGoInBatchesToTheEventsEndpointWithTheKey() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = try Self.reporter(folder, transport) { $0.batchRecords = 10; $0.linger = 0.3 }
        for n in 0..<25 { reporter.report(Self.error, additionalInfo: ["n": String(n)]) }
        #expect(reporter.flush(timeout: 10))
        let requests = transport.requests
        #expect(requests.allSatisfy { $0.lines.count <= 10 })
        #expect(requests.first?.url.absoluteString == "http://127.0.0.1:9/api/1/events")
        #expect(requests.first?.headers["X-Sentry-Auth"]?.contains("sentry_key=k3y") == true)
        let lines = transport.lines
        #expect(lines.compactMap { ($0["keys"] as? [String: String])?["n"] } == (0..<25).map(String.init))
        #expect(Set(lines.compactMap { $0["event_id"] as? String }).count == 25)
        #expect(lines.allSatisfy { $0["codes"] as? String == "AP7-NE8" && $0["environment"] as? String == "test" })
        #expect((lines.first?["app"] as? [String: String]) == ["version": "2.0", "build": "7"])
        reporter.close()
    }

    @Test func a429sRetryAfterIsWaitedOutAndTheSameEventsAreSentAgain() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answers: [TransportResponse(status: 429, headers: ["Retry-After": "1"]), TransportResponse(status: 200)])
        let reporter = try Self.reporter(folder, transport)
        reporter.report(Self.error)
        #expect(reporter.flush(timeout: 10))
        let requests = transport.requests
        try #require(requests.count == 2)
        #expect(requests[1].at.timeIntervalSince(requests[0].at) >= 0.95)
        #expect(requests[0].body == requests[1].body)
        reporter.close()
    }

    @Test func sentrysRateLimitHeaderIsWaitedOut() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answers: [
            TransportResponse(status: 429, headers: ["X-Sentry-Rate-Limits": "2::key", "Retry-After": "0"]), TransportResponse(status: 200),
        ])
        let reporter = try Self.reporter(folder, transport)
        reporter.report(Self.error)
        #expect(reporter.flush(timeout: 10))
        let requests = transport.requests
        try #require(requests.count == 2)
        #expect(requests[1].at.timeIntervalSince(requests[0].at) >= 1.95)
        reporter.close()
    }

    @Test func failuresBackOffExponentiallyWithJitter() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let failed = TransportResponse(status: nil, failure: "connection refused")
        let transport = RecordingTransport(answers: [failed, failed, failed, TransportResponse(status: 503), TransportResponse(status: 200)])
        let reporter = try Self.reporter(folder, transport) { $0.retryBase = 0.1; $0.retryCap = 10 }
        reporter.report(Self.error)
        #expect(reporter.flush(timeout: 20))
        let times = transport.requests.map(\.at)
        try #require(times.count == 5)
        // Failure n waits at least half of 0.1 · 2^(n-1) s (the jitter takes up to the other half;
        // a loaded machine may wake the sender later, so only a gross overshoot counts).
        for n in 1...4 {
            let waited = times[n].timeIntervalSince(times[n - 1])
            let ceiling = 0.1 * pow(2, Double(n - 1))
            #expect(waited >= ceiling / 2 - 0.01, "wait \(n): \(waited)")
            #expect(waited <= ceiling + 2, "wait \(n): \(waited)")
        }
        reporter.close()
    }

    @Test func theBackoffOutlivesALaunch() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let first = try Self.reporter(folder, RecordingTransport(answer: TransportResponse(status: 500))) { $0.retryBase = 40 }
        first.report(Self.error)
        let deadline = Date(timeIntervalSinceNow: 5)
        while first.status.nextAttempt == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let next = try #require(first.status.nextAttempt)
        #expect(next.timeIntervalSinceNow > 15)
        first.close()
        // The next launch waits for the same moment instead of sending at once.
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let second = try Self.reporter(folder, transport) { $0.retryBase = 40 }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(transport.requests.isEmpty)
        #expect(second.status.queued == 1)
        #expect(abs((second.status.nextAttempt ?? .distantPast).timeIntervalSince(next)) < 0.01)
        second.close()
    }

    @Test func aRefusedKeyStopsSendingUntilConfiguredAgainAndIsSaidOnce() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let log = Log()
        let transport = RecordingTransport(answers: [TransportResponse(status: 401), TransportResponse(status: 200)])
        let reporter = try Self.reporter(folder, transport, log: log)
        reporter.report(Self.error)
        #expect(!reporter.flush(timeout: 5))
        reporter.report(Self.error)
        reporter.report(Self.error)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(transport.requests.count == 1)
        #expect(reporter.status.stoppedReason?.hasPrefix("HTTP 401") == true)
        #expect(reporter.status.queued == 3)
        #expect(log.lines.filter { $0.contains("refused the key") }.count == 1)
        try reporter.configure(dsn: Self.dsn, options: Self.options(folder, transport, log: log))
        #expect(reporter.flush(timeout: 10))
        #expect(transport.lines.count == 1 + 3)
        #expect(reporter.status.stoppedReason == nil)
        reporter.close()
    }

    @Test func aBatchTooLargeIsSentInHalves() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answers: [TransportResponse(status: 413), TransportResponse(status: 200)])
        let reporter = ErrorReporter(earlyDirectory: { folder.path("queue") })
        for _ in 0..<4 { reporter.report(Self.error) }  // before configure: on disk, sent when it comes
        try reporter.configure(dsn: Self.dsn, options: Self.options(folder, transport))
        #expect(reporter.flush(timeout: 10))
        #expect(transport.requests.map { $0.lines.count } == [4, 2, 2])
        reporter.close()
    }

    @Test func aBatchTheServerRefusesForGoodLeavesTheQueueAndIsSaid() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let log = Log()
        let transport = RecordingTransport(answers: [TransportResponse(status: 400, body: Array(#"{"detail":"line 1: bad"}"#.utf8)),
                                                     TransportResponse(status: 200)])
        let reporter = try Self.reporter(folder, transport, log: log)
        reporter.report(Self.error)
        #expect(reporter.flush(timeout: 10))
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("line 1: bad") == true)
        reporter.close()
    }

    @Test func droppedReportsAreToldByTheNextEvent() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = ErrorReporter(earlyDirectory: { folder.path("queue") })
        // Eight reports wait on disk for configure, whose queue holds five: the oldest three go as
        // it opens, and one more before anything is sent (the sender lingers), told by the next event.
        for n in 0..<8 { reporter.report(Self.error, additionalInfo: ["n": String(n)]) }
        try reporter.configure(dsn: Self.dsn, options: Self.options(folder, transport) { $0.maxQueueRecords = 5; $0.linger = 0.5 })
        reporter.report(Self.error, additionalInfo: ["n": "8"])
        #expect(reporter.flush(timeout: 10))
        #expect(reporter.status.droppedTotal == 4)
        let lines = transport.lines
        #expect(lines.compactMap { ($0["keys"] as? [String: String])?["n"] } == ["4", "5", "6", "7", "8"])
        #expect(lines.compactMap { ($0["keys"] as? [String: String])?["reports_dropped"] }.compactMap(Int.init).reduce(0, +) == 4)
        reporter.close()
    }

    @Test func aComplaintCitesTheErrorsKeyWithTheUser() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = try Self.reporter(folder, transport)
        reporter.userID = "u0727"
        let id = reporter.complain("It fails every morning", citing: ChainBuildingTests.approach, category: "bug_report")
        reporter.complain("Support told me to quote it", citing: " US14-LO43-AP7-NE8\n")
        reporter.complain("Something else", citing: "not a key")
        #expect(reporter.flush(timeout: 10))
        let lines = transport.lines
        try #require(lines.count == 3)
        #expect(lines[0]["complaint_id"] as? String == id)
        #expect(lines[0]["codes"] as? [String] == ["US14-LO43-AP7-NE8"])
        #expect(lines[0]["category"] as? String == "bug_report")
        #expect(lines[0]["channel"] as? String == "in-app")
        #expect(lines[0]["user_id"] as? String == "u0727")
        #expect(lines[1]["codes"] as? [String] == ["US14-LO43-AP7-NE8"])
        #expect(lines[2]["codes"] == nil)
        reporter.close()
    }

    @Test func additionalInfoOfTheCallOverridesTheErrorsOwnAndFactsComeFromTheProvider() throws {
        struct Facts: DeviceFactsProvider {
            func currentFacts() -> DeviceFacts {
                DeviceFacts(platform: "ios", osName: "iOS", osVersion: "17.4.1", deviceModel: "iPhone14,5", network: "wifi",
                            orientation: "portrait", appState: "background", freeRAM: 99_614_720, freeDisk: 8_226_663_383,
                            jailbroken: false, userID: "u1", sessionID: "s-19")
            }
        }
        let folder = try TemporaryFolder("errorchainkit")
        let transport = RecordingTransport(answer: TransportResponse(status: 200))
        let reporter = try Self.reporter(folder, transport) { $0.facts = Facts() }
        let error = LogicError(code: .loginFailed, underlying: APIError(code: .getTokenFailed, additionalInfo: ["screen": "login", "try": "1"]))
        reporter.report(error, additionalInfo: ["try": "2"])
        #expect(reporter.flush(timeout: 10))
        let line = try #require(transport.lines.first)
        #expect(line["keys"] as? [String: String] == ["screen": "login", "try": "2"])
        let device = try #require(line["device"] as? [String: Any])
        #expect(device["model"] as? String == "iPhone14,5")
        #expect(device["orientation"] as? String == "portrait")
        #expect(device["app_state"] as? String == "background")
        #expect(device["free_ram"] as? Int == 99_614_720)
        #expect(device["free_disk"] as? Int == 8_226_663_383)
        #expect(device["jailbroken"] as? Bool == false)
        #expect(line["os"] as? [String: String] == ["name": "iOS", "version": "17.4.1"])
        #expect(line["network"] as? String == "wifi")
        #expect(line["user_id"] as? String == "u1")
        #expect(line["session_id"] as? String == "s-19")
        #expect(line["platform"] as? String == "ios")
        reporter.close()
    }
}
