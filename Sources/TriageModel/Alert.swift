/// An alert for a cron job: fires once per issue when a query's issue passes a threshold within a span.
public struct AlertRule: Hashable, Sendable {
    /// What the threshold counts.
    public enum Measure: String, CaseIterable, Sendable { case events, users }
    /// How far back the count reaches: the current hour, the last 24 hours, the last 7 days.
    public enum Span: String, CaseIterable, Sendable {
        case h1 = "1h", h24 = "24h", d7 = "7d"

        /// The list window the span is read from (1h: the last bucket of the 24-hour window).
        public var window: TimeWindow { self == .d7 ? .d7 : .h24 }
    }

    public var name: String
    public var query: String
    public var measure: Measure
    public var threshold: Int
    public var within: Span

    public init(name: String, query: String, measure: Measure, threshold: Int, within: Span) {
        self.name = name
        self.query = query
        self.measure = measure
        self.threshold = threshold
        self.within = within
    }
}

/// What one `errtriage alerts` run found: alerts that fire now, new issues and regressions since the last run.
public struct AlertReport: Hashable, Sendable {
    /// One alert firing for one issue, with the count that passed its threshold.
    public struct Firing: Hashable, Sendable {
        public var alert: AlertRule
        public var issue: IssueSummary
        public var count: Int

        public init(alert: AlertRule, issue: IssueSummary, count: Int) {
            self.alert = alert
            self.issue = issue
            self.count = count
        }
    }

    /// The previous run's time (or a day before `now` on the first run).
    public var since: Timestamp
    public var now: Timestamp
    public var firings: [Firing]
    public var newIssues: [IssueSummary]
    public var regressions: [IssueSummary]
    /// Issues that began to spike (`is:spike`), each told once.
    public var spikes: [IssueSummary]

    public init(since: Timestamp, now: Timestamp, firings: [Firing], newIssues: [IssueSummary], regressions: [IssueSummary],
                spikes: [IssueSummary] = []) {
        self.since = since
        self.now = now
        self.firings = firings
        self.newIssues = newIssues
        self.regressions = regressions
        self.spikes = spikes
    }

    /// The condition a spike is recorded under in the store (a name `alert add` refuses).
    public static let spikeCondition = "(spike)"

    /// Whether there is nothing to tell.
    public var isEmpty: Bool { firings.isEmpty && newIssues.isEmpty && regressions.isEmpty && spikes.isEmpty }
}
