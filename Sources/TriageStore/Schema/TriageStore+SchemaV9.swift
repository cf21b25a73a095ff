import GRDB

extension TriageStore {
    /// v9: each chain link says where its code came from (`CodeOrigin`: stated, read from the
    /// message, or derived from the type and message template); NULL where the source stated it,
    /// as every link before v9 did.
    static func migrateToV9(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            ALTER TABLE chain_link ADD COLUMN origin TEXT;
            PRAGMA user_version = 9;
            """)
    }
}
