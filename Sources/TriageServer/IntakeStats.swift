import Foundation
import Prometheus

/// Why a request (or part of one) was not taken: each is counted, logged and exported.
public enum RejectionReason: String, Sendable, CaseIterable {
    case unauthorized      // 401: no key, or a key the store does not hold
    case forbidden         // 403: a revoked key, or another project's
    case malformed         // 400: a body or item that is not what it claims
    case tooLarge = "too_large"            // 413
    case unsupported       // 415: an encoding the server does not read
    case rateLimited = "rate_limited"      // 429
    case unavailable       // 503: the store failed, or the disk is at its floor
    case timeout           // 408: a body that came too slowly
    case notFound = "not_found"            // 404
}

/// The server's counts: accepted events and requests, rejections by reason, commits; the
/// minute's log line and `/metrics` read them.
public final class IntakeStats: @unchecked Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let lock = NSLock()
    private var minute = Window()
    private var total = Window()

    /// One minute's (or the run's) counts.
    struct Window {
        /// Refusals by reason's name, as the store records them.
        var rejectedByName: [String: Int] { Dictionary(uniqueKeysWithValues: rejected.map { ($0.key.rawValue, $0.value) }) }
        var requests = 0
        var records = 0
        var skippedItems = 0
        var rejected: [RejectionReason: Int] = [:]
        var commits = 0
        var failedCommits = 0
    }

    private let requestsCounter: Counter
    private let recordsCounter: Counter
    private let skippedCounter: Counter
    private let commitsCounter: Counter
    private let rejectionCounters: [RejectionReason: Counter]
    private let queueGauge: Gauge
    private let commitSeconds: DurationHistogram
    private let ackSeconds: DurationHistogram

    public init() {
        requestsCounter = registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "requests_accepted", unitName: "total", helpText: "Requests answered 200."))
        recordsCounter = registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "records_committed", unitName: "total", helpText: "Events, complaints and sessions committed."))
        skippedCounter = registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "items_not_stored", unitName: "total", helpText: "Envelope items accepted and not stored (attachments, transactions, ...)."))
        commitsCounter = registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "commits", unitName: "total", helpText: "Group commits."))
        var counters: [RejectionReason: Counter] = [:]
        for reason in RejectionReason.allCases {
            counters[reason] = registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "requests_rejected", unitName: "total", helpText: "Requests (or their items) refused, by reason."), labels: [("reason", reason.rawValue)])
        }
        rejectionCounters = counters
        queueGauge = registry.makeGauge(descriptor: .init(namespace: "errtriage", metricName: "queue", unitName: "records", helpText: "Records waiting for the next commit."))
        let buckets: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                   .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]
        commitSeconds = registry.makeDurationHistogram(descriptor: .init(namespace: "errtriage", metricName: "commit", unitName: "seconds", helpText: "Time of one group commit."), buckets: buckets)
        ackSeconds = registry.makeDurationHistogram(descriptor: .init(namespace: "errtriage", metricName: "ack", unitName: "seconds", helpText: "From a request's body read to its answer (decoding and commit)."), buckets: buckets)
    }

    func accepted(records: Int, skipped: Int) {
        lock.lock()
        minute.requests += 1; total.requests += 1
        minute.records += records; total.records += records
        minute.skippedItems += skipped; total.skippedItems += skipped
        lock.unlock()
        requestsCounter.increment()
        recordsCounter.increment(by: Int64(records))
        if skipped > 0 { skippedCounter.increment(by: Int64(skipped)) }
    }

    func rejected(_ reason: RejectionReason, count: Int = 1) {
        lock.lock()
        minute.rejected[reason, default: 0] += count
        total.rejected[reason, default: 0] += count
        lock.unlock()
        rejectionCounters[reason]?.increment(by: Int64(count))
    }

    func committed(seconds: Double) {
        lock.lock(); minute.commits += 1; total.commits += 1; lock.unlock()
        commitsCounter.increment()
        commitSeconds.record(.nanoseconds(Int64(seconds * 1e9)))
    }

    func failedCommit() {
        lock.lock(); minute.failedCommits += 1; total.failedCommits += 1; lock.unlock()
    }

    func acknowledged(seconds: Double) { ackSeconds.record(.nanoseconds(Int64(seconds * 1e9))) }

    func queue(depth: Int) { queueGauge.set(to: Double(depth)) }

    /// Rejections so far, by reason (for tests and the log).
    public func rejections() -> [RejectionReason: Int] {
        lock.lock(); defer { lock.unlock() }
        return total.rejected
    }

    /// The minute's counts; the next minute starts afresh.
    func takeMinute() -> Window {
        lock.lock()
        defer { minute = Window(); lock.unlock() }
        return minute
    }

    /// The log's line for a minute's counts.
    static func line(_ m: Window, queueDepth: Int) -> String {
        var line = "accepted \(m.records) record\(m.records == 1 ? "" : "s") in \(m.requests) request\(m.requests == 1 ? "" : "s")"
        if m.skippedItems > 0 { line += " (\(m.skippedItems) items not stored)" }
        let rejected = m.rejected.filter { $0.key != .rateLimited }
        let count = rejected.values.reduce(0, +)
        line += ", rejected \(count)"
        if count > 0 {
            line += " (" + rejected.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ") + ")"
        }
        line += ", rate-limited \(m.rejected[.rateLimited] ?? 0), queue \(queueDepth), \(m.commits) commit\(m.commits == 1 ? "" : "s")"
        if m.failedCommits > 0 { line += " (\(m.failedCommits) failed)" }
        return line
    }

    /// `/metrics`: Prometheus' text format.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
