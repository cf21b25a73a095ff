import Foundation
import TestSupport
import Testing
import TriageImport
import TriageIngest
import TriageModel
@testable import TriageStore

/// The ingest pipeline in process: what `ingest`, the bench, the tests' stores and (for request
/// bodies) a server call.
@Suite struct IngestPipelineTests {
    /// Lines with rejects among them, in an order the pipeline must keep.
    static func lines(events: Int, badEvery: Int) -> [String] {
        (0..<events).map { n in
            n % badEvery == badEvery - 1 ? "{\"event_id\":\"bad\(n)\",\"codes\":\"US14\"}"
                : TemporaryStore.event("e\(n)", "2026-11-\(10 + n % 9)T10:\(String(format: "%02d", n % 60)):00Z")
        }
    }

    @Test func everyGoodLineIsKeptAndEachRejectIsReportedOnceInInputOrderWithItsLine() throws {
        let f = try TemporaryStore()
        var rejects: [Rejection] = []
        let pipeline = try IngestPipeline(store: f.store, batchSize: 7, onReject: { rejects.append($0) })
        let lines = Self.lines(events: 100, badEvery: 10)
        let summary = try pipeline.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "body")
        #expect(summary.counts.eventsAdded == 90)
        #expect(summary.rejected == 10)
        #expect(rejects.map(\.line) == Array(stride(from: 10, through: 100, by: 10)))
        #expect(rejects.allSatisfy { $0.input == "body" && $0.reason == "missing timestamp" })
        #expect(rejects.first?.raw == Array(lines[9].utf8))
        #expect(try f.store.verify().isSound)
    }

    @Test func aSecondInputAddsOnlyWhatIsMissingAndTheSummaryAddsUp() throws {
        let f = try TemporaryStore()
        let pipeline = try IngestPipeline(store: f.store, onReject: { _ in })
        let lines = Self.lines(events: 50, badEvery: 1_000)
        let first = try pipeline.ingest(bytes: Array(lines.prefix(30).joined(separator: "\n").utf8), name: "a")
        let second = try pipeline.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "b")
        #expect(first.counts.eventsAdded == 30)
        #expect(second.counts.eventsAdded == 20 && second.counts.duplicates == 30)
        #expect(pipeline.summary.counts.eventsAdded == 50 && pipeline.summary.counts.duplicates == 30)
    }

    @Test func aFileAndTheSameBytesInMemoryIngestAlike() throws {
        let lines = Self.lines(events: 40, badEvery: 8)
        let text = lines.joined(separator: "\n") + "\n"
        let a = try TemporaryStore(), b = try TemporaryStore()
        let file = try a.folder.file("in.ndjson", text)
        let fromFile = try IngestPipeline(store: a.store, onReject: { _ in }).ingest(file: file)
        let fromBytes = try IngestPipeline(store: b.store, onReject: { _ in }).ingest(bytes: Array(text.utf8), name: "body")
        #expect(fromFile == fromBytes)
        #expect(try a.store.issueKeys() == b.store.issueKeys())
    }

    @Test func cancellingStopsTheInputAndKeepsWhatWasCommitted() throws {
        let f = try TemporaryStore()
        var pipeline: IngestPipeline?
        var reports = 0
        pipeline = try IngestPipeline(store: f.store, batchSize: 10, onReject: { _ in }, onProgress: { _ in
            reports += 1
            if reports == 2 { pipeline?.cancel() }
        })
        let lines = TemporaryStore.sampleLines(events: 5_000)
        let summary = try pipeline!.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "body")
        #expect(summary.counts.eventsAdded > 0 && summary.counts.eventsAdded < 5_000, "\(summary.counts)")
        let stored = try f.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event") }
        #expect(stored == summary.counts.eventsAdded)
        #expect(try f.store.verify().isSound)
    }

    @Test func aStoreThatFailsStopsTheIngestWithWhatItCommittedAndStaysSound() throws {
        let f = try TemporaryStore(sqlite: ())
        try f.ingest(lines: [TemporaryStore.event("first", "2026-11-10T10:00:00Z")])
        let pages = try f.store.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") } ?? 0
        let capped = try TriageStore(path: f.path, maxPages: pages + 40)
        let pipeline = try IngestPipeline(store: capped, batchSize: 200, onReject: { _ in })
        let lines = TemporaryStore.sampleLines(events: 20_000)
        #expect(throws: IngestStoreFailure.self) {
            try pipeline.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "body")
        }
        let stored = try f.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event") } ?? 0
        #expect(stored == 1 + pipeline.summary.counts.eventsAdded)
        #expect(try TriageStore(path: f.path).verify().isSound)
    }

    @Test func anUnreadableInputIsAnInputErrorAndNothingElse() throws {
        let f = try TemporaryStore()
        let pipeline = try IngestPipeline(store: f.store, onReject: { _ in })
        #expect(throws: InputError.self) { try pipeline.ingest(file: f.folder.path("missing.ndjson")) }
        #expect(throws: InputError.self) { try pipeline.ingest(bytes: [], name: "empty body") }
        #expect(pipeline.summary == IngestSummary())
    }

    @Test func anEnvelopeBodyCountsItsEnvelopesAndWhatItStored() throws {
        let f = try TemporaryStore()
        let event = #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":"2026-11-20T10:00:00Z","platform":"python","exception":{"values":[{"type":"NetworkError","value":"[8] timeout"}]}}"#
        let session = #"{"sid":"s1","did":"u1","started":"2026-11-20T10:00:00Z","status":"ok","attrs":{"release":"a@1.0"}}"#
        let body = """
            {"event_id":"0123456789abcdef0123456789abcdef","sent_at":"2026-11-20T10:00:01Z"}
            {"type":"event","length":\(event.utf8.count)}
            \(event)
            {}
            {"type":"session"}
            \(session)
            {"type":"client_report"}
            {"discarded_events":[{"reason":"queue_overflow","category":"error","quantity":3}]}
            """
        let summary = try IngestPipeline(store: f.store, onReject: { _ in }).ingest(bytes: Array(body.utf8), name: "request")
        #expect(summary.counts.eventsAdded == 1 && summary.envelopes == 2 && summary.skippedItems == ["client_report": 1])
        #expect(summary.counts.sessionsAdded == 1 && summary.counts.adoptionRows == 1)
        #expect(try f.store.issueKeys() == ["NE8"])
    }
}

extension TriageStore {
    /// Every issue's key, sorted.
    func issueKeys() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT key FROM issue ORDER BY key") }
    }
}
