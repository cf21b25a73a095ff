import GRDB

extension TriageStore {
    /// The citations of a complaint found by the complaint (schema 13). `complaint_code.complaint_id`
    /// references `complaint(id)`, and a prune deletes complaints: for each one deleted, the engine
    /// checks that no citation still names it (SQLite with its foreign keys on, PostgreSQL always).
    /// Without an index that leads with `complaint_id`, each of those checks read every citation,
    /// so the first prune of a year at 30,000 events a day spent most of its time there, holding
    /// the writer for seconds per chunk. The prune deletes a chunk's citations by complaint through
    /// it too. The same statement on both engines.
    static let complaintCodeByComplaint = "CREATE INDEX complaint_code_by_complaint ON complaint_code(complaint_id)"

    /// v13: `complaintCodeByComplaint`.
    static func migrateToV13(_ db: GRDB.Database) throws {
        try db.execute(sql: complaintCodeByComplaint + "; PRAGMA user_version = 13;")
    }
}
