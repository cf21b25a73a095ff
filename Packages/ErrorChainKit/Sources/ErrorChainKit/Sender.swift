import Foundation

/// Sends the queue's records to `serve` on a thread of its own, a batch at a time, and reads each
/// answer by `DeliveryPolicy`: acknowledged records leave the queue; failures wait out a backoff
/// (written down, so it outlives the launch) or the server's rate limit; a refused key stops
/// sending until the next `configure`, said once.
final class Sender: @unchecked Sendable {
    /// How and where to send; replaced by `configure`.
    struct Settings: Sendable {
        var dsn: DSN
        var transport: any ReportTransport
        var batchRecords: Int
        var batchBytes: Int
        /// Seconds a lone record waits for company before it is sent.
        var linger: Double
        var backoff: Backoff
        var log: @Sendable (String) -> Void
        /// 0..<1, the backoff's jitter.
        var random: @Sendable () -> Double
    }

    private let queue: DiskQueue
    // Guarded by queue.condition:
    private var settings: Settings?
    private var stoppedReason: String?
    private var lastFailure: String?
    private var batchLimit = Int.max
    private var flushWaiters = 0
    private var shuttingDown = false
    private var running = false
    private var saidRejected = false

    /// The longest wait a server's answer or the backoff can set: a day.
    static let longestPause: Double = 86_400

    /// A queue another launch left behind: once it is empty, the thread ends and the folder is let go.
    private let closesWhenEmpty: Bool
    private var drained = false

    init(queue: DiskQueue, closesWhenEmpty: Bool = false) {
        self.queue = queue
        self.closesWhenEmpty = closesWhenEmpty
    }

    /// Starts sending with `settings` (again, after a refusal): a new endpoint starts its backoff afresh.
    func configure(_ settings: Settings) {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        let endpoint = settings.dsn.eventsURL.absoluteString
        if queue.state.endpoint != endpoint {
            queue.setBackoff(attempt: 0, notBefore: 0, endpoint: endpoint)
            do { try queue.saveState() } catch { settings.log("\(error)") }
        }
        self.settings = settings
        stoppedReason = nil
        batchLimit = settings.batchRecords
        if !running {
            running = true
            let thread = Thread { [self] in
                run()
                queue.condition.lock()
                let close = drained
                queue.condition.unlock()
                if close { queue.close() }
            }
            thread.name = "ErrorChainKit.Sender"
            thread.start()
        }
        queue.condition.broadcast()
    }

    /// What the sender is doing, for `ErrorReporter.status`.
    func status() -> ReporterStatus {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        let notBefore = queue.state.notBefore
        return ReporterStatus(queued: queue.count, droppedTotal: queue.state.droppedTotal, stoppedReason: stoppedReason,
                              nextAttempt: notBefore > Date().timeIntervalSince1970 ? Date(timeIntervalSince1970: notBefore) : nil,
                              lastFailure: lastFailure)
    }

    /// Waits until every queued record is acknowledged (true), or sending stopped, or `timeout` passed (false).
    func flush(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        queue.condition.lock()
        defer { queue.condition.unlock() }
        flushWaiters += 1
        queue.condition.broadcast()
        defer { flushWaiters -= 1 }
        while queue.count > 0 || !queue.isSettled, settings != nil, stoppedReason == nil, Date() < deadline {
            _ = queue.condition.wait(until: deadline)
        }
        return queue.count == 0 && queue.isSettled
    }

    /// Stops the thread after its current request and waits for it to end (for tests that
    /// start a reporter again on the same queue, as a new launch would).
    func shutDown() {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        shuttingDown = true
        queue.condition.broadcast()
        while running { queue.condition.wait() }
    }

    /// Closes the queue (after `shutDown`), letting its folder go.
    func closeQueue() { queue.close() }

    private func run() {
        queue.condition.lock()
        defer {
            running = false
            queue.condition.broadcast()
            queue.condition.unlock()
        }
        var lingered = false
        while !shuttingDown {
            if closesWhenEmpty, queue.count == 0, queue.inFlight == 0, queue.isSettled {
                drained = true
                break
            }
            guard let settings, stoppedReason == nil, queue.count > 0, queue.inFlight == 0 else {
                queue.condition.wait()
                continue
            }
            let now = Date().timeIntervalSince1970
            if queue.state.notBefore > now + Sender.longestPause {
                // Never set this far ahead: the wall clock was set back. Wait no longer.
                queue.setBackoff(attempt: queue.state.attempt, notBefore: now, endpoint: queue.state.endpoint)
                try? queue.saveState()
            }
            if queue.state.notBefore > now {
                _ = queue.condition.wait(until: Date(timeIntervalSince1970: queue.state.notBefore))
                continue
            }
            if !lingered, flushWaiters == 0, queue.count < min(batchLimit, settings.batchRecords), settings.linger > 0 {
                lingered = true
                _ = queue.condition.wait(until: Date(timeIntervalSinceNow: settings.linger))
                continue
            }
            lingered = false
            guard let batch = queue.takeBatch(maxRecords: min(batchLimit, settings.batchRecords), maxBytes: settings.batchBytes) else {
                continue
            }
            queue.condition.unlock()
            let response: TransportResponse
            do {
                let body = try queue.body(of: batch)
                response = settings.transport.post(body, to: settings.dsn.eventsURL, headers: [
                    "Content-Type": "application/x-ndjson",
                    "X-Sentry-Auth": settings.dsn.authHeader,
                ])
            } catch {
                response = TransportResponse(status: nil, failure: "\(error)")
            }
            queue.condition.lock()
            handle(response, batchSize: batch.count, settings: settings)
            // The state is written without the lock: an append never waits for a file's rename.
            if let write = queue.pendingStateWrite() {
                queue.condition.unlock()
                do { try queue.store(write) } catch { settings.log("\(error)") }
                queue.condition.lock()
                queue.stateStored()
            }
        }
    }

    /// Applies an answer to the batch in flight. Called with the lock held.
    private func handle(_ response: TransportResponse, batchSize: Int, settings: Settings) {
        let now = Date()
        let pause = DeliveryPolicy.pause(response, now: now)
        let endpoint = settings.dsn.eventsURL.absoluteString
        switch DeliveryPolicy.outcome(response) {
        case .acknowledged:
            queue.acknowledge()
            lastFailure = nil
            pauseOrClear(pause, now: now, endpoint: endpoint)
        case .rejected(let reason):
            queue.acknowledge()
            if !saidRejected {
                saidRejected = true
                settings.log("the server refused \(batchSize) report(s) for good and kept the rest: \(reason)")
            }
            pauseOrClear(pause, now: now, endpoint: endpoint)
        case .tooLarge:
            if batchSize > 1 {
                batchLimit = max(1, batchSize / 2)
                queue.release()
            } else {
                queue.acknowledge()
                settings.log("the server refused a report as too large; it was dropped")
            }
        case .refused(let reason):
            queue.release()
            stoppedReason = reason
            lastFailure = reason
            settings.log("the server refused the key (\(reason)); \(queue.count) report(s) stay queued, and sending stops until configure is called again")
        case .retry:
            queue.release()
            lastFailure = response.failure ?? "HTTP \(response.status ?? 0)"
            let attempt = queue.state.attempt + 1
            let wait = pause ?? settings.backoff.delay(attempt: attempt, random: settings.random())
            queue.setBackoff(attempt: attempt, notBefore: now.timeIntervalSince1970 + min(wait, Sender.longestPause), endpoint: endpoint)
        }
        queue.condition.broadcast()
    }

    /// After an answer: the server's pause if it asked for one, else no backoff.
    private func pauseOrClear(_ pause: Double?, now: Date, endpoint: String) {
        if let pause {
            queue.setBackoff(attempt: 0, notBefore: now.timeIntervalSince1970 + min(pause, Sender.longestPause), endpoint: endpoint)
        } else {
            queue.setBackoff(attempt: 0, notBefore: 0, endpoint: endpoint)
        }
    }
}

/// What the reporter is doing.
public struct ReporterStatus: Sendable, Equatable {
    /// Reports on disk, not yet acknowledged.
    public var queued: Int
    /// Reports dropped from a full queue since it was made.
    public var droppedTotal: Int
    /// Why sending stopped (a refused key), until the next `configure`.
    public var stoppedReason: String?
    /// When the next attempt may be made, during a backoff or a server's pause.
    public var nextAttempt: Date?
    /// Why the last attempt failed, if it did.
    public var lastFailure: String?
}
