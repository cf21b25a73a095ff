#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Presentation
import TriageImport
import TriageModel

/// The fuzz targets: each feeds arbitrary bytes to one parser and checks what must hold whatever
/// the input. A violated property is a `FuzzViolation`: `check` throws it (the in-suite fuzz tests
/// fail one test with the input), `run` traps on it (how libFuzzer sees a finding); an input the
/// parser rejects with an error is fine.
///
/// The same `run` serves `make fuzz` (libFuzzer, coverage-guided, `errtriage-fuzz`) and the
/// bounded runs in `make test` (FuzzTests, mutating the fixtures' lines).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The JSON parser every NDJSON source goes through.
    case json
    /// One line of each source's decoder.
    case native, crashlytics, sentry, elk
    case deskJSON = "desk-json"
    /// A whole support-desk CSV file (header, quoting, records spanning lines) through the reader.
    case deskCSV = "desk-csv"
    /// A whole adoption CSV (`date,version,users`) through the reader.
    case adoptionCSV = "adoption-csv"
    /// One row of Firebase's sessions export.
    case sessions
    /// A whole file of any source through the reader: detection, gzip, line splitting, every decoder.
    case reader
    /// A stream of Sentry envelopes (a request's body) through the envelope reader.
    case envelope
    /// Short keys, full forms and their zip.
    case chain
    /// App versions and timestamps, the other texts the importers read.
    case version
    /// Every number a client sends — session aggregates, client reports, counts, codes, ids,
    /// times, sizes, line numbers — as an envelope stream and as a file of any source, each
    /// event then read and shown whole: nothing traps, whatever the number.
    case numbers

    /// Runs one input; a violated property traps, for libFuzzer and the replayer.
    public func run(_ bytes: [UInt8]) {
        do {
            try check(bytes)
        } catch {
            fatalError("fuzz property violated: \(error)")
        }
    }

    /// Runs one input; throws the property it violates.
    public func check(_ bytes: [UInt8]) throws(FuzzViolation) {
        switch self {
        case .json: try FuzzChecks.json(bytes)
        case .native: try FuzzChecks.native(bytes)
        case .crashlytics: try FuzzChecks.line(bytes, CrashlyticsDecoder())
        case .sentry: try FuzzChecks.line(bytes, SentryDecoder())
        case .elk: try FuzzChecks.line(bytes, ELKDecoder())
        case .deskJSON: try FuzzChecks.line(bytes, SupportDeskDecoder())
        case .deskCSV: try FuzzChecks.file(bytes, source: .desk)
        case .adoptionCSV: try FuzzChecks.file(bytes, source: .adoption)
        case .sessions: try FuzzChecks.line(bytes, SessionsDecoder())
        case .reader: try FuzzChecks.file(bytes, source: nil)
        case .envelope: try FuzzChecks.envelope(bytes)
        case .chain: try FuzzChecks.chain(bytes)
        case .version: try FuzzChecks.version(bytes)
        case .numbers: try FuzzChecks.numbers(bytes)
        }
    }

}

extension FuzzTarget {
    /// The inputs a run starts from: the fixture lines of the target's source (from the folder of
    /// test fixtures), whole fixture files for the readers, and chains, keys, versions and times
    /// for the text parsers. libFuzzer's corpus and the in-suite run both start here.
    public func seeds(fixtures folder: String) -> [[UInt8]] {
        func file(_ name: String) -> [UInt8] { FuzzInput.read("\(folder)/\(name)") ?? [] }
        func lines(_ name: String) -> [[UInt8]] {
            file(name).split(separator: 0x0A).prefix(40).map(Array.init)
        }
        let sources = ["native.ndjson", "crashlytics.ndjson", "sentry.ndjson", "elk.ndjson", "desk.ndjson", "desk.csv",
                       "adoption.csv", "firebase-sessions.ndjson"]
        switch self {
        case .json, .native:
            return sources.filter { $0.hasSuffix(".ndjson") }.flatMap { lines($0).prefix(8) }
        case .crashlytics: return lines("crashlytics.ndjson")
        case .sentry: return lines("sentry.ndjson").prefix(20) + lines("sentry-platforms.ndjson")
        case .elk: return lines("elk.ndjson")
        case .deskJSON: return lines("desk.ndjson")
        case .deskCSV: return [Array(file("desk.csv").prefix(4000))]
        case .adoptionCSV: return [file("adoption.csv")]
        case .sessions: return lines("firebase-sessions.ndjson")
        case .reader: return sources.map { Array(file($0).prefix(3000)) }.filter { !$0.isEmpty }
        case .envelope: return FuzzTarget.envelopeSeeds(events: lines("sentry.ndjson").prefix(2).map { String(decoding: $0, as: UTF8.self) })
        case .chain: return FuzzTarget.chainSeeds.map { Array($0.utf8) }
        case .version: return FuzzTarget.versionSeeds.map { Array($0.utf8) }
        case .numbers: return FuzzTarget.numberSeeds
        }
    }

    /// The numbers a client may send where the importers read one: the edges of 32 and 64 bits,
    /// past them, floats past a Double's range and below its precision, negatives.
    public static let extremeNumbers = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616", "4294967295",
        "4294967296", "-1", "0", "1e308", "1e999", "-1e999", "1e-400", "0.5", "-0.0", "123456789012345678901234567890",
    ]

    /// Documents holding every number an importer reads: a Sentry envelope with each item that
    /// carries numbers (an event with numeric times, codes, ids, sizes and frames; a session;
    /// aggregates; a client report; feedback; an attachment's length), and a line of each other
    /// source. Each comes as it is, then once per number it holds and extreme value
    /// (`extremeNumbers`) put in that number's place.
    public static let numberSeeds: [[UInt8]] = {
        let header = #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sent_at":"2026-11-12T02:14:26.250Z","sdk":{"name":"sentry.python","version":"2.1.0"}}"#
        let event = #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","timestamp":1794305100.25,"start_timestamp":1794305099,"platform":"cocoa","level":"error","release":"shop@1.4.0+12","contexts":{"device":{"model":"iPhone14,5","free_memory":123456,"free_storage":98765,"memory_size":4096,"battery_level":55.5,"screen_height_pixels":2532},"os":{"name":"iOS","version":"17.4"},"app":{"app_version":"1.4.0","app_build":"12"}},"breadcrumbs":{"values":[{"timestamp":1794305090.5,"category":"http","data":{"status_code":500,"duration":12.5}}]},"exception":{"values":[{"type":"NSURLErrorDomain","value":"timed out","mechanism":{"type":"NSError","handled":true,"exception_id":1,"parent_id":0,"meta":{"ns_error":{"code":-1001,"domain":"NSURLErrorDomain"},"errno":{"number":60},"signal":{"number":11,"code":0},"mach_exception":{"exception":1,"code":2,"subcode":8}},"data":{"code":7}},"stacktrace":{"frames":[{"function":"fetch","filename":"Net.swift","lineno":41,"colno":9,"in_app":true,"instruction_addr":"0x1000"}]}},{"type":"APIError","value":"getTokenFailed","mechanism":{"type":"generic","handled":false,"exception_id":0,"source":"errors[0]"}}]},"tags":{"shard":7},"extra":{"attempt":3},"request":{"url":"https://api.example.com/pins?page=2","data":{"n":1}},"user":{"id":42}}"#
        let session = #"{"sid":"c0ffee00-1234-4abc-8def-0123456789ab","init":true,"started":1794305000.5,"timestamp":1794305100,"seq":3,"errors":2,"duration":60.5,"status":"exited","did":"u1","attrs":{"release":"shop@1.4.0+12","environment":"production"}}"#
        let aggregates = #"{"attrs":{"release":"shop@1.4.0"},"aggregates":[{"started":"2026-11-20T10:01:00Z","did":"u2","exited":3,"errored":1,"abnormal":0,"crashed":2},{"started":1794305100,"exited":9}]}"#
        let clientReport = #"{"timestamp":1794305100,"discarded_events":[{"reason":"queue_overflow","category":"error","quantity":4},{"reason":"ratelimit_backoff","category":"session","quantity":18446744073709551615}]}"#
        let feedback = #"{"event_id":"f00dfeed00000000000000000000beef","timestamp":1794305100.25,"contexts":{"feedback":{"message":"spins at US14-LO43","associated_event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}}}"#
        let envelope = header + "\n" + #"{"type":"event"}"# + "\n" + event + "\n"
            + #"{"type":"session"}"# + "\n" + session + "\n" + #"{"type":"sessions"}"# + "\n" + aggregates + "\n"
            + #"{"type":"client_report"}"# + "\n" + clientReport + "\n" + #"{"type":"feedback"}"# + "\n" + feedback + "\n"
            + #"{"type":"attachment","length":4}"# + "\nabcd\n"
        // The 195 bytes that once ended the process: one aggregate's count past Int64 when summed.
        let probe = #"{"dsn":"http://k@127.0.0.1/1"}"# + "\n" + #"{"type":"sessions"}"# + "\n"
            + #"{"attrs":{"release":"a@1"},"aggregates":[{"started":"2026-11-20T10:00:00Z","did":"u","exited":9223372036854775807,"errored":1}]}"# + "\n"
        let others = [
            #"{"event_id":"n1","timestamp":1794305100,"codes":"US14-NE8","chain":"UserError.a - NetworkError.timeout","device":{"free_ram":1024,"free_disk":2048},"app":{"version":"1.4","build":12}}"#,
            #"{"platform":"IOS","event_id":"c1","issue_id":"i1","event_timestamp":"2026-11-11T01:07:13Z","error_type":"NON_FATAL","memory":{"free":123,"used":456},"storage":{"free":789,"used":1},"errors":[{"title":"NSURLErrorDomain","code":-1009,"frames":[{"line":12,"offset":3}]}],"application":{"display_version":"1.13","build_version":"402"}}"#,
            #"{"reported_at":1794305100,"message":"feed decoding failed","mobile":{"version":"2.0.0","build_number":2501,"platform":"ios"},"code":666,"domain":"com.example.feed"}"#,
            #"{"event_type":"SESSION_START","session_id":"s1","session_index":3,"installation_uuid":"i1","event_timestamp":1794305100,"application":{"display_version":"1.13"}}"#,
            "date,version,users,sessions\n2026-08-22,1.7,30000,94285\n",
        ]
        let documents = [envelope, probe] + others
        var seeds: [[UInt8]] = documents.map { Array($0.utf8) }
        for document in documents {
            let bytes = Array(document.utf8)
            for range in numberRanges(bytes) {
                for value in extremeNumbers {
                    seeds.append(Array(bytes[..<range.lowerBound]) + Array(value.utf8) + Array(bytes[range.upperBound...]))
                }
            }
        }
        return seeds
    }()

    /// Where the numbers of a JSON or CSV document stand: a run of number characters right
    /// after `:`, `,` or `[` (never inside a quoted text).
    static func numberRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var inString = false, escaped = false
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true; i += 1; continue }
            if (b == UInt8(ascii: ":") || b == UInt8(ascii: ",") || b == UInt8(ascii: "[")), i + 1 < bytes.count {
                var j = i + 1
                while j < bytes.count, "-+.0123456789eE".utf8.contains(bytes[j]) { j += 1 }
                if j > i + 1 { ranges.append((i + 1)..<j) }
                i = j
                continue
            }
            i += 1
        }
        return ranges
    }

    static let chainSeeds = [
        "US14-LO43-AP7-NE8",
        "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout",
        "InteractorError.getMapPins-TolokaAPIError.taskSuites-TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-HTTPError.no400BadRequest-NetworkError.responseValidationFailed",
        "IN500-TA202-TB30-HT400-NE29\nInteractorError.getMapPins-TolokaAPIError.taskSuites-TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-HTTPError.no400BadRequest-NetworkError.responseValidationFailed",
        "NSn1009",
        "The app said US4-IN156-TA103-JS1 twice (US4-IN156-TA103-JS1) and NSn1009.",
    ]

    /// A valid stream of two envelopes (items with and without `length`, a payload running into the
    /// next header, an empty one), a truncated one and one with a bad length; `events` are event payloads.
    public static func envelopeSeeds(events: [String]) -> [[UInt8]] {
        let events = events.isEmpty ? [#"{"event_id":"00000000000000000000000000000001","exception":{"values":[{"type":"E","value":"x"}]}}"#] : events
        let header = #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sent_at":"2026-11-12T02:14:26.250Z","sdk":{"name":"sentry.cocoa"}}"#
        let event = events[0], other = events.last!
        let session = #"{"sid":"7c1a4f2e","status":"ok"}"#
        let valid = header + "\n" + #"{"type":"event","length":\#(event.utf8.count)}"# + "\n" + event + "\n"
            + #"{"type":"session"}"# + "\n" + session + "\n"
            + #"{"type":"attachment","length":10}"# + "\nline\r\nlast" + #"{"type":"attachment","length":0}"# + "\n\n"
            + "{}\n" + #"{"type":"event"}"# + "\n" + other + "\n"
        let truncated = header + "\n" + #"{"type":"event","length":\#(event.utf8.count + 50)}"# + "\n" + event + "\n" + #"{"type":"session"}"#
        let badLength = header + "\n" + #"{"type":"attachment","length":-7}"# + "\nabc\n" + #"{"type":"event","length":"12"}"# + "\n"
            + event + "\n" + #"{"type":"event","length":99999999999}"# + "\n" + event + "\n"
        // What the store keeps besides events: release health and user feedback.
        let health = header + "\n" + #"{"type":"session"}"# + "\n"
            + #"{"sid":"c0ffee00-1234-4abc-8def-0123456789ab","init":true,"started":"2026-11-20T09:58:12.345678Z","status":"exited","did":"u1","attrs":{"release":"shop@1.4.0+12"}}"#
            + "\n" + #"{"type":"sessions"}"# + "\n"
            + #"{"attrs":{"release":"shop@1.4.0"},"aggregates":[{"started":"2026-11-20T10:01:00Z","exited":3},{"started":"2026-11-20T10:01:00Z","did":"u2","errored":1}]}"#
            + "\n" + #"{"type":"user_report"}"# + "\n"
            + #"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","name":"J","email":"j@example.com","comments":"froze at US14-LO43"}"#
            + "\n" + #"{"type":"feedback"}"# + "\n"
            + #"{"event_id":"f00dfeed00000000000000000000beef","timestamp":1794305100.25,"contexts":{"feedback":{"message":"spins","associated_event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}}}"#
            + "\n"
        // Hostile values: U+0000, ESC with CSI and OSC, BEL, a C1 CSI, bidi overrides and
        // isolates, zero-width characters, in every string an event has.
        let h = #"A\u0000B\u001b[31mC\u001b]0;PWNED\u0007D\u009b1mE\u202eF\u2066G\u200bH"#
        let hostileEvent = #"{"event_id":"000000000000000000000000000000ff","timestamp":"2026-11-20T10:00:00Z","platform":"\#(h)","level":"error","release":"app@1.\#(h)","dist":"\#(h)","environment":"\#(h)","message":"\#(h)","server_name":"\#(h)","user":{"id":"\#(h)","email":"\#(h)"},"tags":{"\#(h)":"\#(h)"},"contexts":{"device":{"model":"\#(h)"},"os":{"name":"\#(h)","version":"\#(h)"},"app":{"app_version":"\#(h)","app_build":"\#(h)"}},"exception":{"values":[{"type":"\#(h)","value":"\#(h)","module":"\#(h)","mechanism":{"type":"\#(h)","handled":false,"meta":{"errno":{"number":4,"name":"\#(h)"}}}}]}}"#
        let hostile = header + "\n" + #"{"type":"event"}"# + "\n" + hostileEvent + "\n" + #"{"type":"user_report"}"# + "\n"
            + #"{"event_id":"0000000000000000000000000000000f","name":"\#(h)","email":"\#(h)","comments":"\#(h)"}"# + "\n"
        return [valid, truncated, badLength, health, hostile].map { Array($0.utf8) }
    }

    static let versionSeeds = [
        "1.10.1", "1.7 (2)", "1.7(2)", "ru.example.tasks@1.9.0+412", "2.0.0-beta.3", "10",
        "2026-10-04T22:33:00Z", "2026-10-04 22:33:00", "2026-10-04T22:33:00.123+03:00", "1730000000.5",
        "1.9\n1.10\n1.10.1", "1.7 (2)\n1.7(3)\n1.7-beta", "v2.0\n2.0.0\nru.example@2.0+1",
    ]
}

/// A property an input broke.
public struct FuzzViolation: Error, CustomStringConvertible {
    /// What does not hold, e.g. `short key US1 does not read back`.
    public var description: String

    /// A violation saying what does not hold.
    public init(_ description: String) { self.description = description }
}

/// A property that must hold for every input: throws what does not hold.
func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzViolation) {
    if !condition { throw FuzzViolation(message()) }
}

enum FuzzChecks {
    static func json(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        // What parses serializes, and the serialization parses back to the same value.
        let again = try? JSONParser.parse(value.serialized)
        try fuzzCheck(again == value, "JSON round trip of \(value.serialized.prefix(200))")
    }

    /// A native line's checks, and the byte reader (`NativeLineDecoder`) reading no line otherwise than the tree.
    static func native(_ bytes: [UInt8]) throws(FuzzViolation) {
        try line(bytes, NativeDecoder())
        guard let fast = NativeLineDecoder().event(bytes, forced: true) else { return }
        let tree = try? NativeDecoder().decode(line: bytes)
        guard case .event(let event)? = tree else { throw FuzzViolation("the byte reader read a line the tree does not read as an event") }
        try fuzzCheck(event == fast, "the byte reader and the tree read the line differently")
    }

    static func line(_ bytes: [UInt8], _ decoder: some RecordDecoder) throws(FuzzViolation) {
        guard let record = try? decoder.decode(line: bytes) else { return }
        try check(record)
    }

    /// What a decoded record promises the store.
    static func check(_ record: ImportedRecord) throws(FuzzViolation) {
        switch record {
        case .event(let event):
            try fuzzCheck(!event.chain.links.isEmpty, "an event without a chain")
            try fuzzCheck(!event.eventID.isEmpty, "an event without an id")
            for link in event.chain.links where !link.short.isEmpty {
                try fuzzCheck(ShortKey.parseLink(Substring(link.shortCode)) == ShortKey.Code(short: link.short, code: link.code),
                          "link \(link.shortCode) does not read back")
            }
            if let version = event.appVersion, let v = AppVersion(version) { try checkVersion(v) }
        case .complaint(let complaint):
            try fuzzCheck(!complaint.complaintID.isEmpty, "a complaint without an id")
            for key in complaint.codes {
                try fuzzCheck(ShortKey.canonical(key) == key, "cited key \(key) is not canonical")
            }
        case .adoption(let row):
            if case .daily(_, let version, let users, _) = row {
                try fuzzCheck(!version.isEmpty && users >= 0, "an adoption row without a version or with negative users")
            }
        }
    }

    static func file(_ bytes: [UInt8], source: SourceKind?) throws(FuzzViolation) {
        let path = scratchPath
        guard FuzzInput.write(bytes, to: path) else { return }
        guard let reader = try? RecordReader(path: path, source: source) else { return }
        var previous = 0
        var records = 0
        while let result = try? reader.next() {
            let line: Int
            switch result {
            case .record(let n, let record):
                line = n
                try check(record)
            case .rejected(let n, let reason, _):
                line = n
                try fuzzCheck(!reason.isEmpty, "a rejection without a reason")
            }
            try fuzzCheck(line > previous, "line numbers go \(previous) then \(line)")
            previous = line
            records += 1
            try fuzzCheck(records <= bytes.count + 1, "more records than bytes")
        }
    }

    /// A stream of envelopes read to its end: no item holds more than the limit, numbers count
    /// from 1, line numbers never go back, and the reader ends.
    static func envelope(_ bytes: [UInt8]) throws(FuzzViolation) {
        let reader = EnvelopeReader(lines: LineReader(bytes: bytes, name: "fuzz"))
        var previous = 0
        var results = 0
        while true {
            let result: EnvelopeReader.Result?
            do {
                result = try reader.next()
            } catch {
                return
            }
            guard let result else { break }
            let line: Int
            switch result {
            case .item(let item):
                line = item.line
                try fuzzCheck(item.payload.count <= EnvelopeReader.maxItemBytes,
                              "\(item.label): a payload of \(item.payload.count) bytes, over the limit of \(EnvelopeReader.maxItemBytes)")
                try fuzzCheck(item.envelope >= 1 && item.item >= 1, "\(item.label): envelopes and items count from 1")
                try fuzzCheck(!item.type.isEmpty, "\(item.label): an item without a type")
            case .rejected(let n, let reason, _):
                line = n
                try fuzzCheck(!reason.isEmpty, "a rejection without a reason")
            }
            try fuzzCheck(line >= previous, "line numbers go \(previous) then \(line)")
            previous = line
            results += 1
            try fuzzCheck(results <= bytes.count + 1, "more items than bytes")
        }
        try envelopeRecords(bytes)
    }

    /// The same stream read into records: it ends, and every session and complaint is whole.
    static func envelopeRecords(_ bytes: [UInt8]) throws(FuzzViolation) {
        guard let reader = try? RecordReader(bytes: bytes, name: "fuzz", source: .sentry) else { return }
        var records = 0
        while true {
            let result: RecordResult?
            do {
                result = try reader.next()
            } catch {
                return
            }
            guard let result else { break }
            if case .record(let line, let record) = result { try storableAndInert(record, line: line) }
            switch result {
            case .record(let line, .adoption(.session(let id, _, let version, let installation))):
                try fuzzCheck(!id.isEmpty && !version.isEmpty && !installation.isEmpty, "line \(line): a session without its id, version or user")
            case .record(let line, .complaint(let complaint)):
                try fuzzCheck(!complaint.text.isEmpty, "line \(line): a complaint without words")
                try fuzzCheck(complaint.eventID.map { !$0.isEmpty } ?? true, "line \(line): a complaint about an empty event id")
            default:
                break
            }
            records += 1
            try fuzzCheck(records <= bytes.count + 1, "more records than bytes")
        }
    }

    /// What a record becomes on its way to the store holds no U+0000 (`StorableText`), and every
    /// one of its texts, made inert as the command line prints it, holds nothing a terminal acts on.
    static func storableAndInert(_ record: ImportedRecord, line: Int) throws(FuzzViolation) {
        var texts: [String] = []
        switch record {
        case .event(var event):
            event.makeStorable()
            collectTexts(event, into: &texts)
        case .complaint(var complaint):
            complaint.makeStorable()
            collectTexts(complaint, into: &texts)
        case .adoption(let row):
            collectTexts(row.storable(), into: &texts)
        }
        for text in texts {
            try fuzzCheck(!StorableText.holdsNul(text), "line \(line): a text holds U+0000 after it was made storable")
            let live = TextSanitizer.inert(text).unicodeScalars.first { $0 != "\n" && $0 != "\t" && JSONString.isInertUnsafe($0) }
            try fuzzCheck(live == nil, "line \(line): U+\(String(live?.value ?? 0, radix: 16)) is live after the output's gate")
        }
    }

    /// Every string anywhere in a value.
    static func collectTexts(_ value: Any, into texts: inout [String]) {
        if let text = value as? String { texts.append(text); return }
        for child in Mirror(reflecting: value).children { collectTexts(child.value, into: &texts) }
    }

    /// A file per process, in memory where the system has a tmpfs.
    static let scratchPath: String = {
        let folder = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(folder)/errtriage-fuzz-\(getpid()).input"
    }()

    /// A document of numbers: read as an envelope stream and as a file of any source, each
    /// record checked, each event's payload read as `errtriage event` reads it and shown as
    /// text and JSON. The property is that the process lives: a trap ends the run.
    static func numbers(_ bytes: [UInt8]) throws(FuzzViolation) {
        try envelopeRecords(bytes)
        try file(bytes, source: nil)
        for source in [nil, SourceKind.sentry] {
            guard let reader = try? RecordReader(bytes: bytes, name: "fuzz", source: source) else { continue }
            var results = 0
            while let result = try? reader.next() {
                results += 1
                try fuzzCheck(results <= bytes.count + 1, "more records than bytes")
                guard case .record(_, .event(let event)) = result, let payload = event.payload else { continue }
                let detail = EventDetailReader.read(payload, source: event.source, eventID: event.eventID, timestamp: event.timestamp)
                _ = EventDetailText.render(detail, issueKey: event.chain.shortKey, kept: [])
                _ = EventDetailText.json(detail, issueKey: event.chain.shortKey, kept: []).serialized
            }
        }
    }

    static func chain(_ bytes: [UInt8]) throws(FuzzViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let codes = try? ShortKey.parse(text) {
            let key = codes.map { $0.short + ShortKey.encode(code: $0.code) }.joined(separator: "-")
            try fuzzCheck((try? ShortKey.parse(key)) == codes, "short key \(key) does not read back")
            try fuzzCheck(ShortKey.canonical(text) == key, "canonical form of \(key)")
        }
        if let names = try? FullForm.parse(text) {
            let spaced = names.map { "\($0.domain).\($0.name)" }.joined(separator: " - ")
            try fuzzCheck((try? FullForm.parse(spaced)) == names, "full form \(spaced.prefix(200)) does not read back")
        }
        for key in ShortKey.find(in: text) {
            try fuzzCheck(ShortKey.canonical(key) == key, "found key \(key) is not canonical")
        }
        if let newline = bytes.firstIndex(of: 0x0A) {
            let key = String(decoding: bytes[..<newline], as: UTF8.self)
            let full = String(decoding: bytes[(newline + 1)...], as: UTF8.self)
            if let chain = try? ErrorChain.zip(shortKey: key, fullForm: full) {
                let again = try? ErrorChain.zip(shortKey: chain.shortKey, fullForm: chain.fullForm)
                try fuzzCheck(again == chain, "chain \(chain.shortKey) does not zip back")
            }
        }
    }

    static func version(_ bytes: [UInt8]) throws(FuzzViolation) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let t = Timestamp.parse(text) {
            try fuzzCheck(Timestamp.parse(t.iso8601) == t, "time \(t.iso8601) does not read back")
        }
        // Up to three versions, a line each: each alone, then the order between them.
        let versions = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(3).compactMap { AppVersion(String($0)) }
        for v in versions { try checkVersion(v) }
        for a in versions {
            for b in versions {
                try fuzzCheck(!(a < b && b < a), "\(a) and \(b) are each below the other")
                if a == b { try fuzzCheck(a.hashValue == b.hashValue, "\(a) == \(b) with different hashes") }
                for c in versions where a < b && b < c {
                    try fuzzCheck(a < c, "\(a) < \(b) < \(c) but not \(a) < \(c)")
                }
            }
        }
    }

    static func checkVersion(_ v: AppVersion) throws(FuzzViolation) {
        try fuzzCheck(v == v && !(v < v), "version \(v) is not equal to itself")
        try fuzzCheck(v < v.next, "the version after \(v) is \(v.next)")
        // A suffix holding the characters that mark a build or a store prefix reads differently.
        if !v.suffix.contains(where: { "()+@ \t\r\n".contains($0) }), let again = AppVersion(v.description) {
            try fuzzCheck(again == v, "version \(v) does not read back")
        }
    }
}

extension FuzzTarget {
    /// The target FUZZ_TARGET names; a wrong name stops the run with the list of targets.
    public static let selected: FuzzTarget = {
        let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FuzzInput.complain("errtriage-fuzz: set FUZZ_TARGET to one of: \(names)\n")
            exit(1)
        }
        return target
    }()
}

/// Reading a saved input.
public enum FuzzInput {
    /// Writes an input to a file; false when it cannot.
    public static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Writes a message to standard error.
    public static func complain(_ text: String) {
        var text = text
        text.withUTF8 { _ = systemWrite(2, $0.baseAddress, $0.count) }
    }

    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            bytes += buffer[..<n]
        }
        return bytes
    }
}

/// write(2), out of reach of `FuzzInput.write`'s name.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }
