import GRDB
import TriageModel

extension TriageStore {
    /// Schema 18's tables, the same on both engines but for their types: the events kept whole
    /// in lean rows, their roles as pointers, and the dictionaries their payloads are compressed with.
    /// - `kept_payload`: one row per kept event, keyed by its `event_row` id; `issue_id` and `ts`
    ///   as the event's (the join to `event_row` goes through the event's own key on both
    ///   engines, and an issue's kept events are found through `event_by_issue_time`); `event_key`
    ///   a hash of the event id (`KeptEventKey`: what `event ID` looks for, eight bytes instead of
    ///   the id); `sample` the role the row is kept for by itself (`KeptRoles.dayQuota` or `.every`;
    ///   0 for a row kept only while a role points at it); `dict` how the payload is compressed (0
    ///   zlib as schema 16 wrote it, -1 zstd without a dictionary, else zstd with
    ///   `payload_dictionary`'s row); `bytes` its size before compression. Its one index is by
    ///   time (with the event key): appended to in the order events come, so that an ingest
    ///   writes few of its pages, and read by pruning, `export --whole` and `event ID`.
    /// - `kept_role`: an issue's first, latest, latest of a release and of an environment (`scope`
    ///   the release or environment, '' for the others), each a pointer to a kept payload that
    ///   moves as newer events come, rather than a payload rewritten.
    /// - `payload_dictionary`: zstd dictionaries trained on the store's own first payloads of each
    ///   source; never changed once written, since payloads name them.
    /// - `issue.kept_payloads`, `issue.kept_bytes`: each issue's kept payloads and their bytes,
    ///   what the sample's bounds are read from.
    static func keptPayloadTables(text: String, integer: String, blob: String) -> String {
        """
        CREATE TABLE kept_payload (
            id \(integer) PRIMARY KEY,
            issue_id \(integer) NOT NULL,
            ts \(integer) NOT NULL,
            event_key \(integer) NOT NULL,
            sample \(integer) NOT NULL,
            dict \(integer) NOT NULL,
            bytes \(integer) NOT NULL,
            payload \(blob) NOT NULL
        );
        CREATE INDEX kept_payload_by_time ON kept_payload(ts, event_key);
        CREATE INDEX kept_payload_untrained ON kept_payload(id) WHERE dict = -1;
        CREATE TABLE kept_role (
            issue_id \(integer) NOT NULL,
            role \(integer) NOT NULL,
            scope \(text) NOT NULL,
            payload_id \(integer) NOT NULL,
            PRIMARY KEY (issue_id, role, scope)
        );
        CREATE INDEX kept_role_by_payload ON kept_role(payload_id);
        CREATE TABLE payload_dictionary (
            id \(integer) PRIMARY KEY,
            source \(text) NOT NULL,
            dictionary \(blob) NOT NULL
        );
        ALTER TABLE issue ADD COLUMN kept_payloads \(integer) NOT NULL DEFAULT 0;
        ALTER TABLE issue ADD COLUMN kept_bytes \(integer) NOT NULL DEFAULT 0;
        """
    }

    /// Schema 17's payloads moved into schema 18's tables: each row under its event's id, its
    /// roles as pointers (a release's or environment's under that release or environment) and
    /// its day quota or keep-all role as its own; the payloads as schema 16 compressed them (`dict` 0).
    /// The event keys are hashed after (`hashMovedEventKeys`): SQL has no hash both engines share.
    static let movePayloadsToV18 = """
        INSERT INTO kept_payload (id, issue_id, ts, event_key, sample, dict, bytes, payload)
        SELECT e.id, p.issue_id, p.ts, 0, p.roles & \(KeptRoles.sampled.rawValue), 0, p.bytes, p.payload
        FROM event_payload p JOIN event_row e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.event_id = p.event_id;
        INSERT INTO kept_role (issue_id, role, scope, payload_id)
        SELECT p.issue_id, r.role, CASE r.role WHEN \(KeptRoles.latestOfRelease.rawValue) THEN COALESCE(p.release, '')
                                               WHEN \(KeptRoles.latestOfEnvironment.rawValue) THEN COALESCE(p.environment, '')
                                               ELSE '' END, e.id
        FROM event_payload p JOIN event_row e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.event_id = p.event_id
        JOIN (SELECT \(KeptRoles.first.rawValue) AS role UNION ALL SELECT \(KeptRoles.latest.rawValue)
              UNION ALL SELECT \(KeptRoles.latestOfRelease.rawValue) UNION ALL SELECT \(KeptRoles.latestOfEnvironment.rawValue)) r
          ON (p.roles & r.role) <> 0
        ON CONFLICT DO NOTHING;
        DELETE FROM kept_payload WHERE sample = 0 AND id NOT IN (SELECT payload_id FROM kept_role);
        DROP TABLE event_payload;
        UPDATE issue SET kept_payloads = k.n, kept_bytes = k.b
        FROM (SELECT issue_id, COUNT(*) AS n, SUM(bytes) AS b FROM kept_payload GROUP BY issue_id) AS k WHERE issue.id = k.issue_id;
        """

    /// The event keys of the payloads moved to schema 18 (the step's `after`, on both engines).
    static func hashMovedEventKeys(_ db: SQLDatabase) throws {
        let rows = try SQLRow.fetchAll(db, sql: """
            SELECT p.id, e.event_id FROM kept_payload p
            JOIN event_row e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.id = p.id
            """)
        for slice in rows.slices(of: 400) {
            var arguments = SQLArguments()
            for row in slice { arguments += [try row.decode(0, as: Int64.self), KeptEventKey.hash(try row.decode(1, as: String.self))] }
            try db.execute(sql: """
                UPDATE kept_payload SET event_key = v.k FROM (\(Array(repeating: "SELECT CAST(? AS BIGINT) AS id, CAST(? AS BIGINT) AS k",
                                                                          count: slice.count).joined(separator: " UNION ALL "))) AS v
                WHERE kept_payload.id = v.id
                """, arguments: arguments)
        }
    }

    /// v18: the events kept whole in lean rows (`keptPayloadTables`), their schema-17 payloads moved.
    static func migrateToV18(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(keptPayloadTables(text: "TEXT", integer: "INTEGER", blob: "BLOB"))
            \(movePayloadsToV18)
            """)
    }
}

/// The hash `kept_payload.event_key` holds of an event id: FNV-1a over its UTF-8, 64 bits.
enum KeptEventKey {
    static func hash(_ eventID: String) -> Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in eventID.utf8 {
            h ^= UInt64(byte)
            h &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: h)
    }
}
