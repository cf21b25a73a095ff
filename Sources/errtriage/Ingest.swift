import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TriageImport
import TriageModel
import TriageStore

/// `errtriage ingest FILE...`: reads events and complaints into the store.
struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read events and complaints from NDJSON files (plain or .gz; - for stdin) into the store.",
        discussion: """
            Prints one summary line. A bad line is reported as FILE:LINE: reason, copied verbatim to a \
            rejects file next to the store, and skipped; every good line is kept (exit code 2).
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: "Read every file as this source: native, crashlytics, sentry, elk, desk, adoption or sessions (default: a CSV file by its header, each JSON line by its own members).")
    var source: SourceKind?

    @Argument(help: "Files to read; - reads standard input.")
    var files: [String]

    func run() throws {
        try runReporting {
            let store = try options.open()
            var ingestion = try Ingestion(store: store)
            var unreadable = 0
            for file in files {
                do {
                    try ingestion.ingest(file: file, source: source)
                } catch let error as InputError {
                    Stderr.write("errtriage: \(error.description)\n")
                    unreadable += 1
                }
            }
            let revived = try store.applyDueMutes(now: options.nowTimestamp())
            if ingestion.counts.eventsAdded + ingestion.counts.complaintsAdded > 0 { try store.refreshStatistics() }
            print(ingestion.summary(files: files.count))
            for key in revived { print("\(key): muted → open (its mute condition is met)") }
            if unreadable > 0 || ingestion.rejected > 0 { throw ExitCode(2) }
        }
    }
}

/// One ingest run: streams files through the decoder into the store in batches.
struct Ingestion {
    static let batchSize = 2_000
    static let eventsPerTransaction = 50_000
    static let transactionMillis: UInt64 = 1_000
    static let maxReportedRejects = 50

    let writer: IngestWriter
    let rejectsPath: String
    var counts = IngestCounts()
    var rejected = 0
    /// Envelopes read, and their items not stored, by type.
    var envelopes = 0
    var skippedItems: [String: Int] = [:]
    private var rejectsFile: FileHandle?

    init(store: TriageStore) throws {
        do { writer = try IngestWriter(store: store) } catch { throw CLIError.store(error.message) }
        // A team store has no folder of its own: its rejects go to the current folder, by database name.
        rejectsPath = store.isPostgres ? "errtriage-\(store.path.split(separator: "/").last.map(String.init) ?? "store").rejects"
            : store.path + ".rejects"
    }

    /// Reads one file: a second thread reads and decodes batches while this one writes the
    /// previous batch (both cores where it pays); at most `DecodedBatch.inFlight` batches wait, so
    /// memory stays flat however long the file.
    mutating func ingest(file: String, source: SourceKind? = nil) throws {
        let reader = try RecordReader(path: file, source: source)
        var progress = Progress(file: file, total: reader.totalBytes)
        let channel = BatchChannel(capacity: DecodedBatch.inFlight)
        let done = DispatchSemaphore(value: 0)
        let decoding = Thread { [box = UncheckedBox(reader)] in
            DecodedBatch.produce(from: box.value, into: channel)
            done.signal()
        }
        decoding.stackSize = 8 << 20  // the JSON parser recurses up to its depth limit
        decoding.start()
        defer {
            channel.cancel()
            done.wait()
        }
        // Batches go to the store in transactions that start at one batch, so that the first
        // events show at once, and double up to `eventsPerTransaction`, so that a long ingest
        // writes each rollup row once per many batches; each is cut short after `transactionMillis`
        // so that a mark made meanwhile waits at most about that long.
        var failure: Error?
        var drained = false
        var seen = 0
        var cap = Ingestion.batchSize
        while !drained && failure == nil {
            defer { cap = min(cap * 2, Ingestion.eventsPerTransaction) }
            var inTransaction = 0
            var rejects: [(line: Int, reason: String, raw: [UInt8])] = []
            let started = DispatchTime.now().uptimeNanoseconds
            let written: IngestCounts
            do {
                written = try writer.write(batches: {
                    guard inTransaction < cap,
                          DispatchTime.now().uptimeNanoseconds - started < Ingestion.transactionMillis * 1_000_000
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
                        progress.update(bytes: batch.bytesRead, events: seen)
                        return batch.records
                    }
                })
            } catch {
                throw CLIError.store("\(error.message); the \(counts.eventsAdded) events and \(counts.complaintsAdded) complaints "
                                     + "committed before it are kept, and running the same ingest again adds only what is missing")
            }
            counts += written
            for rejected in rejects {
                try reject(file: file, line: rejected.line, reason: rejected.reason, raw: rejected.raw)
            }
        }
        if let failure { throw failure }
        // The channel is drained: the decoding thread closed it and is done with the reader.
        envelopes += reader.envelopeCount
        skippedItems.merge(reader.skippedItems, uniquingKeysWith: +)
        progress.finish()
    }

    private mutating func reject(file: String, line: Int, reason: String, raw: [UInt8]) throws {
        rejected += 1
        if rejected <= Ingestion.maxReportedRejects {
            Stderr.write("\(file):\(line): \(reason)\n")
        } else if rejected == Ingestion.maxReportedRejects + 1 {
            Stderr.write("errtriage: more rejected lines follow; all are in \(rejectsPath)\n")
        }
        if rejectsFile == nil {
            if !FileManager.default.fileExists(atPath: rejectsPath) {
                FileManager.default.createFile(atPath: rejectsPath, contents: nil)
            }
            rejectsFile = FileHandle(forWritingAtPath: rejectsPath)
            rejectsFile?.seekToEndOfFile()
        }
        var data = Data(raw)
        data.append(0x0A)
        rejectsFile?.write(data)
    }

    func summary(files: Int) -> String {
        var parts = ["\(counts.eventsAdded) events added", "\(counts.duplicates) duplicates",
                     "\(counts.complaintsAdded) complaints added", "\(counts.issuesCreated) new issues"]
        if counts.complaintDuplicates > 0 { parts.append("\(counts.complaintDuplicates) duplicate complaints") }
        if counts.regressions > 0 { parts.append("\(counts.regressions) issues regressed") }
        if counts.adoptionRows > 0 { parts.append("\(counts.adoptionRows) adoption rows") }
        if envelopes > 0 {
            let skipped = skippedItems.values.reduce(0, +)
            let kinds = skippedItems.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }
            parts.append("\(envelopes) envelopes" + (skipped > 0 ? " (\(skipped) item\(skipped == 1 ? "" : "s") not stored: \(kinds.joined(separator: ", ")))" : ""))
        }
        parts.append("\(rejected) rejected lines" + (rejected > 0 ? " (copied to \(rejectsPath))" : ""))
        return "ingest: " + parts.joined(separator: ", ")
    }
}

extension SourceKind: ExpressibleByArgument {}

/// A one-line progress bar on stderr (bytes, events per second, time left), only when stderr is a terminal.
struct Progress {
    let file: String
    let total: Int64?
    let started = Date()
    let enabled = isatty(2) != 0
    var shown = false

    init(file: String, total: Int64?) {
        self.file = file
        self.total = total
    }

    mutating func update(bytes: Int64, events: Int) {
        guard enabled else { return }
        let elapsed = max(0.001, Date().timeIntervalSince(started))
        let rate = Int(Double(events) / elapsed)
        var line = "\r\u{1B}[K\(file): \(events) events, \(rate)/s"
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let filled = Int(fraction * 24)
            let left = fraction > 0 ? Int(elapsed / fraction - elapsed) : 0
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "] "
                + "\(Int(fraction * 100))%, \(left)s left"
        } else {
            line += ", \(bytes >> 20) MiB read"
        }
        Stderr.write(line)
        shown = true
    }

    func finish() {
        if shown { Stderr.write("\r\u{1B}[K") }
    }
}

/// What the decoding thread hands the writer: one transaction's records and the lines rejected before them.
struct DecodedBatch: Sendable {
    /// Batches decoded ahead of the writer at most.
    static let inFlight = 2
    /// Rejected lines carry their text: a batch of nothing but rejections goes out at this count.
    static let maxRejects = 256

    /// The good records, prepared for the writer on the decoding thread.
    var records = IngestWriter.Batch(events: [], complaints: [])
    var rejects: [(line: Int, reason: String, raw: [UInt8])] = []
    var bytesRead: Int64 = 0

    enum Item: Sendable {
        case batch(DecodedBatch)
        case failed(InputError)
    }

    /// Reads and decodes the whole file into the channel, then closes it; stops early when the writer cancels.
    static func produce(from reader: RecordReader, into channel: BatchChannel) {
        var batch = DecodedBatch()
        do {
            while let result = try reader.next() {
                switch result {
                case .record(_, .event(let e)): batch.records.events.append(e)
                case .record(_, .complaint(let c)): batch.records.complaints.append(c)
                case .record(_, .adoption(let a)): batch.records.adoption.append(a)
                case .rejected(let line, let reason, let raw): batch.rejects.append((line, reason, raw))
                }
                if batch.records.events.count + batch.records.complaints.count + batch.records.adoption.count >= Ingestion.batchSize
                    || batch.rejects.count >= maxRejects {
                    batch.bytesRead = reader.bytesRead
                    batch.records.prepare()
                    guard channel.put(.batch(batch)) else { return }
                    batch = DecodedBatch()
                }
            }
            batch.bytesRead = reader.bytesRead
            batch.records.prepare()
            if !batch.records.events.isEmpty || !batch.records.complaints.isEmpty || !batch.records.adoption.isEmpty || !batch.rejects.isEmpty {
                _ = channel.put(.batch(batch))
            }
        } catch {
            _ = channel.put(.failed(error))
        }
        channel.close()
    }
}

/// A bounded queue between the decoding thread and the writer.
final class BatchChannel: @unchecked Sendable {
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

/// Hands a value that one thread uses at a time to another thread.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
