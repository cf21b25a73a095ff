import GRDB

extension TriageStore {
    /// Schema 16's table, the same on both engines but for their types:
    /// - `event_payload`: a sample of events kept whole (the item or line as it came, scrubbed of
    ///   secrets and compressed, `PayloadCodec`), keyed as `event_row` is, each with the sample
    ///   roles it is kept for (`KeptRoles`): when a newer event takes every role of an older one,
    ///   the older payload is deleted in the same transaction. `release`, `environment` and `day`
    ///   are the event's, for the roles that go by them; `bytes` is the payload's size before
    ///   compression. Pruning deletes payloads with their events.
    static func payloadTable(text: String, integer: String, blob: String) -> String {
        """
        CREATE TABLE event_payload (
            issue_id \(integer) NOT NULL,
            ts \(integer) NOT NULL,
            event_id \(text) NOT NULL,
            source \(text) NOT NULL,
            release \(text),
            environment \(text),
            day \(integer) NOT NULL,
            roles \(integer) NOT NULL,
            bytes \(integer) NOT NULL,
            payload \(blob) NOT NULL,
            PRIMARY KEY (issue_id, ts, event_id)
        );
        CREATE INDEX event_payload_by_event ON event_payload(event_id);
        CREATE INDEX event_payload_by_time ON event_payload(ts);
        """
    }

    /// v16: events kept whole (`event_payload`).
    static func migrateToV16(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(payloadTable(text: "TEXT", integer: "INTEGER", blob: "BLOB"))
            PRAGMA user_version = 16;
            """)
    }
}
