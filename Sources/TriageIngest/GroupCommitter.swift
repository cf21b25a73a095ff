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
public final class GroupCommitter: @unchecked Sendable {  // the queue and its state are guarded by `condition`
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
    public static let defaultMaxRecords = 2_000
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
    private var storeFailure: StoreError?
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

    /// The store's failure, while the last group ended in one (nil once a group commits again).
    public var failing: StoreError? {
        condition.lock()
        defer { condition.unlock() }
        return storeFailure
    }

    private func setFailing(_ error: StoreError?) {
        condition.lock()
        storeFailure = error
        condition.unlock()
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
        while let next = nextGroup(quietAfter: writer?.hasPendingSample == true ? Self.quietFlush : nil) {
            switch next {
            case .group(let group): commit(group)
            case .quiet: flushSample()
            }
        }
        flushSample()
        store = nil
        writer = nil
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// What the writer thread does next.
    private enum Next {
        case group([Pending])
        /// Nothing came for `quietFlush`: the sample's waiting roles are written.
        case quiet
    }

    /// How long the queue stays empty before the sample's waiting roles (each issue's latest event, …)
    /// are written; with traffic they are written once an interval (`roleInterval`) with a commit.
    static let quietFlush: TimeInterval = 2
    /// How often a busy server writes the roles' candidates, in nanoseconds.
    static let roleInterval: UInt64 = 10_000_000_000

    /// Waits for work; takes the queue's head up to `maxRecords` (always one submission at least).
    /// A short queue waits up to `linger` for company first: a commit's fixed cost is then shared
    /// by the callers of a moderate rate too, for a wait far below the commit's own. Nil once closed
    /// and drained; `.quiet` when `quietAfter` passes with nothing queued.
    private func nextGroup(quietAfter: TimeInterval?) -> Next? {
        condition.lock()
        defer { condition.unlock() }
        if let quietAfter {
            let until = Date(timeIntervalSinceNow: quietAfter)
            while queue.isEmpty && !closing && condition.wait(until: until) {}
            if queue.isEmpty && !closing { return .quiet }
        }
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
        return .group(group)
    }

    /// Writes the sample's waiting roles; a failure leaves them for the next commit to retry.
    private func flushSample() {
        guard let writer, writer.hasPendingSample else { return }
        do {
            try writer.flushSample()
        } catch {
            onFailure(error)
        }
    }

    private func commit(_ group: [Pending]) {
        let started = DispatchTime.now().uptimeNanoseconds
        func fail(_ error: StoreError) {
            setFailing(error)
            for pending in group { pending.done(.failure(error)) }
            onFailure(error)
        }
        do {
            try openWriter()
        } catch {
            return fail(StoreError.from(error))
        }
        var counts = IngestCounts()
        var committed: [Pending] = []
        var attempts = Self.attemptBudget(group.count)
        let refused = settle(group, counts: &counts, committed: &committed, attempts: &attempts)
        if !committed.isEmpty { setFailing(nil) }
        for pending in committed { pending.done(.success(())) }
        guard let (members, error) = refused else {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            onCommit(Commit(counts: counts, submissions: group.count, records: group.reduce(0) { $0 + $1.records }, seconds: seconds))
            return
        }
        if committed.isEmpty {
            // Nothing of the group could be written: the store failed, not one sender's data.
            return fail(error)
        }
        // The others were written without them: what they sent is what the store refused.
        var refusal = error
        refusal.isRefusedData = true
        for pending in members { pending.done(.failure(refusal)) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        onCommit(Commit(counts: counts, submissions: committed.count, records: committed.reduce(0) { $0 + $1.records }, seconds: seconds))
    }

    /// The writer, opened (again after a failure) and checked (`beforeCommit`).
    private func openWriter() throws {
        if writer != nil, let store {
            // A refusal here (a free-space floor) leaves the store open as it is.
            try beforeCommit?(store)
            return
        }
        let store = try open()
        try beforeCommit?(store)
        let writer = try IngestWriter(store: store)
        writer.roleFlushNanoseconds = Self.roleInterval
        self.writer = writer
        self.store = store
    }

    /// How many transactions a group may take when its commit fails: enough to find two bad
    /// submissions among thousands by halving, and few enough that a store failing every
    /// write (a full disk) costs a bounded retry.
    public static func attemptBudget(_ submissions: Int) -> Int {
        var log2 = 0
        while (1 << log2) < submissions { log2 += 1 }
        return 4 * log2 + 2
    }

    /// Writes `members` in one transaction; when it fails, writes each half in its own, down to
    /// the submissions the store refuses, so one sender's records never fail another's request.
    /// Returns the submissions left unwritten and the last error, or nil when all were written.
    private func settle(_ members: [Pending], counts: inout IngestCounts, committed: inout [Pending],
                        attempts: inout Int) -> (members: [Pending], error: StoreError)? {
        let failure: StoreError
        do {
            attempts -= 1
            try openWriter()
            var next = 0
            counts += try writer!.write(batches: {
                guard next < members.count else { return nil }
                defer { next += 1 }
                return members[next].batch
            })
            committed += members
            return nil
        } catch {
            // The transaction rolled back. The next one opens the store afresh (a connection
            // PostgreSQL dropped is not used again).
            self.writer = nil
            self.store = nil
            failure = StoreError.from(error)
        }
        guard members.count > 1, attempts > 0 else { return (members, failure) }
        let half = members.count / 2
        let first = settle(Array(members[..<half]), counts: &counts, committed: &committed, attempts: &attempts)
        let second = settle(Array(members[half...]), counts: &counts, committed: &committed, attempts: &attempts)
        switch (first, second) {
        case (nil, nil): return nil
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (let a?, let b?): return (a.members + b.members, b.error)
        }
    }
}

extension StoreError {
    /// Any error as a store failure (a `StoreError` as it is).
    static func from(_ error: any Error) -> StoreError {
        error as? StoreError ?? StoreError("\(error)")
    }
}
