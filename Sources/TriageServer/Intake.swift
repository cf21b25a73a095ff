import Foundation
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// The endpoints that take errors, and what their bodies hold.
public enum IntakeEndpoint: String, Sendable, CaseIterable {
    /// `POST /api/ID/envelope/`: Sentry envelopes, as every current SDK sends.
    case envelope
    /// `POST /api/ID/store/`: one Sentry event as a JSON body (older SDKs).
    case store
    /// `POST /api/ID/elk`: the ELK-style reporter's JSON, one object or NDJSON lines.
    case elk
    /// `POST /api/ID/events`: errtriage's native NDJSON.
    case events

    /// The endpoint a path ends with (`/api/1/envelope/` is `.envelope`).
    init?(path: String) {
        guard let last = path.split(separator: "/").last, let endpoint = IntakeEndpoint(rawValue: String(last)) else { return nil }
        self = endpoint
    }
}

/// One request's body read as records: what to commit, what was refused, and what to answer.
public struct IntakeBatch: Sendable {
    public var batch = IngestWriter.Batch(events: [], complaints: [])
    /// Lines or items refused, in order: (line, reason).
    public var rejects: [(line: Int, reason: String)] = []
    /// Envelope items accepted and not stored, by type.
    public var skippedItems: [String: Int] = [:]
    /// The id SDKs expect back: the envelope's or the event's `event_id`.
    public var eventID: String?
    /// Records whose time was corrected or clamped (`EventTime`), by what was done.
    public var retimed: [EventTime.Adjustment: Int] = [:]

    public var records: Int { batch.events.count + batch.complaints.count + batch.adoption.count }
    /// Envelope items accepted and not stored.
    public var skipped: Int { skippedItems.values.reduce(0, +) }
    /// A refused item was over a size limit (413 rather than 400).
    public var hasOversized: Bool { rejects.contains { RecordReader.isOverLimit($0.reason) } }
}

/// Reads request bodies with the importers `errtriage ingest` uses: one decoder for files and requests.
public enum Intake {
    public enum Failure: Error, Equatable {
        /// The body (the older store endpoint's event) is not JSON: 400.
        case notJSON(String)
        /// The envelope endpoint's body does not start with an envelope's header: 400.
        case notAnEnvelope(String)
        /// Nothing in the body could be read at all: 400 with this reason.
        case malformed(String)
        /// The body carries more records than a request may: 413, nothing kept.
        case tooManyRecords(limit: Int)
        /// The records decoded so far took what the memory budget allowed; `needed` more were refused.
        case overloaded(needed: Int)
        /// As `overloaded`, where the request alone would pass the whole budget (the caller tells).
        case overBudget
    }

    /// Records are decoded, and held against the budget, this many at a time.
    static let chunk = 256

    /// `receivedAt`: when the request came (the time of a user report whose envelope gives none).
    /// Decoding stops at the record past `maxRecords`. The batch is not yet prepared for the
    /// writer (`IngestWriter.Batch.prepare`): the caller may keep only part of it.
    /// `reserve` is told each chunk of records' memory (`RecordMemory`) as they are decoded; false
    /// stops the decoding (`overloaded`).
    public static func decode(_ body: [UInt8], endpoint: IntakeEndpoint, project: String?, receivedAt: Timestamp,
                              maxRecords: Int = .max, reserve: (Int) -> Bool = { _ in true }) throws(Failure) -> IntakeBatch {
        var result = IntakeBatch()
        switch endpoint {
        case .envelope:
            guard let firstLine = body.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first,
                  let header = try? JSONParser.parse(Array(firstLine)), isObject(header) else {
                throw .notAnEnvelope("not a Sentry envelope: the first line must be the envelope's JSON header")
            }
            result.eventID = header["event_id"]?.nonEmptyText
            try read(body, source: nil, envelopes: true, receivedAt: receivedAt, maxRecords: maxRecords, reserve: reserve, into: &result)
        case .store:
            // One event; SDKs send it as one JSON document, which may span lines.
            let value: JSONValue
            do { value = try JSONParser.parse(body) } catch {
                throw .notJSON("not valid JSON: \(error)")
            }
            guard isObject(value) else { throw .notJSON("the body must be one JSON object (a Sentry event)") }
            result.eventID = value["event_id"]?.nonEmptyText
            guard body.count <= LineReader.maxLineBytes else {
                result.rejects.append((1, RecordReader.overLimitReason("event of \(body.count) bytes", limit: LineReader.maxLineBytes, per: "record")))
                break
            }
            var record: ImportedRecord
            do {
                // An event without a time of its own happened when it came, as Relay takes it.
                record = try SentryDecoder().decode(value, fallbackTime: receivedAt)
                if let adjustment = try RecordFinishing(clock: .received(at: receivedAt)).finish(&record, sentAt: nil) {
                    result.retimed[adjustment, default: 0] += 1
                }
            } catch {
                result.rejects.append((1, error.reason))
                break
            }
            switch record {
            case .event(var e):
                e.payload = body
                let needed = RecordMemory.bytes(e)
                guard reserve(needed) else { throw .overloaded(needed: needed) }
                result.batch.events.append(e)
            case .complaint(let c): result.batch.complaints.append(c)
            case .adoption(let a): result.batch.adoption.append(a)
            }
        case .elk, .events:
            let source: SourceKind = endpoint == .elk ? .elk : .native
            // One JSON object over several lines, as a reporter may post it, or NDJSON.
            if let value = try? JSONParser.parse(body), isObject(value), body.contains(0x0A) {
                try read(Array(value.serialized.utf8), source: source, receivedAt: receivedAt, maxRecords: maxRecords, reserve: reserve, into: &result)
            } else {
                try read(body, source: source, receivedAt: receivedAt, maxRecords: maxRecords, reserve: reserve, into: &result)
            }
        }
        if let project {
            // The key's project wins: a body cannot file its events under another project, nor
            // attach its complaints to another project's events.
            for i in result.batch.events.indices { result.batch.events[i].project = project }
            for i in result.batch.complaints.indices { result.batch.complaints[i].project = project }
        }
        return result
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { return true }
        return false
    }

    /// Reads lines (or envelopes) through the reader `ingest` uses, stopping past `maxRecords`.
    static func read(_ body: [UInt8], source: SourceKind?, envelopes: Bool = false, receivedAt: Timestamp? = nil,
                     maxRecords: Int, reserve: (Int) -> Bool, into result: inout IntakeBatch) throws(Failure) {
        var over = false
        var refused: Int?
        do {
            let reader = try RecordReader(bytes: body, name: "request", source: source, receivedAt: receivedAt, envelopes: envelopes)
            // In chunks, each held against the budget as it is decoded: a body of small records
            // that decode to far more than its size stops at the budget, not past it.
            try DecodedBatch.each(from: reader, size: min(chunk, maxRecords == .max ? .max : maxRecords + 1)) { decoded in
                let needed = decoded.records.events.reduce(0) { $0 + RecordMemory.bytes($1) }
                    + decoded.records.complaints.reduce(0) { $0 + RecordMemory.bytes($1) }
                    + decoded.records.adoption.reduce(0) { $0 + RecordMemory.bytes($1) }
                guard reserve(needed) else {
                    refused = needed
                    return false
                }
                result.batch.events += decoded.records.events
                result.batch.complaints += decoded.records.complaints
                result.batch.adoption += decoded.records.adoption
                result.rejects += decoded.rejects.map { ($0.line, $0.reason) }
                over = result.records > maxRecords
                return !over
            }
            result.skippedItems.merge(reader.skippedItems, uniquingKeysWith: +)
            result.retimed.merge(reader.retimed, uniquingKeysWith: +)
        } catch let error as InputError {
            throw .malformed(error.reason)
        } catch {
            throw .malformed("\(error)")
        }
        if over { throw .tooManyRecords(limit: maxRecords) }
        if let refused { throw .overloaded(needed: refused) }
    }
}

extension IntakeBatch {
    /// Keeps the first `count` records (events, then complaints, then sessions); the rest are dropped.
    mutating func keepFirst(_ count: Int) {
        var left = max(0, count)
        func take<T>(_ items: inout [T]) {
            if items.count > left { items.removeSubrange(left...) }
            left -= items.count
        }
        take(&batch.events)
        take(&batch.complaints)
        take(&batch.adoption)
    }
}
