import TriageModel

/// One item of a Sentry envelope: its type, its payload and where it stood.
public struct EnvelopeItem: Sendable {
    /// The envelope's place in the stream, from 1.
    public var envelope: Int
    /// The item's place in its envelope, from 1.
    public var item: Int
    /// The item header's `type`: `event`, `session`, `attachment`, …
    public var type: String
    /// The line the payload starts on.
    public var line: Int
    public var payload: [UInt8]
    /// The envelope's header (`event_id`, `dsn`, `sdk`, `sent_at`, `trace`).
    public var envelopeHeader: JSONValue

    /// How a rejection names the item: `envelope 2, item 1 (event)`.
    public var label: String { "envelope \(envelope), item \(item) (\(type))" }
}

/// Sentry envelopes, one after another, as SDKs POST them and as a file holds them: a header
/// line, then items, each a header line (`type`, optionally `length` in bytes) and its payload:
/// `length` bytes when given, else the rest of the line. A payload over `maxItemBytes` is
/// skipped and named with its size; a header that is not JSON is named with its envelope; the
/// items after either are read on.
public final class EnvelopeReader {
    /// The largest payload read: Sentry's own limit for one event.
    public static let maxItemBytes = LineReader.maxLineBytes

    /// What reading one step gives.
    public enum Result {
        case item(EnvelopeItem)
        case rejected(line: Int, reason: String, raw: [UInt8])
    }

    private let lines: LineReader
    private var pushedBack: [InputLine]
    /// Envelopes begun so far.
    public private(set) var envelopes = 0
    private var items = 0
    private var header: JSONValue = .object([])

    /// The members an envelope's header may have; an object with only these (or none) is one.
    static let headerKeys: Set<String> = ["event_id", "dsn", "sdk", "sent_at", "trace"]

    /// Whether a parsed line is an envelope's header rather than an event of its own.
    public static func isHeader(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        let names = Set(members.map(\.0))
        return names.isSubset(of: headerKeys) && (names.isEmpty || names != ["event_id"])
    }

    /// Reads envelopes from `lines`; `first` are lines already read from it, in order.
    public init(lines: LineReader, first: [InputLine] = []) {
        self.lines = lines
        pushedBack = first.reversed()
    }

    private func nextLine() throws(InputError) -> InputLine? {
        if let line = pushedBack.popLast() { return line }
        return try lines.next()
    }

    /// The next item or rejection; nil at the end.
    public func next() throws(InputError) -> Result? {
        while let line = try nextLine() {
            if !line.tooLong, line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let at = "envelope \(max(envelopes, 1))"
            if line.tooLong {
                return .rejected(line: line.number, reason: "\(at): a header line of \(line.size) bytes (headers are one short JSON line)", raw: line.bytes)
            }
            let value: JSONValue
            do {
                value = try parseObject(line: line.bytes)
            } catch {
                return .rejected(line: line.number, reason: "\(at), item \(items + 1): the header line is \(error.reason)", raw: line.bytes)
            }
            guard let typeValue = value["type"] else {
                envelopes += 1
                items = 0
                header = value
                continue
            }
            if envelopes == 0 { envelopes = 1 }
            items += 1
            let type = typeValue.nonEmptyText ?? "?"
            let label = "envelope \(envelopes), item \(items) (\(type))"
            if let length = value["length"], length != .null {
                guard let count = length.int64, count >= 0, count < Int64(Int32.max) else {
                    _ = try nextLine()
                    return .rejected(line: line.number, reason: "\(label): length must be a whole number of bytes, found \(length.serialized.prefix(40))", raw: line.bytes)
                }
                let payloadLine = line.number + 1
                guard let payload = try read(bytes: Int(count), keep: count <= EnvelopeReader.maxItemBytes) else {
                    return .rejected(line: payloadLine, reason: "\(label): the envelope ends before its \(count) bytes of payload", raw: line.bytes)
                }
                if count > EnvelopeReader.maxItemBytes {
                    return .rejected(line: payloadLine, reason: RecordReader.overLimitReason("\(label): payload of \(count) bytes", limit: EnvelopeReader.maxItemBytes, per: "item"), raw: line.bytes)
                }
                guard typeValue.text != nil else {
                    return .rejected(line: line.number, reason: "\(label): the item header's type must be text", raw: line.bytes)
                }
                return .item(EnvelopeItem(envelope: envelopes, item: items, type: type, line: payloadLine, payload: payload, envelopeHeader: header))
            }
            guard let payload = try nextLine() else {
                return .rejected(line: line.number, reason: "\(label): the envelope ends before the item's payload", raw: line.bytes)
            }
            if payload.tooLong {
                return .rejected(line: payload.number, reason: RecordReader.overLimitReason("\(label): payload of \(payload.size) bytes", limit: EnvelopeReader.maxItemBytes, per: "item"), raw: payload.bytes)
            }
            guard typeValue.text != nil else {
                return .rejected(line: line.number, reason: "\(label): the item header's type must be text", raw: line.bytes)
            }
            return .item(EnvelopeItem(envelope: envelopes, item: items, type: type, line: payload.number, payload: payload.bytes, envelopeHeader: header))
        }
        return nil
    }

    /// The next `count` bytes, exactly (line breaks and carriage returns inside them included);
    /// what follows them is read next. Nil when the input ends first; empty when `keep` is false.
    private func read(bytes count: Int, keep: Bool) throws(InputError) -> [UInt8]? {
        guard pushedBack.isEmpty else {
            // Only the first line is ever handed back, and it is the envelope's header.
            var out: [UInt8] = []
            while out.count < count, let line = pushedBack.popLast() { out += line.bytes + [0x0A] }
            return Array(out.prefix(count))
        }
        return try lines.bytes(count, keep: keep)
    }
}

/// An envelope's header line: the envelope's `event_id` and the public key of its `dsn`, which
/// browser SDKs send in place of an `X-Sentry-Auth` header.
public struct EnvelopeHeader: Sendable, Equatable {
    public var eventID: String?
    /// The DSN's public key (`https://KEY@host/1` gives `KEY`); nil where the header names no DSN.
    public var publicKey: String?

    /// Nil when the line is not a JSON object.
    public init?(line: [UInt8]) {
        guard let value = try? JSONParser.parse(line), case .object = value else { return nil }
        eventID = value["event_id"]?.nonEmptyText
        publicKey = value["dsn"]?.nonEmptyText.flatMap(Self.publicKey(ofDSN:))
    }

    /// `SCHEME://PUBLIC_KEY[:SECRET]@HOST[:PORT][/PATH]/PROJECT_ID` → `PUBLIC_KEY`.
    public static func publicKey(ofDSN dsn: String) -> String? {
        let chars = Array(dsn.utf8)
        guard let colon = chars.firstIndex(of: UInt8(ascii: ":")), colon + 2 < chars.count,
              chars[colon + 1] == UInt8(ascii: "/"), chars[colon + 2] == UInt8(ascii: "/") else { return nil }
        let rest = Substring(String(decoding: chars[(colon + 3)...], as: UTF8.self))
        guard let at = rest.firstIndex(of: "@"), !rest[..<at].contains("/") else { return nil }
        let user = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return user.isEmpty ? nil : String(user)
    }
}
