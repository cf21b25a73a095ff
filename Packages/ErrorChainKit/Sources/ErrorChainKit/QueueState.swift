import Foundation

/// What the queue keeps beside its records (the file `state`, replaced whole by rename, so a
/// crash leaves the old one or the new one): where the unacknowledged records start, the ranges
/// dropped after that, the drop count not yet told, and the backoff that must outlive a launch.
struct QueueState: Codable, Equatable {
    /// Every record before this position was acknowledged or dropped.
    var cursor: Int64 = 0
    /// Ranges after `cursor` whose records were dropped, `[from, to]`, in order.
    var gaps: [[Int64]] = []
    /// Reports dropped and not yet told by an event's `reports_dropped`.
    var pendingDropped = 0
    /// Where the queue ended when `pendingDropped` was set: an event at or after it that carries
    /// a count told it (the state may not have been written again before a crash).
    var pendingAt: Int64 = 0
    /// Reports dropped since the queue was made.
    var droppedTotal = 0
    /// Failed attempts in a row (the backoff's exponent).
    var attempt = 0
    /// No request before this time (seconds since 1970): a backoff or a server's rate limit.
    var notBefore: Double = 0
    /// The endpoint the backoff is about: another endpoint starts afresh.
    var endpoint: String?

    /// Whether `position` lies in a dropped range.
    func isDropped(_ position: Int64) -> Bool {
        gaps.contains { $0.count == 2 && position >= $0[0] && position < $0[1] }
    }

    static func read(_ path: String) -> QueueState {
        guard let data = FileManager.default.contents(atPath: path),
              let state = try? JSONDecoder().decode(QueueState.self, from: data) else { return QueueState() }
        return state
    }

    /// Writes to `path` through a temporary file and a rename (JSON written by hand: this runs
    /// after every acknowledged batch).
    func write(_ path: String) throws {
        var w = JSONWriter()
        w.open()
        w.field("cursor", Int64(cursor))
        w.field("gaps", raw: "[" + gaps.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]")
        w.field("pendingDropped", pendingDropped)
        w.field("pendingAt", Int64(pendingAt))
        w.field("droppedTotal", droppedTotal)
        w.field("attempt", attempt)
        w.field("notBefore", raw: notBefore.isFinite ? String(notBefore) : "0")
        w.field("endpoint", endpoint)
        w.close()
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw QueueError.io("cannot write \(temporary): errno \(errno)") }
        let written = writeFile(fd, w.bytes)
        guard written == w.bytes.count else { throw QueueError.io("cannot write \(temporary): errno \(errno)") }
        guard rename(temporary, path) == 0 else { throw QueueError.io("cannot rename \(temporary): errno \(errno)") }
    }
}

/// Why the queue could not open or write.
public enum QueueError: Error, Equatable, CustomStringConvertible {
    /// Another process holds the queue's folder.
    case busy(String)
    case io(String)

    public var description: String {
        switch self {
        case .busy(let folder): "another process is using the report queue in \(folder)"
        case .io(let reason): "report queue: \(reason)"
        }
    }
}

/// The C library's `write` of all of `bytes`, then `close` (hidden inside `QueueState` by its own `write`).
private func writeFile(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    return written
}
