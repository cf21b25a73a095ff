/// What one prune did.
public struct PruneResult: Sendable, Equatable {
    /// The raw horizon after the prune: the first day whose raw events are kept.
    public var eventsSince: Timestamp?
    public var eventsDeleted = 0
    /// Of the events deleted, those the store kept whole: their payloads went with them.
    public var payloadsDeleted = 0
    public var complaintsDeleted = 0
    public var bytesBefore: Int64 = 0
    public var bytesAfter: Int64 = 0
    /// How the freed space went back (or why it did not).
    public var spaceNote = ""

    public init() {}
}

/// What a round of the store's upkeep did (`ingest` after its files, `serve` at start and hourly):
/// the muted issues whose condition came due, now open, and the retention's prune where it was due.
public struct Upkeep: Sendable, Equatable {
    /// The keys of the issues unmuted.
    public var revived: [String]
    public var pruned: PruneResult?
    /// The retention the prune applied.
    public var keepDays: Int?

    public init(revived: [String] = [], pruned: PruneResult? = nil, keepDays: Int? = nil) {
        self.revived = revived
        self.pruned = pruned
        self.keepDays = keepDays
    }
}
