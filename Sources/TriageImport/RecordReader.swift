import CSV
import TriageModel

/// The sources errtriage reads; `ingest --source NAME` forces one, otherwise each JSON line's
/// members decide (a line that shows no source is read as the file's first line was).
public enum SourceKind: String, CaseIterable, Sendable {
    case native, crashlytics, sentry, elk, desk, adoption, sessions

    /// The decoder for NDJSON lines of this source.
    public var decoder: any RecordDecoder {
        switch self {
        case .native: NativeDecoder()
        case .crashlytics: CrashlyticsDecoder()
        case .sentry: SentryDecoder()
        case .elk: ELKDecoder()
        case .desk: SupportDeskDecoder()
        case .adoption: AdoptionDecoder()
        case .sessions: SessionsDecoder()
        }
    }

    /// Whether the source holds error events (complaints and adoption rows are not).
    var readsEvents: Bool { ![.desk, .adoption, .sessions].contains(self) }

    /// Tells the source of one JSON object by its members; nil when none shows.
    public static func detect(object value: JSONValue) -> SourceKind? {
        let names = Set(value.members.map(\.0))
        if names.contains("complaint_id") || (names.contains("event_id") && (names.contains("codes") || names.contains("chain"))) {
            return .native
        }
        if SessionsDecoder.recognizes(names) { return .sessions }
        if names.contains("issue_title") || names.contains("event_timestamp") || names.contains("firebase_session_id") {
            return .crashlytics
        }
        let legacy = names.contains(where: { $0.hasPrefix("sentry.interfaces.") })
        let sentryEvent = names.contains("event_id") && (names.contains("level") || names.contains("platform") || names.contains("received"))
        if names.contains("exception") || names.contains("contexts") || names.contains("sdk") || names.contains("logentry")
            || legacy || sentryEvent {
            return .sentry
        }
        if names.contains("reported_at") || (names.contains("domain") && names.contains("mobile")) { return .elk }
        if AdoptionDecoder.recognizes(columns: Array(names)) { return .adoption }
        if SupportDeskDecoder.recognizes(columns: Array(names)) { return .desk }
        return nil
    }

    /// Tells the source from a file's first line: a JSON object by its members, else a CSV header
    /// (adoption's `date,version,users`, or a support desk's).
    public static func detect(firstLine: [UInt8]) -> (kind: SourceKind, csv: Bool)? {
        guard let first = firstLine.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else { return nil }
        if first == UInt8(ascii: "{") {
            guard let value = try? JSONParser.parse(firstLine) else { return (.native, false) }
            return (detect(object: value) ?? .native, false)
        }
        guard first != UInt8(ascii: "["),
              let header = try? CSVReader(string: String(decoding: firstLine, as: UTF8.self)).next() else { return nil }
        if AdoptionDecoder.recognizes(columns: header) { return (.adoption, true) }
        guard SupportDeskDecoder.recognizes(columns: header) else { return nil }
        return (.desk, true)
    }
}

/// One input record: decoded, or rejected with its reason and raw text.
public enum RecordResult {
    case record(line: Int, ImportedRecord)
    case rejected(line: Int, reason: String, raw: [UInt8])
}

/// Reads one file of any source as records, keeping line numbers for every rejection.
public final class RecordReader {
    public let path: String
    public private(set) var kind: SourceKind
    public private(set) var csv: Bool
    private let lines: LineReader
    /// `--source` was given: every line is read as that source.
    private let forced: Bool
    /// One decoder per source, made once.
    private let decoders = Dictionary(uniqueKeysWithValues: SourceKind.allCases.map { ($0, $0.decoder) })
    /// Native events straight from their bytes; the rest goes to `decoders`.
    private let lineDecoder = NativeLineDecoder()
    /// The source of the last line the tree read, when it was not native (at first, the file's
    /// source as its first line tells it). The native byte reader then waits until a line is
    /// native again, so that a Crashlytics or Sentry file is not scanned twice per line (the byte
    /// reader reads a whole line before it can tell it is not native); after a Crashlytics or a
    /// Sentry line, the next is read sparsely first (`SparseKeep.crashlytics`, `.sentryEvent`).
    private var lastOther: SourceKind?
    private var pendingFirst: InputLine?
    private var header: [String]?
    /// Lines over the limit met before the line that told the source, reported first.
    private var early: [RecordResult] = []
    /// Set when the file is a stream of Sentry envelopes.
    private var envelopes: EnvelopeReader?
    /// Envelope items read and not stored, by type (attachments, client reports, transactions, …).
    public private(set) var skippedItems: [String: Int] = [:]
    /// Envelopes read, where the file holds them.
    public var envelopeCount: Int { envelopes?.envelopes ?? 0 }
    /// Records of one envelope item that gave several (a `sessions` item's users), not yet handed out.
    private var queued: [RecordResult] = []
    /// When the input was received (a request's time): the time of a user report whose envelope
    /// gives none.
    public var receivedAt: Timestamp?
    /// What each record goes through before it is handed out: scrubbed, its time taken against
    /// the receipt time (`receivedAt`) or, for a file, the moment the reader was made.
    public var finishing = RecordFinishing.file()
    /// Records whose received time was corrected or clamped, by what was done.
    public private(set) var retimed: [EventTime.Adjustment: Int] = [:]
    /// The `sent_at` of the envelope whose item was read last.
    private var envelopeSentAt: Timestamp?
    /// The bytes the last record was read from (what a refusal of its time hands back).
    private var lastRaw: [UInt8] = []

    /// The longest CSV record (which may span lines) kept whole.
    static let maxRecordBytes = LineReader.maxLineBytes

    public var bytesRead: Int64 { lines.bytesRead }
    public var totalBytes: Int64? { lines.totalBytes }

    /// Reads the file at `path` (`-` for standard input), plain or gzip.
    public convenience init(path: String, source: SourceKind?) throws(InputError) {
        try self.init(lines: LineReader(path: path), source: source)
    }

    /// Reads bytes in memory (a request's body) under a name that rejections give, received at
    /// `receivedAt` (the time of a user report whose envelope gives none). `envelopes` reads them as
    /// Sentry envelopes whatever the first line looks like (a request to the envelope endpoint: a
    /// header of only `event_id` is an envelope's there).
    public convenience init(bytes: [UInt8], name: String, source: SourceKind?, receivedAt: Timestamp? = nil, envelopes: Bool = false) throws(InputError) {
        guard !bytes.isEmpty else { throw InputError(path: name, reason: "is empty") }
        try self.init(lines: LineReader(bytes: bytes, name: name), source: source, envelopes: envelopes)
        self.receivedAt = receivedAt
        if let receivedAt { finishing = RecordFinishing(clock: .received(at: receivedAt)) }
    }

    init(lines: LineReader, source: SourceKind?, envelopes asEnvelopes: Bool = false) throws(InputError) {
        path = lines.path
        forced = source != nil
        self.lines = lines
        var first: InputLine?
        while let line = try lines.next() {
            if line.tooLong {
                // A line over the limit tells nothing of the source: it is rejected, and the next tells.
                early.append(RecordReader.overLimit(line))
                continue
            }
            if line.bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) { first = line; break }
        }
        guard let first else {
            guard early.isEmpty else {
                kind = source ?? .native
                csv = false
                return
            }
            throw InputError(path: path, reason: "holds no data (only blank lines)")
        }
        if asEnvelopes || ((source == nil || source == .sentry) && first.bytes.first == UInt8(ascii: "{")
            && (try? JSONParser.parse(first.bytes)).map(EnvelopeReader.isHeader) == true) {
            kind = .sentry
            csv = false
            envelopes = EnvelopeReader(lines: lines, first: [first])
            return
        }
        let detected = SourceKind.detect(firstLine: first.bytes)
        if let source {
            kind = source
            csv = (source == .desk || source == .adoption) && (detected?.csv ?? false)
        } else if let detected {
            kind = detected.kind
            csv = detected.csv
        } else {
            throw InputError(path: path, reason: "cannot tell which source this is (line 1 is neither a JSON object nor a support-desk or adoption CSV header); use --source")
        }
        if csv {
            header = (try? CSVReader(string: String(decoding: first.bytes, as: UTF8.self)).next()) ?? []
        } else {
            pendingFirst = first
            lastOther = kind == .native ? nil : kind
        }
    }

    /// The next record or rejection; nil at the end of the file. Every record is finished
    /// (`finishing`): scrubbed, and its time taken or refused.
    public func next() throws(InputError) -> RecordResult? {
        guard let result = try nextRead() else { return nil }
        guard case .record(let line, var record) = result else { return result }
        do {
            if let adjustment = try finishing.finish(&record, sentAt: envelopeSentAt) { retimed[adjustment, default: 0] += 1 }
            return .record(line: line, record)
        } catch {
            return .rejected(line: line, reason: error.reason, raw: lastRaw)
        }
    }

    private func nextRead() throws(InputError) -> RecordResult? {
        if !early.isEmpty { return early.removeFirst() }
        if envelopes != nil { return try nextEnvelopeItem() }
        return csv ? try nextCSV() : try nextJSON()
    }

    /// How a line over the limit is rejected: its size and the limit named.
    static func overLimit(_ line: InputLine) -> RecordResult {
        .rejected(line: line.number, reason: overLimitReason("line of \(line.size) bytes", limit: LineReader.maxLineBytes, per: "record"),
                  raw: line.bytes)
    }

    /// The reason of every rejection for size (a line, an envelope item, a request's event), in
    /// one wording that `isOverLimit` knows again: a server answers those 413, not 400.
    public static func overLimitReason(_ what: String, limit: Int, per unit: String) -> String {
        "\(what) \(overLimitMark) of \(limit) bytes for one \(unit)"
    }

    /// Whether a rejection's reason is one of `overLimitReason`'s.
    public static func isOverLimit(_ reason: String) -> Bool { reason.contains(overLimitMark) }

    private static let overLimitMark = "is over the limit"

    /// The next record of an envelope stream: an `event` item's event, a `session` or `sessions`
    /// item's sessions (`SentrySessions`), a `user_report` or `feedback` item's complaint
    /// (`SentryFeedback`); every other item (attachments, client reports, transactions, profiles,
    /// replays, check-ins, …), and a `sessions` item that names no user, is counted in `skippedItems`.
    private func nextEnvelopeItem() throws(InputError) -> RecordResult? {
        if !queued.isEmpty { return queued.removeFirst() }
        while let result = try envelopes?.next() {
            switch result {
            case .rejected(let line, let reason, let raw):
                return .rejected(line: line, reason: reason, raw: raw)
            case .item(let item):
                envelopeSentAt = item.envelopeHeader["sent_at"]?.nonEmptyText.flatMap(Timestamp.parse)
                lastRaw = item.payload
                guard RecordReader.storedItems.contains(item.type) else {
                    skippedItems[item.type, default: 0] += 1
                    continue
                }
                if item.type == "event", let record = sparseSentry(item.payload, item: true, fallbackTime: sentAt(item)) {
                    return .record(line: item.line, record.carrying(item.payload))
                }
                do {
                    let payload = try parseObject(line: item.payload)
                    switch item.type {
                    case "event":
                        return .record(line: item.line, try SentryDecoder().decode(payload, fallbackTime: sentAt(item)).carrying(item.payload))
                    case "session":
                        return .record(line: item.line, .adoption(try SentrySessions.session(payload)))
                    case "sessions":
                        let records = try SentrySessions.aggregates(payload)
                        guard !records.isEmpty else {
                            skippedItems[item.type, default: 0] += 1
                            continue
                        }
                        queued = records.dropFirst().map { .record(line: item.line, .adoption($0)) }
                        return .record(line: item.line, .adoption(records[0]))
                    case "user_report":
                        return .record(line: item.line, .complaint(try SentryFeedback.userReport(payload, fallbackTime: sentAt(item))))
                    default:
                        return .record(line: item.line, .complaint(try SentryFeedback.feedback(payload, fallbackTime: sentAt(item))))
                    }
                } catch {
                    return .rejected(line: item.line, reason: "\(item.label): \(error.reason)", raw: item.payload)
                }
            }
        }
        return nil
    }

    /// The envelope items read into records; the rest are counted, not stored.
    static let storedItems: Set<String> = ["event", "session", "sessions", "user_report", "feedback"]

    /// When an item without a time of its own was sent (an event, a user report, feedback): its
    /// envelope's `sent_at`, else when it was received (nil for a file's envelope without `sent_at`).
    private func sentAt(_ item: EnvelopeItem) -> Timestamp? {
        item.envelopeHeader["sent_at"]?.nonEmptyText.flatMap(Timestamp.parse) ?? receivedAt
    }

    private func nextJSON() throws(InputError) -> RecordResult? {
        while true {
            let line: InputLine
            if let first = pendingFirst {
                line = first
                pendingFirst = nil
            } else {
                guard let next = try lines.next() else { return nil }
                line = next
            }
            if line.tooLong { return RecordReader.overLimit(line) }
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            lastRaw = line.bytes
            if forced ? kind == .native : lastOther == nil, var event = lineDecoder.event(line.bytes, forced: forced) {
                event.payload = line.bytes
                return .record(line: line.number, .event(event))
            }
            if forced ? kind == .crashlytics : lastOther == .crashlytics, let record = sparseCrashlytics(line.bytes) {
                return .record(line: line.number, record.carrying(line.bytes))
            }
            if forced ? kind == .sentry : lastOther == .sentry, let record = sparseSentry(line.bytes) {
                return .record(line: line.number, record.carrying(line.bytes))
            }
            let value: JSONValue, source: SourceKind
            do {
                value = try parseObject(line: line.bytes)
                source = forced ? kind : SourceKind.detect(object: value) ?? kind
            } catch {
                return .rejected(line: line.number, reason: error.reason, raw: line.bytes)
            }
            lastOther = source == .native ? nil : source
            do {
                return .record(line: line.number, try decoders[source]!.decode(value).carrying(line.bytes))
            } catch {
                return .rejected(line: line.number, reason: error.reason + RecordReader.hint(value, failed: source), raw: line.bytes)
            }
        }
    }

    /// A Crashlytics row read without building what its decoder does not read (threads, frames,
    /// logs, breadcrumbs). Only a line that is valid JSON, a Crashlytics row by its members (or by
    /// `--source`) and that decodes is taken; anything else goes through the whole tree, which
    /// then names the reason, so what is read and what is rejected stay as they were.
    private func sparseCrashlytics(_ line: [UInt8]) -> ImportedRecord? {
        guard let value = try? JSONParser.parse(line, keeping: .crashlytics), case .object = value,
              forced || SourceKind.detect(object: value) == .crashlytics else { return nil }
        return try? decoders[.crashlytics]!.decode(value)
    }

    /// A Sentry event read without building what its decoder does not read (stack traces,
    /// breadcrumbs, threads, debug images). Only an event that is valid JSON, a Sentry event by its
    /// members (or by `--source`, or as an envelope's `event` item) and that decodes is taken;
    /// anything else goes through the whole tree, which then names the reason.
    private func sparseSentry(_ payload: [UInt8], item: Bool = false, fallbackTime: Timestamp? = nil) -> ImportedRecord? {
        guard let value = try? JSONParser.parse(payload, keeping: .sentryEvent), case .object = value,
              item || forced || SourceKind.detect(object: value) == .sentry else { return nil }
        return try? SentryDecoder().decode(value, fallbackTime: fallbackTime)
    }

    /// When a line fails as one source but another source of events reads it: which, and how to force it.
    static func hint(_ value: JSONValue, failed: SourceKind) -> String {
        for other in SourceKind.allCases where other != failed && other.readsEvents {
            if (try? other.decoder.decode(value)) != nil {
                return " (the line reads as a \(other.rawValue) record: --source \(other.rawValue))"
            }
        }
        return ""
    }

    /// A CSV record ends at a line break outside quotes: lines join while the count of quotes is odd.
    private func nextCSV() throws(InputError) -> RecordResult? {
        let desk = SupportDeskDecoder(), adoption = AdoptionDecoder()
        while true {
            guard let first = try lines.next() else { return nil }
            if first.bytes.isEmpty { continue }
            var record = first.bytes
            var quotes = first.bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
            var tooLong = first.tooLong
            while quotes % 2 == 1, !tooLong {
                guard let more = try lines.next() else {
                    return .rejected(line: first.number, reason: "a quoted field is never closed", raw: record)
                }
                record.append(0x0A)
                record += more.bytes
                quotes += more.bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) }
                tooLong = more.tooLong || record.count > RecordReader.maxRecordBytes
            }
            if tooLong {
                return .rejected(line: first.number, reason: "record longer than \(RecordReader.maxRecordBytes >> 20) MiB", raw: Array(record.prefix(256)))
            }
            guard JSONParser.isValidUTF8(record) else {
                return .rejected(line: first.number, reason: "invalid UTF-8", raw: record)
            }
            if record.contains(0) { return .rejected(line: first.number, reason: "NUL byte", raw: record) }
            let text = String(decoding: record, as: UTF8.self)
            lastRaw = record
            guard let reader = try? CSVReader(string: text), let fields = reader.next(), reader.next() == nil else {
                return .rejected(line: first.number, reason: "not a valid CSV record", raw: record)
            }
            do {
                let record = kind == .adoption ? try adoption.decode(header: header ?? [], row: fields)
                                               : try desk.decode(header: header ?? [], row: fields)
                return .record(line: first.number, record)
            } catch {
                return .rejected(line: first.number, reason: error.reason, raw: record)
            }
        }
    }
}

extension ImportedRecord {
    /// The record with the bytes it was read from, where it is an event (which the store may keep whole).
    func carrying(_ bytes: [UInt8]) -> ImportedRecord {
        guard case .event(var event) = self else { return self }
        event.payload = bytes
        return .event(event)
    }
}

extension Error {
    /// The reason of a line rejection, or the error's description.
    public var reason: String { (self as? LineRejection)?.reason ?? "\(self)" }
}

extension JSONParser {
    /// Whether an array of bytes is well-formed UTF-8.
    public static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }
}
