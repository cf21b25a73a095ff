/// What one write of events and complaints did.
public struct IngestCounts: Equatable, Sendable {
    public var eventsAdded = 0
    public var duplicates = 0
    public var complaintsAdded = 0
    public var complaintDuplicates = 0
    public var issuesCreated = 0
    public var regressions = 0
    /// Adoption rows (a day's figures or a session) stored or changed.
    public var adoptionRows = 0
    /// Of `adoptionRows`, the sessions stored (from a sessions export or an SDK's release health).
    public var sessionsAdded = 0
    /// Events and complaints older than the store's raw horizon (retention pruned their days):
    /// not stored, as their days' figures are final.
    public var beforeRetention = 0
    public init() {}

    public static func += (a: inout IngestCounts, b: IngestCounts) {
        a.eventsAdded += b.eventsAdded
        a.duplicates += b.duplicates
        a.complaintsAdded += b.complaintsAdded
        a.complaintDuplicates += b.complaintDuplicates
        a.issuesCreated += b.issuesCreated
        a.regressions += b.regressions
        a.adoptionRows += b.adoptionRows
        a.sessionsAdded += b.sessionsAdded
        a.beforeRetention += b.beforeRetention
    }
}

/// What one or more inputs gave: the store's counts, the lines rejected, the envelopes read and
/// their items not stored, by type.
public struct IngestSummary: Sendable, Equatable {
    public var counts = IngestCounts()
    public var rejected = 0
    public var envelopes = 0
    public var skippedItems: [String: Int] = [:]
    public init() {}

    public static func += (a: inout IngestSummary, b: IngestSummary) {
        a.counts += b.counts
        a.rejected += b.rejected
        a.envelopes += b.envelopes
        a.skippedItems.merge(b.skippedItems, uniquingKeysWith: +)
    }
}

/// How far an input has been read: its bytes (compressed bytes for gzip) and events decoded.
public struct IngestProgress: Sendable {
    public var input: String
    public var bytesRead: Int64
    public var totalBytes: Int64?
    public var events: Int

    public init(input: String, bytesRead: Int64, totalBytes: Int64?, events: Int) {
        self.input = input
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.events = events
    }
}
