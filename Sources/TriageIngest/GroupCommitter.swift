import Foundation
import TriageModel
import TriageStore

/// Many callers' records in one transaction: the intake of `errtriage serve`.
///
/// Callers (a server's connections, any number at once) `submit` decoded records and wait; one
/// writer thread takes everything queued — up to `maxEvents` — writes it in one transaction
/// through an `IngestWriter`, and only then answers every caller of that group. While a commit
/// runs, the next group gathers, so many small requests cost one commit and the wait is at most
/// one commit's time beyond the caller's own. A caller is told of success only after its records
/// are committed: a crash at any moment loses nothing that was acknowledged.
///
/// When the store fails (a full disk, PostgreSQL gone), that group's callers are told, nothing of
/// it is kept (its transaction rolled back), and the next group opens the store afresh: the intake
/// recovers by itself once the store does.
public final class GroupCommitter: @unchecked Sendable {
    /// What one group's commit did.
    public struct Commit: Sendable {
        public var counts: IngestCounts
        /// The callers answered by this commit.
        public var submissions: Int
        /// Records written (events, complaints, adoption rows).
        public var records: Int
        public var seconds: Double
    }

    /// Opens the store the writer writes to (again after a failure).
    public typealias Opener = @Sendable () throws -> TriageStore

    /// Records in one group at most: a queue longer than this is committed in several transactions.
    public static let defaultMaxRecords = 20_000
    /// How long a short queue waits for more before its commit (`linger`), and what is short.
    public static let defaultLinger = 0.002
    static let lingerBelow = 16

    private struct Pending {
        var batch: IngestWriter.Batch
        var records: Int
        var done: @Sendable (Result<Void, StoreError>) -> Void
    }

    private let condition = NSCondition()
    private var queue: [Pending] = []
    private var queuedRecords = 0
    private var closing = false
    private var finished = false
    private let open: Opener
    private let maxRecords: Int
    private let linger: Double
    private let beforeCommit: (@Sendable (TriageStore) throws -> Void)?
    private let onCommit: @Sendable (Commit) -> Void
    private let onFailure: @Sendable (StoreError) -> Void
    // The writer thread's own.
    private var store: TriageStore?
    private var writer: IngestWriter?

    /// - Parameters:
    ///   - open: opens the store; called on the writer thread, first when the first group comes.
    ///   - beforeCommit: checked before each group is written (a free-space floor, say); a throw
    ///     fails the group as a store failure would, and keeps the store open.
    ///   - onCommit: told of each commit, on the writer thread, after the callers were answered.
    ///   - onFailure: told of each failed group, on the writer thread.
    public init(maxRecords: Int = GroupCommitter.defaultMaxRecords, linger: Double = GroupCommitter.defaultLinger, open: @escaping Opener,
                beforeCommit: (@Sendable (TriageStore) throws -> Void)? = nil,
                onCommit: @escaping @Sendable (Commit) -> Void = { _ in },
                onFailure: @escaping @Sendable (StoreError) -> Void = { _ in }) {
        self.open = open
        self.maxRecords = max(1, maxRecords)
        self.linger = max(0, linger)
        self.beforeCommit = beforeCommit
        self.onCommit = onCommit
        self.onFailure = onFailure
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "errtriage group commit"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Records waiting for the next commit.
    public var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return queuedRecords
    }

    /// Queues records; `done` is called once they are committed, or with the store's failure.
    /// After `close()`, fails at once.
    public func submit(_ batch: IngestWriter.Batch, done: @escaping @Sendable (Result<Void, StoreError>) -> Void) {
        let records = batch.events.count + batch.complaints.count + batch.adoption.count
        condition.lock()
        guard !closing else {
            condition.unlock()
            done(.failure(StoreError("the server is stopping")))
            return
        }
        queue.append(Pending(batch: batch, records: records, done: done))
        queuedRecords += records
        condition.broadcast()
        condition.unlock()
    }

    /// Queues records and waits for their commit.
    public func submit(_ batch: IngestWriter.Batch) async throws(StoreError) {
        let result: Result<Void, StoreError> = await withCheckedContinuation { continuation in
            submit(batch) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Stops taking records, commits what is queued, and returns when the writer thread is done.
    public func close() {
        condition.lock()
        closing = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while let group = nextGroup() {
            commit(group)
        }
        store = nil
        writer = nil
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for work; takes the queue's head up to `maxRecords` (always one submission at least).
    /// A short queue waits up to `linger` for company first: a commit's fixed cost is then shared
    /// by the callers of a moderate rate too, for a wait far below the commit's own.
    private func nextGroup() -> [Pending]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !closing { condition.wait() }
        guard !queue.isEmpty else { return nil }
        if linger > 0 && queue.count < Self.lingerBelow && !closing {
            let until = Date(timeIntervalSinceNow: linger)
            while queue.count < Self.lingerBelow && !closing && condition.wait(until: until) {}
        }
        var count = 0
        var records = 0
        for pending in queue {
            if count > 0 && records + pending.records > maxRecords { break }
            count += 1
            records += pending.records
        }
        let group = Array(queue.prefix(count))
        queue.removeFirst(count)
        queuedRecords -= records
        return group
    }

    private func commit(_ group: [Pending]) {
        let started = DispatchTime.now().uptimeNanoseconds
        func fail(_ error: StoreError) {
            for pending in group { pending.done(.failure(error)) }
            onFailure(error)
        }
        let writer: IngestWriter
        do {
            if let open = self.writer, let store {
                // A refusal here (a free-space floor) leaves the store open as it is.
                try beforeCommit?(store)
                writer = open
            } else {
                let store = try open()
                try beforeCommit?(store)
                writer = try IngestWriter(store: store)
                self.store = store
                self.writer = writer
            }
        } catch {
            return fail(StoreError.from(error))
        }
        do {
            var next = 0
            let counts = try writer.write(batches: {
                guard next < group.count else { return nil }
                defer { next += 1 }
                return group[next].batch
            })
            for pending in group { pending.done(.success(())) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            onCommit(Commit(counts: counts, submissions: group.count, records: group.reduce(0) { $0 + $1.records }, seconds: seconds))
        } catch {
            // The transaction rolled back: nothing of the group was kept. The next group opens
            // the store afresh (a connection PostgreSQL dropped is not used again).
            self.writer = nil
            self.store = nil
            fail(StoreError.from(error))
        }
    }
}

extension StoreError {
    /// Any error as a store failure (a `StoreError` as it is).
    static func from(_ error: any Error) -> StoreError {
        error as? StoreError ?? StoreError("\(error)")
    }
}
