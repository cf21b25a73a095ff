@_spi(Baseline) import TriageStore
import TriageModel

/// The naive way to answer the dashboard's questions: straight over the events table, as a store
/// without rollups would. `errtriage bench` runs these side by side with the real queries, as
/// the baseline the rollups must beat. A target of its own, so that the app never links it.
extension TriageStore {
    /// A top-N list the naive way: events and users grouped over the window's events, complaints
    /// grouped over the window's complaints; returns the rows found.
    public func naiveTopN(window: TimeWindow, mode: RankMode, now: Timestamp, top: Int = 200) throws(StoreError) -> Int {
        let (from, to) = TriageStore.naiveRange(window, now: now)
        return try baselineRead { db in
            let order = mode == .users ? "u" : "n"
            var rows = try db.rowCount("""
                SELECT issue_id, COUNT(*) AS n, COUNT(DISTINCT user_id) AS u FROM event
                WHERE ts >= ? AND ts < ? GROUP BY issue_id ORDER BY \(order) DESC LIMIT ?
                """, [from, to, Int64(mode == .complaints ? Int.max : top)])
            let complaints = try db.rowCount("""
                SELECT i.id, COUNT(*) AS n FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id
                JOIN issue i ON i.key = k.key WHERE c.ts >= ? AND c.ts < ? GROUP BY i.id ORDER BY n DESC LIMIT ?
                """, [from, to, Int64(top)])
            if mode == .complaints { rows = min(rows, top) + complaints }
            return rows
        }
    }

    /// An issue's detail the naive way: its series, every breakdown and its recent events over the events table.
    public func naiveDetail(key: String, window: TimeWindow, now: Timestamp) throws(StoreError) -> Int {
        let (from, to) = TriageStore.naiveRange(window, now: now)
        let bucket = window.isHourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
        return try baselineRead { db in
            guard let id = try db.integer("SELECT id FROM issue WHERE key = ?", key) else {
                throw StoreError("no issue has the key \(key)", isUsageError: true)
            }
            var rows = try db.rowCount("""
                SELECT ts / \(bucket), COUNT(*) FROM event WHERE issue_id = ? AND ts >= ? AND ts < ? GROUP BY 1
                """, [id, from, to])
            for column in ["device_model", "os_name || ' ' || os_version", "app_version", "network", "orientation", "app_state"] {
                rows += try db.rowCount("""
                    SELECT \(column), COUNT(*) FROM event WHERE issue_id = ? AND ts >= ? AND ts < ? GROUP BY 1 ORDER BY 2 DESC
                    """, [id, from, to])
            }
            rows += try db.rowCount("SELECT COUNT(DISTINCT user_id) FROM event WHERE issue_id = ? AND ts >= ? AND ts < ?",
                                    [id, from, to])
            rows += try db.rowCount("SELECT * FROM event WHERE issue_id = ? ORDER BY ts DESC LIMIT 50", [id])
            return rows
        }
    }

    /// Events in the store, counted row by row.
    public func naiveEventCount() throws(StoreError) -> Int {
        try baselineRead { db in try db.integer("SELECT COUNT(*) FROM event").map { Int($0) } ?? 0 }
    }

    static func naiveRange(_ window: TimeWindow, now: Timestamp) -> (Int64, Int64) {
        let end = now.millis + 1
        switch window {
        case .h24: return (end - 24 * Timestamp.millisPerHour, end)
        case .all: return (Int64.min, end)
        default: return ((now.day - (window.days ?? 0) + 1) * Timestamp.millisPerDay, end)
        }
    }
}
