import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reports not yet acknowledged, on disk before `report` returns: an append-only log of
/// NDJSON lines in segment files (each named by the position where it starts), and a state file
/// saying where the unacknowledged ones start.
///
/// A record is appended with one `write` and is then in the kernel's hands: a crash of the app,
/// `SIGKILL` included, loses nothing written. Acknowledged records move the cursor (written by
/// rename); segments wholly before it are deleted. A crash between a send and the cursor's write
/// sends those records again, and their event ids make that harmless. Past the bounds (bytes,
/// records) the oldest records not in flight are dropped and the next event says how many.
/// One process uses a folder at a time (`flock`).
final class DiskQueue: @unchecked Sendable {
    /// The bounds of what waits on disk.
    struct Limits: Sendable, Equatable {
        var maxBytes: Int
        var maxRecords: Int
        /// A new segment starts past this size.
        var segmentBytes: Int
    }

    /// One record: where its line starts (counting across segments), its length with the
    /// newline, and the drop count it carries (`reports_dropped`).
    struct Entry: Equatable {
        var position: Int64
        var length: Int
        var carried: Int
        var end: Int64 { position + Int64(length) }
    }

    let directory: String
    let limits: Limits
    /// Guards everything below; the sender waits on it for records.
    let condition = NSCondition()
    private var lockFD: Int32
    private var segments: [Int64] = []
    private var writeFD: Int32 = -1
    private var segmentSize = 0
    private var end: Int64 = 0
    private(set) var entries: [Entry] = []
    private var queuedBytes = 0
    /// How many of the first entries are being sent.
    private(set) var inFlight = 0
    /// Drops not yet carried by an event.
    private var pendingDropped = 0
    private(set) var state: QueueState
    /// The state changed since it was last taken for writing.
    private var stateDirty = false
    private var stateVersion = 0
    /// Snapshots taken and not yet written.
    private var unwritten = 0
    /// Orders the state's writes (taken without `condition`: a write never holds up an append).
    private let stateWriter = NSLock()
    private var writtenVersion = 0

    private var statePath: String { directory + "/state" }

    /// The state as it must be written, and the segments it lets go.
    struct StateWrite {
        var version: Int
        var state: QueueState
        var deadSegments: [String]
    }

    /// Opens (or makes) the queue in `directory`. `waitForLock`: wait up to half a second for
    /// another process to let the folder go before refusing it (`QueueError.busy`).
    init(directory: String, limits: Limits, waitForLock: Bool = true) throws {
        self.directory = directory
        self.limits = limits
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw QueueError.io("cannot make \(directory): \(error.localizedDescription)")
        }
        lockFD = open(directory + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { throw QueueError.io("cannot open \(directory)/lock: errno \(errno)") }
        // A process that is ending (the app's last launch), or a child between its fork and its
        // exec, may hold the lock a moment longer: wait up to half a second for it.
        var waited = 0
        while flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waitForLock || errno == EINTR, waited < 50 else {
                closeFile(lockFD)
                throw QueueError.busy(directory)
            }
            usleep(10_000)
            waited += 1
        }
        state = QueueState.read(directory + "/state")
        do {
            try load()
        } catch {
            closeFile(lockFD)
            throw error
        }
    }

    deinit { close() }

    /// How many queue folders one app may have at once: `base`, then `base.2` … `base.16`.
    static let maxSiblings = 16

    /// The folders of an app's queues: its own, then one per process beside it (`base.2`, …).
    static func siblings(of base: String) -> [String] {
        var trimmed = Substring(base)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return [base] + (2...maxSiblings).map { "\(trimmed).\($0)" }
    }

    /// Opens the first queue folder of `base`'s (`siblings`) no other process holds: several
    /// processes of one app (an app and its extension, a tool started twice) each get a queue of
    /// their own. None is waited for (the next launch sends what a launch that was still ending
    /// left in its folder: `leftBehind`); when every one is held, `base` is waited for as `init`
    /// waits, and `QueueError.busy` thrown for it.
    static func openFirstFree(base: String, limits: Limits) throws -> DiskQueue {
        for folder in siblings(of: base) {
            do {
                return try DiskQueue(directory: folder, limits: limits, waitForLock: false)
            } catch QueueError.busy {
                continue
            }
        }
        // Every folder was held a moment ago: wait for the app's own folder as a single queue did.
        return try DiskQueue(directory: base, limits: limits)
    }

    /// The queues other launches left records in, among `base`'s folders (but `except`): each one
    /// no process holds now, opened; those left empty are closed again.
    static func leftBehind(base: String, except: Set<String>, limits: Limits) -> [DiskQueue] {
        siblings(of: base).compactMap { folder in
            guard !except.contains(folder), FileManager.default.fileExists(atPath: folder + "/lock"),
                  let queue = try? DiskQueue(directory: folder, limits: limits, waitForLock: false) else { return nil }
            queue.condition.lock()
            let empty = queue.count == 0
            queue.condition.unlock()
            if empty { queue.close() }
            return empty ? nil : queue
        }
    }

    /// Closes the files and lets another process (or a new launch) open the queue.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        if writeFD >= 0 { closeFile(writeFD) }
        if lockFD >= 0 { closeFile(lockFD) }
        writeFD = -1
        lockFD = -1
    }

    // MARK: - Opening

    /// Reads the segments from the cursor on: every whole line not in a dropped range is a
    /// record; a torn last line (a crash mid-write) is cut off.
    private func load() throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        segments = names.compactMap { $0.hasSuffix(".ndjson") ? Int64($0.dropLast(7)) : nil }.sorted()
        for (i, start) in segments.enumerated() {
            let path = segmentPath(start)
            guard var bytes = FileManager.default.contents(atPath: path).map([UInt8].init) else { continue }
            if i == segments.count - 1, let last = bytes.lastIndex(of: 0x0A), last != bytes.count - 1 {
                bytes.removeSubrange((last + 1)...)
                truncate(path, off_t(bytes.count))
            } else if i == segments.count - 1, !bytes.isEmpty, !bytes.contains(0x0A) {
                bytes = []
                truncate(path, 0)
            }
            var lineStart = 0
            for (offset, byte) in bytes.enumerated() where byte == 0x0A {
                let position = start + Int64(lineStart)
                if position >= state.cursor, !state.isDropped(position) {
                    let line = bytes[lineStart...offset]
                    entries.append(Entry(position: position, length: line.count, carried: NativeLine.carriedDrops(line)))
                    queuedBytes += line.count
                }
                lineStart = offset + 1
            }
            if i == segments.count - 1 {
                end = start + Int64(bytes.count)
                segmentSize = bytes.count
            }
        }
        if segments.isEmpty || end < state.cursor {
            end = max(end, state.cursor)
            try startSegment()
        } else {
            writeFD = open(segmentPath(segments.last!), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard writeFD >= 0 else { throw QueueError.io("cannot open \(segmentPath(segments.last!)): errno \(errno)") }
        }
        pendingDropped = state.pendingDropped
        if pendingDropped > 0, entries.contains(where: { $0.position >= state.pendingAt && $0.carried > 0 }) {
            pendingDropped = 0
        }
        var dropped = 0
        while entries.count > limits.maxRecords || queuedBytes > limits.maxBytes, let entry = dropOldest() {
            dropped += 1 + entry.carried
        }
        if dropped > 0 { pendingDropped += dropped }
        // Written afresh at every opening: the segments a crash left before the cursor go.
        stateDirty = true
        try saveState()
    }

    private func segmentPath(_ start: Int64) -> String {
        let digits = String(start)
        return directory + "/" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits + ".ndjson"
    }

    private func startSegment() throws {
        if writeFD >= 0 { closeFile(writeFD) }
        let path = segmentPath(end)
        writeFD = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard writeFD >= 0 else { throw QueueError.io("cannot open \(path): errno \(errno)") }
        if segments.last != end { segments.append(end) }
        segmentSize = 0
    }

    // MARK: - Appending (the caller's thread)

    /// Appends one record made by `encode`, which is given the drop count the record must carry
    /// (always 0 for a complaint, which cannot carry one). Drops the oldest records not in flight
    /// while the bounds would be passed. The record is on disk when this returns.
    func append(isEvent: Bool, _ encode: (Int) -> [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        var bytes = encode(isEvent ? pendingDropped : 0)
        // Room for the count the record may have to carry.
        let reserve = isEvent ? 32 : 0
        var dropped = 0
        while entries.count + 1 > limits.maxRecords || queuedBytes + bytes.count + reserve > limits.maxBytes,
              let entry = dropOldest() {
            dropped += 1 + entry.carried
        }
        if dropped > 0 {
            // Written before the record that tells it, so that a crash between the two loses no count.
            pendingDropped += dropped
            state.pendingAt = end
            try saveState()
            if isEvent { bytes = encode(pendingDropped) }
        }
        if segmentSize > 0, segmentSize + bytes.count > limits.segmentBytes { try startSegment() }
        try appendBytes(bytes)
        let carried = isEvent ? pendingDropped : 0
        entries.append(Entry(position: end, length: bytes.count, carried: carried))
        if isEvent { pendingDropped = 0 }
        queuedBytes += bytes.count
        end += Int64(bytes.count)
        segmentSize += bytes.count
        condition.broadcast()
    }

    /// Writes a whole record or, failing, takes back what part of it was written.
    private func appendBytes(_ bytes: [UInt8]) throws {
        var done = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let n = write(writeFD, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
        if let failure {
            _ = ftruncate(writeFD, off_t(segmentSize))
            throw QueueError.io("cannot append to the report queue: errno \(failure)")
        }
    }

    /// Removes the oldest record not in flight.
    private func dropOldest() -> Entry? {
        guard entries.count > inFlight else { return nil }
        let entry = entries.remove(at: inFlight)
        queuedBytes -= entry.length
        state.droppedTotal += 1
        stateDirty = true
        return entry
    }

    // MARK: - Sending (the sender's thread)

    /// The oldest records, at most `maxRecords` and `maxBytes` (at least one), marked in flight;
    /// nil when there is none or a batch is in flight already. Call with `condition` locked.
    func takeBatch(maxRecords: Int, maxBytes: Int) -> [Entry]? {
        guard inFlight == 0, !entries.isEmpty else { return nil }
        var bytes = 0
        var n = 0
        while n < entries.count, n < maxRecords, n == 0 || bytes + entries[n].length <= maxBytes {
            bytes += entries[n].length
            n += 1
        }
        inFlight = n
        return Array(entries[..<n])
    }

    /// The bytes of records taken by `takeBatch` (read without the lock: appends never touch them),
    /// a run of adjacent records in one segment with one read.
    func body(of batch: [Entry]) throws -> [UInt8] {
        condition.lock()
        let starts = segments
        condition.unlock()
        var body = [UInt8](repeating: 0, count: batch.reduce(0) { $0 + $1.length })
        var filled = 0
        var i = 0
        while i < batch.count {
            let first = batch[i]
            guard let start = starts.last(where: { $0 <= first.position }) else {
                throw QueueError.io("record at \(first.position) has no segment")
            }
            let next = starts.first { $0 > first.position } ?? Int64.max
            var j = i + 1
            while j < batch.count, batch[j].position == batch[j - 1].end, batch[j].end <= next { j += 1 }
            let length = Int(batch[j - 1].end - first.position)
            let path = segmentPath(start)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw QueueError.io("cannot read \(path): errno \(errno)") }
            let n = body.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, length, off_t(first.position - start)) }
            closeFile(fd)
            guard n == length else { throw QueueError.io("short read in \(path)") }
            filled += length
            i = j
        }
        return body
    }

    /// The batch in flight was acknowledged (or refused for good): its records leave the queue.
    /// The state is written by whoever takes `pendingStateWrite` next. Call with `condition` locked.
    func acknowledge() {
        let done = entries[..<inFlight]
        queuedBytes -= done.reduce(0) { $0 + $1.length }
        entries.removeFirst(inFlight)
        inFlight = 0
        stateDirty = true
        condition.broadcast()
    }

    /// The batch in flight stays queued (a failure: it will be sent again). Call with `condition` locked.
    func release() {
        inFlight = 0
        condition.broadcast()
    }

    /// Changes the backoff (written by whoever takes `pendingStateWrite` next). Call with `condition` locked.
    func setBackoff(attempt: Int, notBefore: Double, endpoint: String?) {
        guard state.attempt != attempt || state.notBefore != notBefore || state.endpoint != endpoint else { return }
        state.attempt = attempt
        state.notBefore = notBefore
        state.endpoint = endpoint
        stateDirty = true
    }

    /// Records on disk not yet acknowledged. Call with `condition` locked.
    var count: Int { entries.count }

    /// `count`, taking the lock.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    /// Whether every change of the state is written. Call with `condition` locked.
    var isSettled: Bool { !stateDirty && unwritten == 0 }

    // MARK: - State

    /// The state to write if it changed since the last one taken: the cursor at the first
    /// unacknowledged record, every stretch between records a dropped range; and the segments
    /// wholly before the cursor, to delete once it is written. Call with `condition` locked, then
    /// `store` it (without the lock) and call `stateStored`.
    func pendingStateWrite() -> StateWrite? {
        guard stateDirty else { return nil }
        stateDirty = false
        state.cursor = entries.first?.position ?? end
        var gaps: [[Int64]] = []
        for (a, b) in zip(entries, entries.dropFirst()) where a.end < b.position { gaps.append([a.end, b.position]) }
        if let last = entries.last, last.end < end { gaps.append([last.end, end]) }
        state.gaps = gaps
        state.pendingDropped = pendingDropped
        stateVersion += 1
        unwritten += 1
        var dead: [String] = []
        // The segment being written stays, however far the cursor is.
        while segments.count > 1, segments[1] <= state.cursor { dead.append(segmentPath(segments.removeFirst())) }
        return StateWrite(version: stateVersion, state: state, deadSegments: dead)
    }

    /// Writes a state taken by `pendingStateWrite` (an older one never replaces a newer one), then
    /// deletes the segments it lets go.
    func store(_ write: StateWrite) throws {
        stateWriter.lock()
        defer { stateWriter.unlock() }
        if write.version > writtenVersion {
            try write.state.write(statePath)
            writtenVersion = write.version
        }
        for path in write.deadSegments { unlink(path) }
    }

    /// A write taken by `pendingStateWrite` is done. Call with `condition` locked.
    func stateStored() {
        unwritten -= 1
        condition.broadcast()
    }

    /// Writes the state now, if it changed. Call with `condition` locked.
    func saveState() throws {
        guard let write = pendingStateWrite() else { return }
        defer { stateStored() }
        try store(write)
    }
}

/// The C library's `close`, which the queue's own `close()` hides inside the class.
private func closeFile(_ fd: Int32) {
    _ = close(fd)
}

/// What the queue reads of its own lines.
enum NativeLine {
    /// The `reports_dropped` count a line carries, 0 if none.
    static func carriedDrops(_ line: ArraySlice<UInt8>) -> Int {
        let marker = Array("\"\(NativeRecord.droppedKey)\":\"".utf8)
        guard line.count > marker.count else { return 0 }
        var i = line.startIndex
        while i + marker.count <= line.endIndex {
            if line[i] == marker[0], line[i..<(i + marker.count)].elementsEqual(marker) {
                var n = 0
                var j = i + marker.count
                while j < line.endIndex, line[j] >= 48, line[j] <= 57 {
                    n = n * 10 + Int(line[j] - 48)
                    j += 1
                }
                return n
            }
            i += 1
        }
        return 0
    }
}
