import Foundation
import TriageImport
import TriageModel
import TriageStore
import Synchronization

/// One line of input that was not kept: where it was, why, and its bytes (the start of a long one).
public struct Rejection: Sendable, Equatable {
    /// The input's name: a file's path, `-` for standard input, or a request's.
    public var input: String
    public var line: Int
    public var reason: String
    public var raw: [UInt8]
}

/// Why an ingest stopped: the store failed after `committed` was written (kept: running the same
/// input again adds only what is missing).
public struct IngestStoreFailure: Error, CustomStringConvertible {
    public var error: StoreError
    public var committed: IngestSummary
    public var description: String { error.message }
}

/// Reads inputs (files, standard input, bytes in memory such as a request's body) into a store.
///
/// A second thread reads and decodes batches of `batchSize` records while this one writes the
/// previous ones; at most `DecodedBatch.inFlight` batches wait, so memory stays flat however long
/// the input. Batches go to the store in transactions that start at one batch, so that the first
/// events show at once, and double up to `eventsPerTransaction`, so that a long ingest writes each
/// rollup row once per many batches; each is cut short after `transactionMillis`, so that a mark
/// made meanwhile waits at most about that long. Rejected lines go to `onReject` after the
/// transaction that followed them committed, in input order; every good line is kept.
public final class IngestPipeline {
    public static let batchSize = 2_000
    public static let eventsPerTransaction = 50_000
    public static let transactionMillis: UInt64 = 1_000
    /// How often a long ingest writes the sample's roles (each issue's latest event, …), in
    /// nanoseconds; they are written at the end of each input too.
    static let roleInterval: UInt64 = 10_000_000_000

    let writer: IngestWriter
    /// Records per batch (`batchSize` unless a test asks for another).
    let batchRecords: Int
    let onReject: (Rejection) throws -> Void
    let onProgress: ((IngestProgress) -> Void)?
    private let cancelled = Flag()
    /// Everything ingested by this pipeline so far.
    public private(set) var summary = IngestSummary()

    public init(store: TriageStore, batchSize: Int = IngestPipeline.batchSize, onReject: @escaping (Rejection) throws -> Void,
                onProgress: ((IngestProgress) -> Void)? = nil) throws(StoreError) {
        writer = try IngestWriter(store: store)
        writer.roleFlushNanoseconds = IngestPipeline.roleInterval
        batchRecords = max(1, batchSize)
        self.onReject = onReject
        self.onProgress = onProgress
    }

    /// The free space the store's disk must keep: a transaction that would start below it is
    /// refused (`StoreError.isBelowFloor`), and what committed before stays. Nil: no floor.
    public var minFreeBytes: Int64? {
        get { writer.minFreeBytes }
        set { writer.minFreeBytes = newValue }
    }

    /// Stops the input being read at the next batch; what was committed stays. Safe from any thread.
    public func cancel() { cancelled.set() }

    /// Reads one file (or `-` for standard input). `project`: the project of every event that names none.
    @discardableResult
    public func ingest(file: String, source: SourceKind? = nil, project: String? = nil) throws -> IngestSummary {
        try ingest(try RecordReader(path: file, source: source), project: project)
    }

    /// Reads bytes in memory under a name (a request's body), received at `receivedAt` (the time of
    /// a user report whose envelope gives none). `project`: the project of every event that names none.
    @discardableResult
    public func ingest(bytes: [UInt8], name: String, source: SourceKind? = nil, project: String? = nil,
                       receivedAt: Timestamp? = nil) throws -> IngestSummary {
        try ingest(try RecordReader(bytes: bytes, name: name, source: source, receivedAt: receivedAt), project: project)
    }

    /// Reads one input to its end (or until cancelled); returns what it gave. `project`: the
    /// project of every event that names none (`ingest --project`, or the key a request came with).
    /// Throws `InputError` when the input cannot be read, `IngestStoreFailure` when the store fails.
    public func ingest(_ reader: RecordReader, project: String? = nil) throws -> IngestSummary {
        var this = IngestSummary()
        let channel = BatchChannel(capacity: DecodedBatch.inFlight)
        let done = DispatchSemaphore(value: 0)
        let decoding = Thread { [box = UncheckedBox(reader), cancelled, batchRecords] in
            DecodedBatch.produce(from: box.value, size: batchRecords, project: project, into: channel, cancelled: cancelled)
            done.signal()
        }
        decoding.stackSize = 8 << 20  // the JSON parser recurses up to its depth limit
        decoding.start()
        defer {
            channel.cancel()
            done.wait()
            summary += this
        }
        var failure: Error?
        var drained = false
        var seen = 0
        var cap = batchRecords
        while !drained && failure == nil {
            defer { cap = min(cap * 2, IngestPipeline.eventsPerTransaction) }
            var inTransaction = 0
            var rejects: [(line: Int, reason: String, raw: [UInt8])] = []
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                this.counts += try writer.write(batches: {
                    guard inTransaction < cap,
                          DispatchTime.now().uptimeNanoseconds - started < IngestPipeline.transactionMillis * 1_000_000
                    else { return nil }
                    guard let item = channel.take() else { drained = true; return nil }
                    switch item {
                    case .failed(let error):
                        failure = error
                        return nil
                    case .batch(let batch):
                        rejects += batch.rejects
                        seen += batch.records.events.count
                        inTransaction += batch.records.events.count + batch.records.complaints.count + batch.records.adoption.count + batch.rejects.count
                        onProgress?(IngestProgress(input: reader.path, bytesRead: batch.bytesRead, totalBytes: reader.totalBytes, events: seen))
                        return batch.records
                    }
                })
            } catch {
                var committed = summary
                committed += this
                throw IngestStoreFailure(error: error, committed: committed)
            }
            for rejected in rejects {
                this.rejected += 1
                try onReject(Rejection(input: reader.path, line: rejected.line, reason: rejected.reason, raw: rejected.raw))
            }
        }
        if let failure { throw failure }
        do {
            try writer.flushSample()
        } catch {
            var committed = summary
            committed += this
            throw IngestStoreFailure(error: error, committed: committed)
        }
        // The channel is drained: the decoding thread closed it and is done with the reader.
        this.envelopes = reader.envelopeCount
        this.skippedItems = reader.skippedItems
        return this
    }
}

/// What the decoding thread hands the writer: one transaction's records and the lines rejected before them.
public struct DecodedBatch: Sendable {
    /// Batches decoded ahead of the writer at most.
    static let inFlight = 2
    /// Rejected lines carry their text: a batch of nothing but rejections goes out at this count.
    static let maxRejects = 256

    /// The good records, prepared for the writer on the decoding thread.
    public var records = IngestWriter.Batch(events: [], complaints: [])
    public var rejects: [(line: Int, reason: String, raw: [UInt8])] = []
    public var bytesRead: Int64 = 0

    enum Item: Sendable {
        case batch(DecodedBatch)
        case failed(InputError)
    }

    /// Reads and decodes a whole input in batches of `size` records, each prepared for the writer;
    /// `body` returns false to stop; `project` is given to every event that names none. The
    /// decoding thread's work, alone.
    public static func each(from reader: RecordReader, size: Int = IngestPipeline.batchSize, project: String? = nil,
                            _ body: (DecodedBatch) throws -> Bool) throws {
        var batch = DecodedBatch()
        while let result = try reader.next() {
            switch result {
            case .record(_, .event(var e)):
                if e.project == nil { e.project = project }
                batch.records.events.append(e)
            case .record(_, .complaint(let c)): batch.records.complaints.append(c)
            case .record(_, .adoption(let a)): batch.records.adoption.append(a)
            case .rejected(let line, let reason, let raw): batch.rejects.append((line, reason, raw))
            }
            if batch.records.events.count + batch.records.complaints.count + batch.records.adoption.count >= size
                || batch.rejects.count >= maxRejects {
                batch.bytesRead = reader.bytesRead
                batch.records.prepare()
                guard try body(batch) else { return }
                batch = DecodedBatch()
            }
        }
        batch.bytesRead = reader.bytesRead
        batch.records.prepare()
        if !batch.records.events.isEmpty || !batch.records.complaints.isEmpty || !batch.records.adoption.isEmpty || !batch.rejects.isEmpty {
            _ = try body(batch)
        }
    }

    /// Decodes the whole input into the channel, then closes it; stops early when the writer goes or the pipeline is cancelled.
    static func produce(from reader: RecordReader, size: Int, project: String?, into channel: BatchChannel, cancelled: Flag) {
        do {
            try each(from: reader, size: size, project: project) { batch in !cancelled.isSet && channel.put(.batch(batch)) }
        } catch let error as InputError {
            _ = channel.put(.failed(error))
        } catch {
            _ = channel.put(.failed(InputError(path: reader.path, reason: "\(error)")))
        }
        channel.close()
    }
}

/// A bounded queue between the decoding thread and the writer.
final class BatchChannel: @unchecked Sendable {  // `items` and the flags are guarded by `condition`
    private let condition = NSCondition()
    private var items: [DecodedBatch.Item] = []
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// Waits for room; false when the reader has gone (cancelled).
    func put(_ item: DecodedBatch.Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Waits for an item; nil once the writer closed the channel and it is empty.
    func take() -> DecodedBatch.Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && !cancelled { condition.wait() }
        guard !items.isEmpty, !cancelled else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The reader stops: a waiting writer gives up.
    func cancel() {
        condition.lock()
        cancelled = true
        items = []
        condition.broadcast()
        condition.unlock()
    }
}

/// A flag one thread sets and another reads.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// Hands a value that one thread uses at a time to another thread: unchecked because `T` (a
/// store's connection, a decoder) is not `Sendable` itself, and the handing over is what makes it safe.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
