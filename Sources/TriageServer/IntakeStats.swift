import Prometheus
import Synchronization
import TriageModel

/// The server's counts: accepted events and requests, rejections by reason, commits; the
/// minute's log line and `/metrics` read them.
public final class IntakeStats: Sendable {
    public let registry = PrometheusCollectorRegistry()
    /// The minute's counts and the run's.
    private let windows = Mutex((minute: Window(), total: Window()))

    /// One minute's (or the run's) counts.
    struct Window: Sendable {
        /// Refusals by reason's name, as the store records them.
        var rejectedByName: [String: Int] { Dictionary(uniqueKeysWithValues: rejected.map { ($0.key.rawValue, $0.value) }) }
        var requests = 0
        var records = 0
        var skippedItems = 0
        /// Records whose time was corrected or clamped (`EventTime`).
        var retimed = 0
        var rejected: [RejectionReason: Int] = [:]
        var commits = 0
        var failedCommits = 0
    }

    private let requestsCounter: Counter
    private let recordsCounter: Counter
    private let skippedCounter: Counter
    private let commitsCounter: Counter
    private let rejectionCounters: [RejectionReason: Counter]
    private let retimedCounters: [EventTime.Adjustment: Counter]
    private let queueGauge: Gauge
    private let memoryGauge: Gauge
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
        let registry = self.registry
        retimedCounters = Dictionary(uniqueKeysWithValues: EventTime.Adjustment.allCases.map { adjustment in
            (adjustment, registry.makeCounter(descriptor: .init(namespace: "errtriage", metricName: "records_retimed", unitName: "total", helpText: "Records whose time was moved: by the sender's clock drift, or to their receipt from the future or before 1970."), labels: [("reason", adjustment.rawValue)]))
        })
        queueGauge = registry.makeGauge(descriptor: .init(namespace: "errtriage", metricName: "queue", unitName: "records", helpText: "Records waiting for the next commit."))
        memoryGauge = registry.makeGauge(descriptor: .init(namespace: "errtriage", metricName: "bodies_in_flight", unitName: "bytes", helpText: "Memory requests hold: bodies as sent and inflated, and the records decoded from them (serve --max-in-flight)."))
        let buckets: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                   .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]
        commitSeconds = registry.makeDurationHistogram(descriptor: .init(namespace: "errtriage", metricName: "commit", unitName: "seconds", helpText: "Time of one group commit."), buckets: buckets)
        ackSeconds = registry.makeDurationHistogram(descriptor: .init(namespace: "errtriage", metricName: "ack", unitName: "seconds", helpText: "From a request's body read to its answer (decoding and commit)."), buckets: buckets)
    }

    func accepted(records: Int, skipped: Int) {
        windows.withLock { w in
            w.minute.requests += 1; w.total.requests += 1
            w.minute.records += records; w.total.records += records
            w.minute.skippedItems += skipped; w.total.skippedItems += skipped
        }
        requestsCounter.increment()
        recordsCounter.increment(by: Int64(records))
        if skipped > 0 { skippedCounter.increment(by: Int64(skipped)) }
    }

    func retimed(_ counts: [EventTime.Adjustment: Int]) {
        guard !counts.isEmpty else { return }
        let total = counts.values.reduce(0, +)
        windows.withLock { w in w.minute.retimed += total; w.total.retimed += total }
        for (adjustment, count) in counts { retimedCounters[adjustment]?.increment(by: Int64(count)) }
    }

    func rejected(_ reason: RejectionReason, count: Int = 1) {
        windows.withLock { w in
            w.minute.rejected[reason, default: 0] += count
            w.total.rejected[reason, default: 0] += count
        }
        rejectionCounters[reason]?.increment(by: Int64(count))
    }

    func committed(seconds: Double) {
        windows.withLock { w in w.minute.commits += 1; w.total.commits += 1 }
        commitsCounter.increment()
        commitSeconds.record(.nanoseconds(Int64(seconds * 1e9)))
    }

    func failedCommit() {
        windows.withLock { w in w.minute.failedCommits += 1; w.total.failedCommits += 1 }
    }

    func acknowledged(seconds: Double) { ackSeconds.record(.nanoseconds(Int64(seconds * 1e9))) }

    func queue(depth: Int) { queueGauge.set(to: Double(depth)) }

    func memory(inFlight bytes: Int) { memoryGauge.set(to: Double(bytes)) }

    /// Rejections so far, by reason (for tests and the log).
    public func rejections() -> [RejectionReason: Int] {
        windows.withLock { $0.total.rejected }
    }

    /// The minute's counts; the next minute starts afresh.
    func takeMinute() -> Window {
        windows.withLock { w in
            defer { w.minute = Window() }
            return w.minute
        }
    }

    /// The log's line for a minute's counts.
    static func line(_ m: Window, queueDepth: Int) -> String {
        var line = "accepted \(m.records) record\(m.records == 1 ? "" : "s") in \(m.requests) request\(m.requests == 1 ? "" : "s")"
        if m.skippedItems > 0 { line += " (\(m.skippedItems) items not stored)" }
        if m.retimed > 0 { line += " (\(m.retimed) re-timed to their receipt or the sender's clock)" }
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
