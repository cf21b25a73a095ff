import TriageModel

/// The native format's events read straight from a line's bytes, without a value tree: member
/// names are matched as bytes, and only leaf values (and the small `chain` and `keys` members)
/// are parsed, by `JSONParser`'s own functions; chains seen before are not read again. It accepts what `NativeDecoder` accepts and makes
/// the same event (`NativeFields` turns both into events). Anything else — a complaint, a line to
/// reject, an escaped or repeated member name — answers nil, and the tree path decides and gives
/// the reason (`RecordReader`); those lines are rare, so the tree costs nothing there.
public final class NativeLineDecoder {
    /// Chains already read, by their short key and full form.
    private let chains = ChainMemo<ChainText>()

    struct ChainText: Hashable {
        var codes: String
        var fullForm: String?
    }

    /// A reader with an empty memo; one per file read (`RecordReader` keeps one).
    public init() {}

    /// The event a native line holds, or nil when the tree path must read it. `forced`: the line is
    /// native whatever its members say (`--source native`); otherwise it must show itself native.
    public func event(_ line: [UInt8], forced: Bool) -> ErrorEvent? {
        let fields: NativeFields? = line.withUnsafeBufferPointer { buffer in
            var reader = LineScan(parser: JSONParser(bytes: buffer))
            return try? reader.fields(forced: forced)
        }
        guard let fields else { return nil }
        return try? fields.event(source: "native", chain: chain)
    }

    /// `NativeDecoder.chain`, remembered for a short key with a full form or alone.
    func chain(codes: JSONValue?, chain: JSONValue?) throws(LineRejection) -> ErrorChain {
        let key: ChainText
        switch (codes, chain) {
        case (.string(let c)?, .string(let f)?): key = ChainText(codes: c, fullForm: f)
        case (.string(let c)?, nil), (.string(let c)?, .null?): key = ChainText(codes: c, fullForm: nil)
        default: return try NativeDecoder.chain(codes: codes, chain: chain)
        }
        return try chains.chain(for: key) { () throws(LineRejection) in try NativeDecoder.chain(codes: codes, chain: chain) }
    }
}

/// A member name the native reader knows, at the top of a line or inside `app`, `os`, `device`.
enum NativeMember: Int {
    case eventID, timestamp, codes, chain, app, os, device, platform, network, userID, sessionID
    case environment, message, keys, kind, project, complaintID, level
    case version, build, name, model, orientation, appState, freeRAM, freeDisk, jailbroken
    case unknown

    var bit: UInt64 { 1 << UInt64(rawValue) }

    static let top: [(StaticString, NativeMember)] = [
        ("event_id", .eventID), ("timestamp", .timestamp), ("codes", .codes), ("chain", .chain), ("app", .app),
        ("os", .os), ("device", .device), ("platform", .platform), ("network", .network), ("user_id", .userID),
        ("session_id", .sessionID), ("environment", .environment), ("message", .message), ("keys", .keys),
        ("kind", .kind), ("project", .project), ("complaint_id", .complaintID), ("level", .level),
    ]
    static let inApp: [(StaticString, NativeMember)] = [("version", .version), ("build", .build)]
    static let inOS: [(StaticString, NativeMember)] = [("name", .name), ("version", .version)]
    static let inDevice: [(StaticString, NativeMember)] = [
        ("model", .model), ("orientation", .orientation), ("app_state", .appState), ("free_ram", .freeRAM),
        ("free_disk", .freeDisk), ("jailbroken", .jailbroken),
    ]
}

/// One pass over a line's bytes, filling `NativeFields`; throws where the tree path must decide.
struct LineScan {
    var parser: JSONParser
    static let fallback = JSONParseError(message: "read by the tree", offset: 0)

    var bytes: UnsafeBufferPointer<UInt8> { parser.bytes }

    mutating func fields(forced: Bool) throws(JSONParseError) -> NativeFields {
        var fields = NativeFields()
        var seen: UInt64 = 0
        parser.skipWhitespace()
        try expect(UInt8(ascii: "{"))
        try members(of: NativeMember.top, depth: 1) { (member, scan) throws(JSONParseError) in
            guard member == .unknown || seen & member.bit == 0 else { throw LineScan.fallback }
            seen |= member.bit
            switch member {
            case .complaintID: throw LineScan.fallback
            case .app: try scan.nested(NativeMember.inApp) { m, v in
                if m == .version { fields.appVersion = v } else if m == .build { fields.appBuild = v } }
            case .os: try scan.nested(NativeMember.inOS) { m, v in
                if m == .name { fields.osName = v } else if m == .version { fields.osVersion = v } }
            case .device: try scan.nested(NativeMember.inDevice) { m, v in fields.setDevice(m, v) }
            case .unknown: _ = try scan.parser.parseValue(depth: 1)
            default: fields.setTop(member, try scan.parser.parseValue(depth: 1))
            }
        }
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw LineScan.fallback }
        // The members that make `SourceKind.detect` call a line native.
        let native = seen & NativeMember.eventID.bit != 0 && seen & (NativeMember.codes.bit | NativeMember.chain.bit) != 0
        guard forced || native else { throw LineScan.fallback }
        return fields
    }

    /// An object's members after its `{`: names matched against `known`, each handed on with the
    /// scan standing at its value; ends after the `}`.
    mutating func members(of known: [(StaticString, NativeMember)], depth: Int,
                          _ each: (NativeMember, inout LineScan) throws(JSONParseError) -> Void) throws(JSONParseError) {
        guard depth < JSONParser.maxDepth else { throw LineScan.fallback }
        parser.skipWhitespace()
        if parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "}") { parser.i += 1; return }
        while true {
            parser.skipWhitespace()
            let member = try name(in: known)
            parser.skipWhitespace()
            try expect(UInt8(ascii: ":"))
            parser.skipWhitespace()
            try each(member, &self)
            parser.skipWhitespace()
            guard parser.i < bytes.count else { throw LineScan.fallback }
            let b = bytes[parser.i]
            parser.i += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "}") { return }
            throw LineScan.fallback
        }
    }

    /// `app`, `os` or `device`: an object's known members, each once; any other value is read and
    /// left, as the tree's dotted paths find nothing in it.
    mutating func nested(_ known: [(StaticString, NativeMember)],
                         _ set: (NativeMember, JSONValue) -> Void) throws(JSONParseError) {
        guard parser.i < bytes.count, bytes[parser.i] == UInt8(ascii: "{") else {
            _ = try parser.parseValue(depth: 1)
            return
        }
        parser.i += 1
        var seen: UInt64 = 0
        try members(of: known, depth: 2) { (member, scan) throws(JSONParseError) in
            let value = try scan.parser.parseValue(depth: 2)
            guard member != .unknown else { return }
            guard seen & member.bit == 0 else { throw LineScan.fallback }
            seen |= member.bit
            set(member, value)
        }
    }

    /// A member name without escapes, matched as bytes; a name with an escape goes to the tree.
    mutating func name(in known: [(StaticString, NativeMember)]) throws(JSONParseError) -> NativeMember {
        try expect(UInt8(ascii: "\""))
        let start = parser.i
        while parser.i < bytes.count, bytes[parser.i] != UInt8(ascii: "\"") {
            let b = bytes[parser.i]
            guard b != UInt8(ascii: "\\"), b >= 0x20, b < 0x80 else { throw LineScan.fallback }
            parser.i += 1
        }
        guard parser.i < bytes.count else { throw LineScan.fallback }
        let length = parser.i - start
        parser.i += 1
        for (text, member) in known where text.utf8CodeUnitCount == length {
            var k = 0
            while k < length, bytes[start + k] == text.utf8Start[k] { k += 1 }
            if k == length { return member }
        }
        return .unknown
    }

    mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard parser.i < bytes.count, bytes[parser.i] == byte else { throw LineScan.fallback }
        parser.i += 1
    }
}

extension NativeFields {
    mutating func setTop(_ member: NativeMember, _ value: JSONValue) {
        switch member {
        case .eventID: eventID = value
        case .timestamp: timestamp = value
        case .codes: codes = value
        case .chain: chain = value
        case .platform: platform = value
        case .network: network = value
        case .userID: userID = value
        case .sessionID: sessionID = value
        case .environment: environment = value
        case .message: message = value
        case .keys: keys = value
        case .kind: kind = value
        case .project: project = value
        case .level: level = value
        default: break
        }
    }

    mutating func setDevice(_ member: NativeMember, _ value: JSONValue) {
        switch member {
        case .model: deviceModel = value
        case .orientation: orientation = value
        case .appState: appState = value
        case .freeRAM: freeRAM = value
        case .freeDisk: freeDisk = value
        case .jailbroken: jailbroken = value
        default: break
        }
    }
}
