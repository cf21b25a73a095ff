#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// SQLite's side of retention: deletes by issue and time range, page by page space returned.
extension SQLiteEngine {
    /// Each issue's events before `cut`, through the `(issue_id, ts)` index, about `chunk` per
    /// transaction: a transaction holds the writer for tens of milliseconds.
    func deleteEvents(before cut: Int64, chunk: Int) throws -> Int {
        let issues = try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM issue WHERE first_seen < ? ORDER BY id", arguments: [cut])
        }
        var total = 0, next = 0
        while next < issues.count {
            total += try write { db in
                var n = 0
                while n < chunk, next < issues.count {
                    let room = chunk - n
                    try db.execute(sql: """
                        DELETE FROM event_row WHERE id IN (SELECT id FROM event_row WHERE issue_id = ? AND ts < ? LIMIT ?)
                        """, arguments: [issues[next], cut, room])
                    let deleted = db.changesCount
                    n += deleted
                    if deleted < room { next += 1 }
                }
                return n
            }
        }
        return total
    }

    /// Pages given back to the file system per transaction: 1,024 (4 MiB), a short turn.
    static let vacuumPages = 1_024

    /// Pages freed by the prune go back to the file system when the file was made with
    /// incremental auto-vacuum (every store since schema 11), `vacuumPages` per transaction.
    func reclaimSpace() throws -> String {
        let mode = try read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") ?? 0 }
        guard mode == 2 else {
            return "the freed pages are reused by later writes; errtriage retention prune --vacuum rewrites the file once to give them back"
        }
        var pages = 0
        while true {
            let free = try read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 }
            guard free > 0 else { break }
            try turn { db in try db.execute(sql: "PRAGMA incremental_vacuum(\(SQLiteEngine.vacuumPages))") }
            let left = try read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 }
            pages += free - left
            if left >= free { break }
        }
        try turn(transaction: false) { db in _ = try GRDB.Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return "\(pages) freed pages returned to the file system (incremental auto-vacuum)"
    }

    func compact() throws -> String {
        try turn(transaction: false) { db in
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try db.execute(sql: "VACUUM")
            _ = try GRDB.Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return "the file was rewritten (VACUUM) and keeps incremental auto-vacuum from now on"
    }

    /// From SQLite's `dbstat` table: each table's pages with its indexes'.
    func tableBytes() throws -> [(table: String, bytes: Int64)] {
        try read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT m.tbl_name, SUM(d.pgsize) FROM dbstat d JOIN sqlite_master m ON m.name = d.name
                WHERE m.tbl_name NOT LIKE 'sqlite_%' AND m.tbl_name NOT LIKE 'grdb_%' GROUP BY 1 ORDER BY 2 DESC, 1
                """).map { ((try $0.decode(0)), (try $0.decode(1))) }
        }
    }

    func freeBytes() -> Int64? {
        let folder = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "/" : folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
