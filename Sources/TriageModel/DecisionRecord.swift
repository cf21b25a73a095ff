/// A decision as a file records it (the sample's `decisions.ndjson`, read by `DecisionFile`):
/// an issue's status change, fix version, note, tracker link or mute, by whom and when.
public struct DecisionRecord: Hashable, Sendable {
    public var key: String
    /// A status change, if the decision is one.
    public var status: IssueStatus?
    public var version: String?
    public var at: Timestamp
    public var by: String
    public var note: String
    public var tracker: String?
    /// With `muted`: the issue comes back after this many more events.
    public var muteEvents: Int?

    public init(key: String, status: IssueStatus?, version: String? = nil, at: Timestamp, by: String, note: String,
                tracker: String? = nil, muteEvents: Int? = nil) {
        self.key = key
        self.status = status
        self.version = version
        self.at = at
        self.by = by
        self.note = note
        self.tracker = tracker
        self.muteEvents = muteEvents
    }
}
