import TriageModel

/// How an engine writes the rows that ingest and copy have decided on. The decisions — each
/// event's issue, new or duplicate, what a complaint cites and which issues it counts for, which
/// rows a copy takes — are made once, above this seam (`IngestWriter.add`, `addComplaints`,
/// `TriageStore.copy`); only the writing differs: at once and row by row where a statement costs
/// microseconds (SQLite, `RowByRowWrites`), staged and sent by COPY where each costs a round trip
/// (PostgreSQL, `BulkWrites`).
protocol WritePath {
    /// Whether a transaction's batches are gathered into one before they are written: where each
    /// statement costs a round trip, a server's group commit of many small requests then costs
    /// the round trips of one.
    var writesBatchesAsOne: Bool { get }
    /// Where one batch's event rows go.
    func eventRows(_ db: SQLDatabase) throws -> any EventRows
    /// Inserts the complaints in order, each with its codes, a complaint id already stored (or
    /// met earlier in the list) skipped: each one's row id, nil for a duplicate.
    func insertComplaints(_ complaints: [Complaint], codes: [[String]], _ db: SQLDatabase) throws -> [Int64?]
    /// Inserts the citations of new complaints (`complaint_code`).
    func insertComplaintCodes(_ rows: [ComplaintCode], _ db: SQLDatabase) throws
    /// Writes a transaction's summed rollups, after their versions.
    func flush(_ rollups: inout Rollups, _ db: SQLDatabase) throws
    /// Makes room for events at these times (PostgreSQL's month partitions); nothing where none is needed.
    func preparePartitions(times: [Int64], made: inout Set<Int64>, _ db: SQLDatabase) throws
    /// Writes copied rows into a table (`copy`).
    func insertCopied(table: String, columns: [String], rows: [[SQLValue]], _ db: SQLDatabase) throws
    /// After a copy: generated ids go on from the highest one copied.
    func finishCopy(_ db: SQLDatabase) throws
}

/// One `complaint_code` row: a complaint (by row id) cites a key at its time.
struct ComplaintCode {
    var key: String
    var complaintID: Int64
    var ts: Int64
}

/// Whether an event row was new to the store (and its row's id): known at once, or once the batch's rows are written (`finish`).
enum EventRowOutcome {
    case new(Int64)
    case duplicate
    case staged
}

/// One batch's event rows, in `TriageStore.eventInsertColumns`' order.
protocol EventRows {
    /// Writes (or stages) an event's row in its issue, with the ids of its texts.
    mutating func add(_ event: ErrorEvent, issueID: Int64, terms: ArraySlice<Int64?>) throws -> EventRowOutcome
    /// Writes the staged rows: per staged row, in the order they were staged, its row's id where
    /// it was new to the store, nil where it was not (a duplicate, also of a row staged before it).
    mutating func finish() throws -> [Int64?]
}
