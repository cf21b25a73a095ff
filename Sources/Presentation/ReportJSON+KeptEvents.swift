import TriageModel

extension ReportJSON {
    /// The issue's kept events, newest first, as `show --format json` lists them (`kept_events`):
    /// what `errtriage event ID` shows.
    public static func keptEvents(_ events: [KeptEvent]) -> JSONValue {
        .array(events.map { e in
            .object([("event_id", .string(e.eventID)), ("timestamp", .string(e.timestamp.iso8601)), ("source", .string(e.source)),
                     ("release", e.release.map(JSONValue.string) ?? .null),
                     ("environment", e.environment.map(JSONValue.string) ?? .null),
                     ("kept_as", .array(e.roles.names.map(JSONValue.string))), ("bytes", .number(String(e.bytes)))])
        })
    }

    /// One kept event as `export --whole` writes it, a line each: which it is, why it is kept, and
    /// its payload as one JSON value (`payload`: the event as its source sent it, secrets filtered).
    public static func keptEventLine(_ e: KeptEvent, payload: JSONValue) -> JSONValue {
        .object([
            ("event_id", .string(e.eventID)), ("issue", .string(e.issueKey)), ("timestamp", .string(e.timestamp.iso8601)),
            ("source", .string(e.source)), ("release", e.release.map(JSONValue.string) ?? .null),
            ("environment", e.environment.map(JSONValue.string) ?? .null),
            ("kept_as", .array(e.roles.names.map(JSONValue.string))), ("payload", payload),
        ])
    }
}
