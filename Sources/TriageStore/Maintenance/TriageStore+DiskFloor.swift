import TriageModel

extension StoreError {
    /// The refusal of a write because the disk holding the store is below its free-space floor:
    /// `ingest` exits 3 on it, `serve` answers 503 with `Retry-After` until space is back.
    public static func belowFloor(_ target: String, free: Int64, floor: Int64) -> StoreError {
        var error = StoreError("the disk holding \(target) has \(ByteCount.text(free)) free, below the floor of \(ByteCount.text(floor)) "
                               + "(--min-free or ERRTRIAGE_MIN_FREE); nothing more was written: free some space, or prune (errtriage retention prune --keep 90d)")
        error.isBelowFloor = true
        return error
    }
}

extension TriageStore {
    /// The free space `ingest` keeps on the store's disk unless told otherwise: 1 GiB, room for a
    /// few days of a busy app's events and for SQLite's WAL and a prune's transactions.
    public static let defaultMinFreeBytes: Int64 = 1 << 30

    /// The bytes free on the disk holding the store; nil for a team store (the server's disk).
    public func freeSpace() -> Int64? { engine.freeBytes() }

    /// Throws `StoreError.belowFloor` when the disk holding the store has less than `floor` bytes
    /// free: what `ingest` asks before each transaction and `serve` before each commit.
    public func checkFreeSpace(floor: Int64) throws(StoreError) {
        guard floor > 0, let free = engine.freeBytes(), free < floor else { return }
        throw StoreError.belowFloor(target, free: free, floor: floor)
    }

    /// The bytes each table takes with its indexes, largest first.
    public func tableBytes() throws(StoreError) -> [(table: String, bytes: Int64)] {
        do { return try engine.tableBytes() } catch { throw StoreError.describing(error, path: target) }
    }

    /// Rewrites the store to give every free page back (`prune --vacuum`); says what it did.
    public func compact() throws(StoreError) -> String {
        guard !readOnly else { throw engine.readOnlyError }
        do { return try engine.compact() } catch { throw StoreError.describing(error, path: target) }
    }
}

/// The store's size by table and what its raw events cost a day: `check`'s last lines.
public struct StoreSize: Sendable {
    public var tables: [(table: String, bytes: Int64)] = []
    public var total: Int64 = 0
    /// Events a day over the last 7 days of data.
    public var eventsPerDay = 0
    /// The raw events' bytes (the event rows with their indexes) per kept event.
    public var bytesPerEvent: Int64 = 0
    public var keepDays: Int?
}

extension TriageStore {
    /// The store's size by table, and the daily rate its raw events grow at.
    public func storeSize() throws(StoreError) -> StoreSize {
        var size = StoreSize()
        size.tables = try tableBytes()
        size.total = try databaseBytes()
        let (events, perDay, keep) = try read { db in
            let kept = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM event_row WHERE ts >= ?",
                                          arguments: [try TriageStore.meta(db, RetentionKey.since) ?? .min]) ?? 0
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(day) FROM issue_day") ?? 0
            let week = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(events), 0) FROM issue_day WHERE day > ?", arguments: [last - 7]) ?? 0
            return (kept, Int(week / 7), try TriageStore.meta(db, RetentionKey.keepDays).map { Int($0) })
        }
        let raw = size.tables.first { $0.table == "event_row" }?.bytes ?? 0
        size.bytesPerEvent = events > 0 ? raw / events : 0
        size.eventsPerDay = perDay
        size.keepDays = keep
        return size
    }
}
