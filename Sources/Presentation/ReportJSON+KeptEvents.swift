import TriageModel

extension ReportJSON {
    /// One event the store keeps whole, as `show --format json` lists it (`kept_events`).
    public struct KeptEventRow: Sendable {
        public var eventID: String
        public var timestamp: Timestamp
        public var source: String
        public var release: String?
        public var environment: String?
        public var keptAs: [String]
        public var bytes: Int

        public init(eventID: String, timestamp: Timestamp, source: String, release: String?, environment: String?, keptAs: [String],
                    bytes: Int) {
            self.eventID = eventID
            self.timestamp = timestamp
            self.source = source
            self.release = release
            self.environment = environment
            self.keptAs = keptAs
            self.bytes = bytes
        }
    }

    /// The kept events, newest first: what `errtriage event ID` shows.
    public static func keptEvents(_ rows: [KeptEventRow]) -> JSONValue {
        .array(rows.map { r in
            .object([("event_id", .string(r.eventID)), ("timestamp", .string(r.timestamp.iso8601)), ("source", .string(r.source)),
                     ("release", r.release.map(JSONValue.string) ?? .null),
                     ("environment", r.environment.map(JSONValue.string) ?? .null),
                     ("kept_as", .array(r.keptAs.map(JSONValue.string))), ("bytes", .number(String(r.bytes)))])
        })
    }
}
