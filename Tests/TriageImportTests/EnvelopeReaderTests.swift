import Foundation
import TestSupport
import Testing
@testable import TriageImport
import TriageModel

/// Sentry envelopes as SDKs post them and files hold them: read in memory through `EnvelopeReader`
/// and from files through `RecordReader`, which tells a stream of envelopes by its first line.
@Suite struct EnvelopeReaderTests {
    // MARK: - Building envelopes

    static let limit = EnvelopeReader.maxItemBytes

    /// A 32-hex-digit event id ending in `n`.
    static func id(_ n: Int) -> String {
        let s = String(n, radix: 16)
        return String(repeating: "0", count: 32 - s.count) + s
    }

    /// A Sentry event that decodes: one exception value.
    static func event(_ n: Int) -> String {
        #"{"event_id":"\#(id(n))","timestamp":1794315600.25,"platform":"cocoa","level":"error","#
            + #""exception":{"values":[{"type":"NetworkError","value":"timeout","mechanism":{"meta":{"ns_error":{"domain":"NetworkError","code":8}}}}]}}"#
    }

    /// An envelope's header line.
    static func header(_ n: Int) -> String {
        #"{"event_id":"\#(id(n))","sent_at":"2026-11-12T02:14:26.250Z","sdk":{"name":"sentry.cocoa","version":"8.40.0"}}"# + "\n"
    }

    /// An item: its header line, its payload and a line break; `length` when `counted`.
    static func item(_ type: String, _ payload: String, counted: Bool = true) -> String {
        (counted ? #"{"type":"\#(type)","length":\#(payload.utf8.count)}"# : #"{"type":"\#(type)"}"#) + "\n" + payload + "\n"
    }

    /// A `session` item's payload as the Python SDK writes it (`Session.to_json`).
    static let session = #"{"sid":"7c1a4f2e-3b1d-4c55-9a7e-0d8f6b2c1e90","init":true,"started":"2026-11-12T02:10:00.125000Z","#
        + #""timestamp":"2026-11-12T02:14:26.250000Z","status":"ok","did":"user-7","attrs":{"release":"shop@1.4.0","environment":"production"}}"#

    // MARK: - Reading

    /// What an `EnvelopeReader` gives, step by step.
    struct Read {
        var items: [EnvelopeItem] = []
        var rejections: [(line: Int, reason: String)] = []
        /// `item` or `rejected`, in order.
        var steps: [String] = []
        var envelopes = 0
    }

    static func read(_ bytes: [UInt8]) throws -> Read {
        let reader = EnvelopeReader(lines: LineReader(bytes: bytes, name: "body"))
        var read = Read()
        while let result = try reader.next() {
            switch result {
            case .item(let item):
                read.items.append(item)
                read.steps.append("item")
            case .rejected(let line, let reason, _):
                read.rejections.append((line, reason))
                read.steps.append("rejected")
            }
            #expect(read.steps.count <= bytes.count + 1, "the reader does not end")
            if read.steps.count > bytes.count + 1 { break }
        }
        read.envelopes = reader.envelopes
        return read
    }

    static func read(_ text: String) throws -> Read { try read(Array(text.utf8)) }

    /// What a `RecordReader` gives for a file.
    struct Ingested {
        var kind: SourceKind
        var events: [(line: Int, event: ErrorEvent)] = []
        var rejections: [(line: Int, reason: String)] = []
        var adoption: [AdoptionRecord] = []
        var complaints: [Complaint] = []
        var skipped: [String: Int] = [:]
        var envelopes = 0
    }

    static func ingest(path: String) throws -> Ingested {
        let reader = try RecordReader(path: path, source: nil)
        var ingested = Ingested(kind: reader.kind)
        while let result = try reader.next() {
            switch result {
            case .record(let line, .event(let event)): ingested.events.append((line, event))
            case .record(_, .adoption(let record)): ingested.adoption.append(record)
            case .record(_, .complaint(let complaint)): ingested.complaints.append(complaint)
            case .rejected(let line, let reason, _): ingested.rejections.append((line, reason))
            }
        }
        ingested.skipped = reader.skippedItems
        ingested.envelopes = reader.envelopeCount
        return ingested
    }

    static func ingest(_ bytes: [UInt8], name: String = "stream.envelope") throws -> Ingested {
        let folder = try TemporaryFolder()
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try ingest(path: path)
    }

    static func ingest(_ text: String) throws -> Ingested { try ingest(Array(text.utf8)) }

    // MARK: - Items

    @Test func anItemWithALengthReadsThatManyBytes() throws {
        let read = try Self.read(Self.header(1) + Self.item("event", Self.event(1)))
        try #require(read.items.count == 1 && read.rejections.isEmpty, "\(read.rejections)")
        let item = read.items[0]
        #expect(item.type == "event" && item.envelope == 1 && item.item == 1 && item.line == 3)
        #expect(item.payload == Array(Self.event(1).utf8))
        #expect(item.envelopeHeader["sent_at"]?.text == "2026-11-12T02:14:26.250Z")
        #expect(item.label == "envelope 1, item 1 (event)")
    }

    @Test func anItemWithoutALengthReadsTheRestOfItsLine() throws {
        let read = try Self.read(Self.header(1) + Self.item("session", Self.session, counted: false))
        try #require(read.items.count == 1 && read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items[0].type == "session" && read.items[0].line == 3)
        #expect(read.items[0].payload == Array(Self.session.utf8))
    }

    @Test func itemsWithAndWithoutALengthMixInOneEnvelope() throws {
        let read = try Self.read(Self.header(1) + Self.item("event", Self.event(1)) + Self.item("session", Self.session, counted: false)
            + Self.item("client_report", #"{"discarded_events":[]}"#))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["event", "session", "client_report"])
        #expect(read.items.map(\.item) == [1, 2, 3])
        #expect(read.items.map(\.line) == [3, 5, 7])
    }

    @Test func severalEnvelopesInOneStreamAreNumberedInTurn() throws {
        var text = ""
        for n in 1...3 { text += Self.header(n) + Self.item("event", Self.event(n)) + Self.item("session", Self.session, counted: false) }
        let read = try Self.read(text)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.envelopes == 3)
        #expect(read.items.map(\.envelope) == [1, 1, 2, 2, 3, 3])
        #expect(read.items.map(\.item) == [1, 2, 1, 2, 1, 2])
        #expect(read.items.map { $0.envelopeHeader["event_id"]?.text } == [1, 1, 2, 2, 3, 3].map { Self.id($0) })
    }

    @Test func anEmptyHeaderBeginsAnEnvelope() throws {
        let read = try Self.read("{}\n" + Self.item("event", Self.event(1)) + "{}\n" + Self.item("event", Self.event(2)))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.envelopes == 2)
        #expect(read.items.map(\.envelope) == [1, 2])
        #expect(read.items.allSatisfy { $0.envelopeHeader == .object([]) })
    }

    @Test func aFileWhoseFirstLineIsAnEmptyHeaderIsReadAsEnvelopes() throws {
        let ingested = try Self.ingest("{}\n" + Self.item("event", Self.event(1)) + Self.item("session", Self.session))
        #expect(ingested.kind == .sentry)
        #expect(ingested.envelopes == 1)
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
        #expect(ingested.adoption.count == 1 && ingested.skipped.isEmpty)
        #expect(ingested.rejections.isEmpty, "\(ingested.rejections)")
    }

    @Test func aPayloadWithoutATrailingLineBreakRunsIntoTheNextItemsHeader() throws {
        let text = Self.header(1) + #"{"type":"attachment","length":5}"# + "\nhello" + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
        #expect(read.items.first?.payload == Array("hello".utf8))
        #expect(read.items.last?.payload == Array(Self.event(1).utf8))
    }

    @Test func aZeroLengthPayloadIsEmpty() throws {
        let read = try Self.read(Self.header(1) + Self.item("attachment", "") + Self.item("event", Self.event(1)))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
        #expect(read.items.first?.payload == [])
    }

    @Test func aZeroLengthPayloadNeedNotEndItsLine() throws {
        let text = Self.header(1) + #"{"type":"attachment","length":0}"# + "\n" + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
        #expect(read.items.first?.payload == [])
        #expect(read.items.last?.payload == Array(Self.event(1).utf8))
    }

    @Test func aPayloadWithALengthMayHoldLineBreaks() throws {
        let log = "line one\nline two\n\n  indented\nend"
        let read = try Self.read(Self.header(1) + Self.item("attachment", log) + Self.item("event", Self.event(1)))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
        #expect(read.items.first.map { String(decoding: $0.payload, as: UTF8.self) } == log)
    }

    /// A payload's bytes are its bytes: a CR before a line feed (a Windows log, a PNG's signature) is kept.
    @Test func aPayloadWithALengthKeepsItsCarriageReturns() throws {
        let log = "line one\r\nline two\r\nend"
        let read = try Self.read(Self.header(1) + Self.item("attachment", log) + Self.item("event", Self.event(1)))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
        #expect(read.items.first.map { String(decoding: $0.payload, as: UTF8.self).debugDescription } == log.debugDescription)
    }

    /// The same, without a line break after the payload: a count short by the CRs eats into the next header.
    @Test func aPayloadWithCarriageReturnsRunningIntoTheNextHeaderLeavesItWhole() throws {
        let log = "a\r\nb"
        let text = Self.header(1) + #"{"type":"attachment","length":\#(log.utf8.count)}"# + "\n" + log + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["attachment", "event"])
    }

    // MARK: - Over the limit

    @Test func anItemOverTheLimitByItsLengthIsRejectedWithItsSizeAndTheNextIsRead() throws {
        let big = String(repeating: "a", count: 2_000_000)
        let text = Self.header(1) + Self.item("attachment", big) + Self.item("event", Self.event(1))
        for read in [try Self.read(text)] {
            try #require(read.rejections.count == 1, "\(read.rejections)")
            #expect(read.rejections[0].line == 3)
            #expect(read.rejections[0].reason.contains("2000000 bytes"), "\(read.rejections[0].reason)")
            #expect(read.rejections[0].reason.contains("\(Self.limit) bytes"), "\(read.rejections[0].reason)")
            #expect(read.rejections[0].reason.contains("envelope 1, item 1 (attachment)"), "\(read.rejections[0].reason)")
            #expect(read.items.map(\.type) == ["event"])
        }
        let ingested = try Self.ingest(text)
        #expect(ingested.rejections.map(\.line) == [3])
        #expect(ingested.rejections.first?.reason.contains("2000000 bytes") == true)
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
    }

    @Test func aPayloadOfExactlyTheLimitIsKept() throws {
        let text = Self.header(1) + Self.item("attachment", String(repeating: "a", count: Self.limit)) + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.items.map(\.payload.count) == [Self.limit, Self.event(1).utf8.count])
    }

    /// In memory.
    @Test func anItemOverTheLimitAsALongLineIsRejectedWithItsSizeAndTheNextIsRead() throws {
        let text = Self.header(1) + Self.item("attachment", String(repeating: "a", count: 2_000_000), counted: false)
            + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.items.map(\.type) == ["event"], "payload sizes \(read.items.map(\.payload.count))")
        try #require(read.rejections.count == 1, "\(read.rejections)")
        #expect(read.rejections[0].line == 3)
        #expect(read.rejections[0].reason.contains("2000000 bytes") && read.rejections[0].reason.contains("\(Self.limit) bytes"),
                "\(read.rejections[0].reason)")
    }

    /// From a file.
    @Test func anItemOverTheLimitAsALongLineInAFileIsRejectedWithItsSizeAndTheNextIsRead() throws {
        let text = Self.header(1) + Self.item("attachment", String(repeating: "a", count: 2_000_000), counted: false)
            + Self.item("event", Self.event(1))
        let ingested = try Self.ingest(text)
        #expect(ingested.rejections.map(\.line) == [3])
        #expect(ingested.rejections.first.map { $0.reason.contains("2000000 bytes") && $0.reason.contains("\(Self.limit) bytes") } == true,
                "\(ingested.rejections)")
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
        #expect(ingested.skipped.isEmpty)
    }

    /// A line just over the limit (by less than the reader's 256 KiB chunk) is over it too.
    @Test func aPayloadLineJustOverTheLimitInAFileIsRejected() throws {
        let size = Self.limit + 1000
        let text = Self.header(1) + Self.item("attachment", String(repeating: "a", count: size), counted: false)
            + Self.item("event", Self.event(1))
        let ingested = try Self.ingest(text)
        #expect(ingested.rejections.map(\.line) == [3], "attachments read: \(ingested.skipped)")
        #expect(ingested.rejections.first?.reason.contains("\(size) bytes") == true, "\(ingested.rejections)")
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
    }

    /// Sentry's envelopes need no line break after a payload: an oversized one runs straight into the next header.
    @Test func anItemOverTheLimitRunningIntoTheNextHeaderLeavesTheNextItemToRead() throws {
        let text = Self.header(1) + #"{"type":"attachment","length":2000000}"# + "\n" + String(repeating: "a", count: 2_000_000)
            + Self.item("event", Self.event(1))
        let read = try Self.read(text)
        #expect(read.rejections.count == 1 && read.rejections.first?.reason.contains("2000000 bytes") == true, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["event"])
        let ingested = try Self.ingest(text)
        #expect(ingested.rejections.count == 1 && ingested.rejections.first?.reason.contains("2000000 bytes") == true, "\(ingested.rejections)")
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
    }

    /// A payload within the limit running into the next header, on a line that is then over the
    /// limit. The file is laid out so that one of the reader's 256 KiB reads ends past the limit
    /// within that line but before its end: the reader then keeps only the line's start.
    @Test func aPayloadWithinTheLimitRunningIntoTheNextHeaderInAFileIsKeptWhole() throws {
        let payload = Self.limit - 10
        let chunk = 1 << 18
        let bigHeader = #"{"type":"attachment","length":\#(payload)}"# + "\n"
        // The big payload starts at `at`: the fifth read ends 5 bytes past the limit into its line.
        let at = 5 * chunk - Self.limit - 5
        let fixed = Self.header(1).utf8.count + #"{"type":"attachment","length":}"#.utf8.count + 2 + bigHeader.utf8.count
        let filler = at - fixed - 6
        try #require(String(filler).utf8.count == 6)
        let next = Self.item("event", Self.event(1))
        let text = Self.header(1) + Self.item("attachment", String(repeating: "f", count: filler)) + bigHeader
            + String(repeating: "b", count: payload) + next
        let lineEnd = at + payload + next.utf8.count - Self.event(1).utf8.count - 2
        try #require(Array(text.utf8)[at - 1] == 0x0A && Array(text.utf8)[lineEnd] == 0x0A && lineEnd > 5 * chunk,
                     "layout: payload at \(at), its line ends at \(lineEnd)")
        let folder = try TemporaryFolder()
        let path = try folder.file("aligned.envelope", text)
        let reader = EnvelopeReader(lines: try LineReader(path: path))
        var items: [EnvelopeItem] = []
        var rejections: [String] = []
        while let result = try reader.next() {
            switch result {
            case .item(let item): items.append(item)
            case .rejected(_, let reason, _): rejections.append(reason)
            }
        }
        #expect(rejections.isEmpty, "\(rejections)")
        #expect(items.map(\.type) == ["attachment", "attachment", "event"])
        #expect(items.map(\.payload.count) == [filler, payload, Self.event(1).utf8.count])
        let ingested = try Self.ingest(path: path)
        #expect(ingested.rejections.isEmpty, "\(ingested.rejections)")
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
        #expect(ingested.skipped == ["attachment": 2])
    }

    // MARK: - Bad input

    @Test func aHeaderLineThatIsNotJSONIsRejectedNamingItsEnvelopeAndItem() throws {
        let text = Self.header(1) + Self.item("event", Self.event(1)) + "{\"type\": session\n" + Self.session + "\n"
            + Self.item("event", Self.event(2))
        let read = try Self.read(text)
        try #require(!read.rejections.isEmpty)
        #expect(read.rejections[0].line == 4)
        #expect(read.rejections[0].reason.hasPrefix("envelope 1, item 2: the header line is not valid JSON"), "\(read.rejections[0].reason)")
        #expect(read.items.map(\.type).filter { $0 == "event" }.count == 2, "the items after it are read on")
        let ingested = try Self.ingest(text)
        #expect(ingested.rejections.first?.line == 4)
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1), Self.id(2)])
    }

    @Test func aLengthThatIsNotACountOfBytesIsRejected() throws {
        for length in ["-1", "\"ten\"", "1.5", "4294967296"] {
            let text = Self.header(1) + #"{"type":"attachment","length":\#(length)}"# + "\nxx\n" + Self.item("event", Self.event(1))
            let read = try Self.read(text)
            #expect(read.rejections.map(\.line) == [2], "\(length)")
            #expect(read.rejections.first?.reason.contains("envelope 1, item 1 (attachment): length must be a whole number of bytes") == true,
                    "\(length): \(read.rejections)")
            #expect(read.items.map(\.type) == ["event"], "\(length)")
        }
    }

    @Test func anEnvelopeThatEndsInsideAPayloadIsRejected() throws {
        let event = Self.event(1)
        let text = Self.header(1) + #"{"type":"event","length":\#(event.utf8.count + 100)}"# + "\n" + event + "\n"
        let read = try Self.read(text)
        #expect(read.items.isEmpty)
        #expect(read.rejections.map(\.line) == [3])
        #expect(read.rejections.first?.reason == "envelope 1, item 1 (event): the envelope ends before its \(event.utf8.count + 100) bytes of payload")
    }

    @Test func anEnvelopeThatEndsAfterAnItemHeaderIsRejected() throws {
        let text = Self.header(1) + Self.item("event", Self.event(1)) + #"{"type":"session"}"# + "\n"
        let read = try Self.read(text)
        #expect(read.items.map(\.type) == ["event"])
        #expect(read.rejections.map(\.line) == [4])
        #expect(read.rejections.first?.reason == "envelope 1, item 2 (session): the envelope ends before the item's payload")
    }

    @Test func aTruncatedEnvelopeFileKeepsTheEventsBeforeTheCut() throws {
        let whole = Self.header(1) + Self.item("event", Self.event(1)) + Self.header(2) + Self.item("event", Self.event(2))
        let ingested = try Self.ingest(String(whole.dropLast(40)))
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
        #expect(ingested.rejections.map(\.line) == [6])
        #expect(ingested.rejections.first?.reason.contains("envelope 2, item 1 (event): the envelope ends before") == true, "\(ingested.rejections)")
    }

    @Test func anItemTypeThatIsNotTextIsRejected() throws {
        // A number or a boolean reads as its text, as in every decoder; an array or an object does not.
        let read = try Self.read(Self.header(1) + #"{"type":["event"],"length":2}"# + "\n{}\n" + Self.item("event", Self.event(1)))
        #expect(read.rejections.first?.reason.contains("the item header's type must be text") == true, "\(read.rejections)")
        #expect(read.items.map(\.type) == ["event"])
    }

    // MARK: - Through the record reader

    @Test func itemsThatAreNotStoredAreCountedByType() throws {
        let text = Self.header(1) + Self.item("event", Self.event(1)) + Self.item("session", Self.session, counted: false)
            + Self.item("attachment", "log\nlines") + Self.header(2) + Self.item("session", Self.session)
            + Self.item("client_report", #"{"discarded_events":[{"reason":"queue_overflow","category":"error","quantity":3}]}"#)
            + Self.item("transaction", #"{"type":"transaction","event_id":"\#(Self.id(9))"}"#)
        let ingested = try Self.ingest(text)
        #expect(ingested.skipped == ["attachment": 1, "client_report": 1, "transaction": 1])
        #expect(ingested.events.count == 1 && ingested.adoption.count == 2)
        #expect(ingested.envelopes == 2)
    }

    @Test func anEventItemDecodesToAnEvent() throws {
        let ingested = try Self.ingest(Self.header(1) + Self.item("event", Self.event(7)))
        #expect(ingested.kind == .sentry)
        try #require(ingested.events.count == 1, "\(ingested.rejections)")
        let (line, event) = ingested.events[0]
        #expect(line == 3)
        #expect(event.eventID == Self.id(7))
        #expect(event.platform == "cocoa")
        #expect(event.chain.links.map(\.domain) == ["NetworkError"])
        #expect(event.chain.links.first?.code == 8)
    }

    @Test func anEventItemThatDoesNotDecodeIsRejectedWithItsLabel() throws {
        let ingested = try Self.ingest(Self.header(1) + Self.item("event", #"{"timestamp":1794315600}"#) + Self.item("event", Self.event(1)))
        #expect(ingested.rejections.map(\.line) == [3])
        #expect(ingested.rejections.first?.reason == "envelope 1, item 1 (event): missing event_id")
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
    }

    @Test func aGzipEnvelopeFileReadsAsThePlainOne() throws {
        var text = ""
        for n in 1...4 { text += Self.header(n) + Self.item("event", Self.event(n)) + Self.item("session", Self.session, counted: n % 2 == 0) }
        let folder = try TemporaryFolder()
        let plain = try folder.file("stream.envelope", text)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gzip.arguments = ["gzip", "-k", "-f", plain]
        try gzip.run()
        gzip.waitUntilExit()
        try #require(gzip.terminationStatus == 0)
        let packed = plain + ".gz"
        try #require(FileManager.default.contents(atPath: packed)?.prefix(2) == Data([0x1F, 0x8B]))
        let a = try Self.ingest(path: plain), b = try Self.ingest(path: packed)
        #expect(b.kind == .sentry)
        #expect(b.events.map(\.event.eventID) == (1...4).map(Self.id))
        #expect(b.events.map(\.line) == a.events.map(\.line))
        #expect(b.adoption.count == 4 && b.adoption == a.adoption && b.skipped.isEmpty && a.skipped.isEmpty)
        #expect(b.envelopes == 4 && a.envelopes == 4)
        #expect(b.rejections.isEmpty && a.rejections.isEmpty)
    }

    @Test func aTwoMiBFirstLineIsRejectedWithItsSizeAndEveryGoodEventAfterItIsKept() throws {
        let long = #"{"pad":""# + String(repeating: "x", count: 2 * (1 << 20) - 10) + #""}"#
        try #require(long.utf8.count == 2 * (1 << 20))
        let events = (1...5).map(Self.event)
        let ingested = try Self.ingest(long + "\n" + events.joined(separator: "\n") + "\n")
        #expect(ingested.kind == .sentry)
        #expect(ingested.rejections.map(\.line) == [1])
        #expect(ingested.rejections.first?.reason == "line of \(2 * (1 << 20)) bytes is over the limit of \(Self.limit) bytes for one record")
        #expect(ingested.events.map(\.line) == [2, 3, 4, 5, 6])
        #expect(ingested.events.map(\.event.eventID) == (1...5).map(Self.id))
    }

    @Test func aTwoMiBFirstLineBeforeEnvelopesIsRejectedAndTheEnvelopesAreRead() throws {
        let long = String(repeating: "x", count: 2 * (1 << 20))
        let ingested = try Self.ingest(long + "\n" + Self.header(1) + Self.item("event", Self.event(1)) + Self.item("session", Self.session))
        #expect(ingested.kind == .sentry)
        #expect(ingested.rejections.map(\.line) == [1])
        #expect(ingested.rejections.first?.reason.contains("\(2 * (1 << 20)) bytes") == true)
        #expect(ingested.events.map(\.event.eventID) == [Self.id(1)])
        #expect(ingested.events.map(\.line) == [4])
        #expect(ingested.envelopes == 1 && ingested.adoption.count == 1 && ingested.skipped.isEmpty)
    }
}
