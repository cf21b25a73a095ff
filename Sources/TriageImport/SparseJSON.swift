import TriageModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What of an object a decoder reads: the members it names, each kept whole or, for an object or
/// an array of objects, kept in part by its own `SparseKeep`.
public struct SparseKeep: Sendable {
    let members: [String: SparseKeep?]
    /// Whether the other members stay by name (with `null`): where a source is told by names.
    let namesOthers: Bool
    /// The members by their names' bytes, looked up without making a string of each name read.
    let byBytes: [(name: [UInt8], key: String, keep: SparseKeep?)]

    public init(_ members: [String: SparseKeep?], namesOthers: Bool = true) {
        self.members = members
        self.namesOthers = namesOthers
        byBytes = members.map { (Array($0.key.utf8), $0.key, $0.value) }.sorted { $0.key < $1.key }
    }

    /// The kept member a name's bytes name: its key and its own keep (nil: kept whole); nil where it is not kept.
    func member(_ raw: UnsafeBufferPointer<UInt8>) -> (key: String, keep: SparseKeep?)? {
        for entry in byBytes where entry.name.count == raw.count {
            if entry.name.withUnsafeBufferPointer({ memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
                return (entry.key, entry.keep)
            }
        }
        return nil
    }

    /// What `CrashlyticsDecoder` reads of a row of Crashlytics' BigQuery export: not its threads,
    /// frames, logs or breadcrumbs, which make most of a real row's bytes.
    public static let crashlytics = SparseKeep([
        "event_id": nil, "event_timestamp": nil, "custom_keys": nil, "issue_title": nil, "issue_subtitle": nil,
        "errors": SparseKeep(["title": nil, "subtitle": nil, "code": nil]), "exceptions": SparseKeep(["type": nil]),
        "application": nil, "platform": nil, "operating_system": nil, "device": nil, "app_orientation": nil,
        "process_state": nil, "memory": nil, "storage": nil, "user": nil, "firebase_session_id": nil,
        "installation_uuid": nil, "error_type": nil, "is_fatal": nil,
    ])

    /// What `SentryDecoder` reads of an event: not the breadcrumbs, debug images, spans, request
    /// or `extra` (but for the console integration's `extra.arguments`), and of a stack trace only
    /// what a raise site reads (`RaiseSite`, `SentryFrames`): each frame's module, function, file,
    /// path, source line and `in_app`, not its variables or its context around the line, which make
    /// most of an SDK's bytes. `exception` is an object of
    /// `values`, a bare array of values, or one value: its keep names a value's members too;
    /// `threads` likewise (an object of `values`, or sentry-go's bare array).
    public static let sentryEvent: SparseKeep = {
        let frame = SparseKeep(["module": nil, "function": nil, "filename": nil, "abs_path": nil, "context_line": nil, "in_app": nil],
                               namesOthers: false)
        let stacktrace = SparseKeep(["frames": frame], namesOthers: false)
        let value: [String: SparseKeep?] = ["type": nil, "value": nil, "mechanism": nil, "data": nil, "stacktrace": stacktrace]
        let exception = SparseKeep(value.merging(["values": SparseKeep(value)]) { a, _ in a })
        let thread: [String: SparseKeep?] = ["current": nil, "crashed": nil, "stacktrace": stacktrace]
        let threads = SparseKeep(thread.merging(["values": SparseKeep(thread, namesOthers: false)]) { a, _ in a }, namesOthers: false)
        return SparseKeep([
            "event_id": nil, "timestamp": nil, "received": nil, "exception": exception,
            "sentry.interfaces.Exception": exception, "tags": nil, "logentry": nil, "sentry.interfaces.Message": nil,
            "message": nil, "fingerprint": nil, "release": nil, "dist": nil, "platform": nil, "environment": nil,
            "level": nil, "user": nil, "sentry.interfaces.User": nil, "logger": nil, "sdk": SparseKeep(["name": nil]),
            "threads": threads, "stacktrace": stacktrace, "sentry.interfaces.Stacktrace": stacktrace,
            "contexts": SparseKeep(["app": nil, "os": nil, "device": nil, "runtime": nil, "browser": nil]),
            "server_name": nil, "transaction": nil, "request": SparseKeep(["url": nil]), "sentry.interfaces.Http": SparseKeep(["url": nil]),
            "extra": SparseKeep(["arguments": nil], namesOthers: false),
        ])
    }()
}

extension JSONParser {
    /// Parses one JSON text as `parse` does, accepting and rejecting exactly the same texts, but
    /// builds only the members `keep` names: every other member of a kept object stays, by name,
    /// with `null` for its value (so that a source is still told by its members' names), its
    /// value checked but not built.
    public static func parse(_ bytes: [UInt8], keeping keep: SparseKeep) throws(JSONParseError) -> JSONValue {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer)
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0, keeping: keep)
                parser.skipWhitespace()
                guard parser.i == buffer.count else { throw parser.error("unexpected text after the JSON value") }
                return value
            }
        } catch let e as JSONParseError {
            throw e
        } catch {
            throw JSONParseError(message: "\(error)", offset: 0)
        }
    }

    /// A value kept in part: an object's named members, or an array's elements each kept so.
    mutating func parseValue(depth: Int, keeping keep: SparseKeep) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        guard i < bytes.count else { throw error(i == 0 ? "empty line" : "unexpected end of line (truncated JSON?)") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            var members: [(String, JSONValue)] = []
            try self.members { (p: inout JSONParser, name: ScannedString) throws(JSONParseError) in
                // An escaped name (rare) is read as text; any other is looked up by its bytes.
                let found = name.escaped ? try p.string(name).utf8.withContiguousStorageIfAvailable(keep.member) ?? nil
                                         : keep.member(name.raw)
                switch found {
                case (let key, let inner?)?: members.append((key, try p.parseValue(depth: depth + 1, keeping: inner)))
                case (let key, nil)?: members.append((key, try p.parseValue(depth: depth + 1)))
                case nil:
                    try p.skipValue(depth: depth + 1)
                    if keep.namesOthers { members.append((try p.string(name), .null)) }
                }
            }
            return .object(members)
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try array { (p: inout JSONParser) throws(JSONParseError) in elements.append(try p.parseValue(depth: depth + 1, keeping: keep)) }
            return .array(elements)
        default:
            return try parseValue(depth: depth)
        }
    }

    /// Reads past one value with every check `parseValue` makes, building nothing.
    mutating func skipValue(depth: Int) throws(JSONParseError) {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        guard i < bytes.count else { throw error(i == 0 ? "empty line" : "unexpected end of line (truncated JSON?)") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            try object(names: false) { (p: inout JSONParser, _: String?) throws(JSONParseError) in try p.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try array { (p: inout JSONParser) throws(JSONParseError) in try p.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        case 0: throw error("NUL byte")
        default: throw error("not JSON")
        }
    }

    /// `parseString`'s checks (raw control characters, UTF-8, escapes) without keeping the text.
    mutating func skipString() throws(JSONParseError) {
        let string = try scanString()
        // Escapes are rare: checked by reading them.
        if string.escaped { _ = try unescape(string.raw, base: string.start) }
    }
}
