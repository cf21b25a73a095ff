import ChainRules
import Foundation

/// Reports errors and users' complaints to `errtriage serve`, losing none: each report is on disk
/// before `report` returns and is sent in the background, in batches, until the server
/// acknowledges it.
///
/// ```swift
/// try ErrorReporter.shared.configure(dsn: "http://3f0c…@errors.example.com/1", environment: "production")
/// ErrorReporter.shared.report(error)
/// ErrorReporter.shared.complain("It says US14-LO43-AP7-NE8 every morning", citing: error, category: "bug_report")
/// ```
public final class ErrorReporter: @unchecked Sendable {
    /// The app's reporter.
    public static let shared = ErrorReporter()

    /// What the app may change.
    private struct Config {
        var environment: String?
        var facts: any DeviceFactsProvider
        var userID: String?
        var isReportable: @Sendable (any Error) -> Bool = { _ in true }
        var assertsOnLogicErrors = true
        var log: @Sendable (String) -> Void = ErrorReporter.standardErrorLog
    }

    private let lock = NSLock()
    private var config = Config(facts: SystemFacts(app: AppInfo(version: nil, build: nil)))
    private var queue: DiskQueue?
    private var sender: Sender?
    /// Queues other launches (or other processes of the app) left records in, sent and then let go.
    private var leftBehind: [Sender] = []
    /// Where reports made before `configure` are written: the default queue's folder.
    private let earlyDirectory: () -> String
    /// The queue reports made before `configure` went to, until `configure` opens its own.
    private var earlyQueue: DiskQueue?
    /// Reports made before `configure` that no queue could take (the default folder cannot be
    /// used), written when it comes (at most `earlyLimit`).
    private var early: [(isEvent: Bool, encode: (Int) -> [UInt8])] = []
    private static let earlyLimit = 100
    private var earlyFolderFailed = false
    private var saidWriteFailure = false

    /// A reporter of its own (an app uses `shared`).
    public convenience init() {
        self.init(earlyDirectory: { ReporterOptions.defaultQueueDirectory() })
    }

    /// A reporter whose reports before `configure` go to `earlyDirectory`'s queue (for tests).
    init(earlyDirectory: @escaping () -> String) {
        self.earlyDirectory = earlyDirectory
    }

    /// Starts reporting to the server of `dsn` (as `errtriage key add` prints it). The first call
    /// opens the queue (`options.queueDirectory`, by default the caches folder's `ErrorChainKit/APP`;
    /// when another process of the app holds that folder, the first free one of `APP.2` …
    /// `APP.16`), and sends what earlier launches left in the others; a later call changes the
    /// settings, and starts sending again after a refused key.
    /// Throws for a DSN that is not one, or a queue folder that cannot be used.
    public func configure(dsn: String, environment: String? = nil, appInfo: AppInfo = .main,
                          options: ReporterOptions = ReporterOptions()) throws {
        guard let parsed = DSN(dsn) else { throw ReporterError.badDSN(dsn) }
        lock.lock()
        defer { lock.unlock() }
        let base = options.queueDirectory ?? ReporterOptions.defaultQueueDirectory()
        let settings = Sender.Settings(
            dsn: parsed, transport: options.transport ?? URLSessionTransport(), batchRecords: max(1, options.batchRecords),
            batchBytes: max(1, options.batchBytes), linger: options.linger,
            backoff: Backoff(base: options.retryBase, cap: options.retryCap), log: options.log,
            random: { Double.random(in: 0..<1) })
        if queue == nil {
            let limits = DiskQueue.Limits(maxBytes: options.maxQueueBytes, maxRecords: options.maxQueueRecords,
                                          segmentBytes: min(1 << 20, max(4096, options.maxQueueBytes / 4)))
            // The reports made before now are in the default folder: its queue is opened again
            // with this configuration's bounds (it is this one's when the folders are the same),
            // or sent from where they are.
            let earlyBase = earlyQueue.map { _ in earlyDirectory() }
            earlyQueue?.close()
            earlyQueue = nil
            let opened = try DiskQueue.openFirstFree(base: base, limits: limits)
            queue = opened
            sender = Sender(queue: opened)
            for other in Set([base] + (earlyBase.map { [$0] } ?? [])) {
                for left in DiskQueue.leftBehind(base: other, except: [opened.directory], limits: limits) {
                    let drain = Sender(queue: left, closesWhenEmpty: true)
                    leftBehind.append(drain)
                }
            }
        }
        config.environment = environment
        config.facts = options.facts ?? SystemFacts(app: appInfo, diskPath: queue!.directory)
        config.log = options.log
        for record in early { append(record.isEvent, record.encode) }
        early = []
        sender!.configure(settings)
        for drain in leftBehind { drain.configure(settings) }
    }

    /// Reports an error: its chain, the device's facts, and `additionalInfo` over the chain's own.
    /// Returns the chain (to show the user its key), or nil when it is not worth a report
    /// (`isReportable`). Costs a few microseconds on the caller's thread: one write to the queue.
    @discardableResult
    public func report(_ error: any Error, additionalInfo: [String: String] = [:]) -> ErrorChain? {
        let chain = ErrorChain(error)
        let config = currentConfig()
        guard chain.isReportable, config.isReportable(error) else { return nil }
        let id = ErrorReporter.newID()
        let millis = ErrorReporter.nowMillis()
        var facts = config.facts.currentFacts()
        if let user = config.userID { facts.userID = user }
        let info = chain.additionalInfo.merging(additionalInfo) { _, call in call }
        let keys = info.filter { $0.key != NativeRecord.droppedKey }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let environment = config.environment
        enqueue(isEvent: true) { dropped in
            NativeRecord.event(id: id, millis: millis, chain: chain, facts: facts, environment: environment, keys: keys, dropped: dropped)
        }
        return chain
    }

    /// Sends a user's complaint citing the error they met (its key links the complaint to the issue).
    /// Returns the complaint's id.
    @discardableResult
    public func complain(_ text: String, citing error: (any Error)?, category: String? = nil) -> String {
        complain(text, codes: error.map { [ErrorChain($0).shortCodesChain] } ?? [], category: category)
    }

    /// Sends a user's complaint citing a key they quoted (`US14-LO43-AP7-NE8`, or as they typed it:
    /// `us14-lo43-ap7-ne8`, read by `ShortKey.quoted(_:)`). Returns the complaint's id.
    @discardableResult
    public func complain(_ text: String, citing key: String, category: String? = nil) -> String {
        complain(text, codes: ShortKey.quoted(key).map { [$0] } ?? [], category: category)
    }

    private func complain(_ text: String, codes: [String], category: String?) -> String {
        let config = currentConfig()
        let id = ErrorReporter.newID()
        let millis = ErrorReporter.nowMillis()
        let user = config.userID ?? config.facts.currentFacts().userID
        enqueue(isEvent: false) { _ in
            NativeRecord.complaint(id: id, millis: millis, text: text, category: category, userID: user, codes: codes)
        }
        return id
    }

    /// `logicError(_:)` on this reporter.
    @discardableResult
    public func logicError(_ message: String, additionalInfo: [String: String] = [:],
                           fileID: String = #fileID, line: Int = #line, function: String = #function) -> LogicFailure {
        let failure = LogicFailure(message, fileID: fileID, line: line, function: function)
        if currentConfig().assertsOnLogicErrors {
            assertionFailure("logic error at \(failure.origin.text): \(message)")
        }
        report(failure, additionalInfo: additionalInfo)
        return failure
    }

    /// Waits until every queued report is acknowledged (true), or sending stopped (a refused key),
    /// or `timeout` seconds passed (false). For the end of a command-line run or a test; an app
    /// never needs it.
    public func flush(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        let senders = (sender.map { [$0] } ?? []) + leftBehind
        let waiting = early.count + (earlyQueue?.waiting ?? 0)
        lock.unlock()
        guard !senders.isEmpty else { return waiting == 0 }
        return senders.allSatisfy { $0.flush(timeout: max(0, deadline.timeIntervalSinceNow)) }
    }

    /// Stops sending and closes the queues, as the end of a launch does (for tests).
    func close() {
        lock.lock()
        let senders = (sender.map { [$0] } ?? []) + leftBehind
        let closing = [queue, earlyQueue].compactMap { $0 }
        sender = nil
        leftBehind = []
        queue = nil
        earlyQueue = nil
        lock.unlock()
        for sender in senders {
            sender.shutDown()
            sender.closeQueue()
        }
        for queue in closing { queue.close() }
    }

    /// What the reporter is doing: queued reports, drops, a stop, the next attempt.
    public var status: ReporterStatus {
        lock.lock()
        let sender = sender
        let others = leftBehind
        let waiting = early.count + (earlyQueue?.waiting ?? 0)
        lock.unlock()
        guard var status = sender?.status() else { return ReporterStatus(queued: waiting, droppedTotal: 0) }
        for other in others.map({ $0.status() }) {
            status.queued += other.queued
            status.droppedTotal += other.droppedTotal
        }
        return status
    }

    /// The signed-in user, on every report from now on (nil: the facts provider's).
    public var userID: String? {
        get { currentConfig().userID }
        set { lock.lock(); config.userID = newValue; lock.unlock() }
    }

    /// The app's own rule on top of each error's `isReportable`.
    public var isReportable: @Sendable (any Error) -> Bool {
        get { currentConfig().isReportable }
        set { lock.lock(); config.isReportable = newValue; lock.unlock() }
    }

    /// Whether `logicError` stops at an assertion in debug builds (release builds only report).
    public var assertsOnLogicErrors: Bool {
        get { currentConfig().assertsOnLogicErrors }
        set { lock.lock(); config.assertsOnLogicErrors = newValue; lock.unlock() }
    }

    // MARK: - Inside

    private func currentConfig() -> Config {
        lock.lock()
        defer { lock.unlock() }
        return config
    }

    private func enqueue(isEvent: Bool, _ encode: @escaping (Int) -> [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        if queue == nil, earlyQueue == nil, !earlyFolderFailed {
            // Before `configure`: on disk in the default folder, as every report is (with the
            // default bounds), so that a launch that never configures loses none.
            let defaults = ReporterOptions()
            earlyQueue = try? DiskQueue.openFirstFree(base: earlyDirectory(), limits: DiskQueue.Limits(
                maxBytes: defaults.maxQueueBytes, maxRecords: defaults.maxQueueRecords,
                segmentBytes: min(1 << 20, max(4096, defaults.maxQueueBytes / 4))))
            earlyFolderFailed = earlyQueue == nil
        }
        guard queue != nil || earlyQueue != nil else {
            if early.count < ErrorReporter.earlyLimit { early.append((isEvent, encode)) }
            return
        }
        append(isEvent, encode)
    }

    /// Writes a record to the queue (before `configure`, the early one). Called with the lock held.
    private func append(_ isEvent: Bool, _ encode: (Int) -> [UInt8]) {
        do {
            try (queue ?? earlyQueue)!.append(isEvent: isEvent, encode)
        } catch {
            if !saidWriteFailure {
                saidWriteFailure = true
                config.log("a report could not be written to the queue: \(error)")
            }
        }
    }

    /// 32 random hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string(generator.next()) + Hex.string(generator.next())
    }

    static func nowMillis() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// `ErrorChainKit: …` on standard error.
    public static let standardErrorLog: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("ErrorChainKit: \(message)\n".utf8))
    }
}

/// Why `configure` failed.
public enum ReporterError: Error, Equatable, CustomStringConvertible {
    case badDSN(String)

    public var description: String {
        switch self {
        case .badDSN(let text): "'\(text)' is not a DSN: expected http(s)://KEY@HOST[:PORT]/PROJECT_ID, as errtriage key add prints it"
        }
    }
}

/// How the reporter keeps and sends reports.
public struct ReporterOptions: Sendable {
    /// Where the queue lives; nil: the caches folder's `ErrorChainKit/APP`.
    public var queueDirectory: String?
    /// The queue's bounds: past either, the oldest reports are dropped (and the next event says how many).
    public var maxQueueBytes = 4 << 20
    public var maxQueueRecords = 1000
    /// The device's facts; nil: `SystemFacts` for `appInfo`.
    public var facts: (any DeviceFactsProvider)?
    /// How batches are POSTed; nil: `URLSessionTransport`.
    public var transport: (any ReportTransport)?
    /// At most this many records, and about this many bytes, per request.
    public var batchRecords = 100
    public var batchBytes = 512 << 10
    /// Seconds a lone report waits for company before it is sent.
    public var linger: Double = 0.2
    /// The backoff after failures: from `retryBase` seconds, doubling, up to `retryCap`, with jitter.
    public var retryBase: Double = 1
    public var retryCap: Double = 600
    /// Where the reporter says what went wrong (once per kind of trouble).
    public var log: @Sendable (String) -> Void = ErrorReporter.standardErrorLog

    /// The defaults above.
    public init() {}

    /// The caches folder's `ErrorChainKit/APP` (the bundle id, else the process name).
    public static func defaultQueueDirectory() -> String {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let app = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        return caches.appendingPathComponent("ErrorChainKit").appendingPathComponent(app).path
    }
}
