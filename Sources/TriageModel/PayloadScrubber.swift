/// Takes the secrets out of an event's JSON before the store keeps it whole, by
/// `SecretScrubber`'s rules: each name and string is read with its escapes resolved, and a value
/// that a rule changes is written anew (as a JSON string: `"[Filtered]"`, or its text with the
/// secret parts filtered); every other byte is kept as it came.
public enum PayloadScrubber {
    /// What a secret's value becomes.
    public static let filtered = SecretScrubber.filtered

    /// The JSON text with every secret filtered; nil when the text is not one JSON value
    /// (whose secrets could not be found: such a payload is not kept).
    public static func scrub(_ json: [UInt8]) -> [UInt8]? {
        var walker = Walker(input: json)
        let ok: Bool = json.withUnsafeBufferPointer { b in
            walker.bytes = b
            return (try? walker.document()) != nil
        }
        return ok ? walker.output : nil
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Where a number, `true`, `false` or `null` ends.
    @inline(__always) static func endsScalar(_ c: UInt8) -> Bool {
        isSpace(c) || c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == UInt8(ascii: ":")
    }

    private struct Malformed: Error {}

    static let quotedFiltered = Array("\"\(SecretScrubber.filtered)\"".utf8)
    static let keyName = Array("key".utf8), nameName = Array("name".utf8), valueName = Array("value".utf8)

    /// A recursive reading of the JSON that copies what it reads, except secrets.
    private struct Walker {
        let input: [UInt8]
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var i = 0
        var output: [UInt8] = []
        static let maxDepth = 512

        init(input: [UInt8]) {
            self.input = input
            output.reserveCapacity(input.count)
        }

        mutating func document() throws(Malformed) {
            space()
            try value(name: nil, zone: .plain, depth: 0)
            space()
            guard i == bytes.count else { throw Malformed() }
        }

        private mutating func space() {
            while i < bytes.count, PayloadScrubber.isSpace(bytes[i]) {
                output.append(bytes[i])
                i += 1
            }
        }

        /// A value under `name` (an object member's name, or the first of a pair), its escapes resolved.
        private mutating func value(name: [UInt8]?, zone: SecretScrubber.Zone, depth: Int, top: Bool = false) throws(Malformed) {
            guard depth < Walker.maxDepth, i < bytes.count else { throw Malformed() }
            if let name, !(top && SecretScrubber.appSessionNames.contains(name)),
               name.withUnsafeBufferPointer({ SecretScrubber.isSensitiveKey($0) }) {
                let start = i
                try skip(depth: depth)
                if bytes[start..<i].elementsEqual(PayloadScrubber.quotedFiltered) {
                    output += bytes[start..<i]
                } else {
                    output += PayloadScrubber.quotedFiltered
                }
                return
            }
            switch bytes[i] {
            case UInt8(ascii: "{"): try object(zone: zone, depth: depth)
            case UInt8(ascii: "["): try array(zone: zone, depth: depth)
            case UInt8(ascii: "\""):
                let (start, end, escaped) = try string()
                let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)])
                let changed: [UInt8]?
                if escaped {
                    guard let text = try? JSONString.unescape(content) else { throw Malformed() }
                    changed = Walker.scrubbed(text, zone: zone)
                } else {
                    changed = Walker.scrubbed(content, zone: zone)
                }
                if let changed {
                    var encoded = ""
                    JSONString.write(String(decoding: changed, as: UTF8.self), to: &encoded)
                    output += encoded.utf8
                } else {
                    output += bytes[start..<end]
                }
            default:
                let start = i
                while i < bytes.count, !PayloadScrubber.endsScalar(bytes[i]) { i += 1 }
                guard i > start else { throw Malformed() }
                // A card number written as a number, where values are structured.
                if zone == .structured, i - start >= 13,
                   SecretScrubber.scrubText(UnsafeBufferPointer(rebasing: bytes[start..<i])) != nil {
                    output += PayloadScrubber.quotedFiltered
                } else {
                    output += bytes[start..<i]
                }
            }
        }

        /// A string's new text by the rules of its zone; nil when it keeps its own.
        static func scrubbed(_ text: String, zone: SecretScrubber.Zone) -> [UInt8]? {
            var text = text
            return text.withUTF8 { scrubbed($0, zone: zone) }
        }

        static func scrubbed(_ b: UnsafeBufferPointer<UInt8>, zone: SecretScrubber.Zone) -> [UInt8]? {
            if zone == .structured, SecretScrubber.holdsSensitiveWord(b) {
                return b.elementsEqual(SecretScrubber.filteredBytes) ? nil : SecretScrubber.filteredBytes
            }
            return SecretScrubber.scrubText(b)
        }

        /// A member's name (or a pair's first string) with its escapes resolved.
        private func name(_ start: Int, _ end: Int, escaped: Bool) throws(Malformed) -> [UInt8] {
            let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)])
            guard escaped else { return Array(content) }
            guard let text = try? JSONString.unescape(content) else { throw Malformed() }
            return Array(text.utf8)
        }

        private mutating func object(zone: SecretScrubber.Zone, depth: Int) throws(Malformed) {
            output.append(bytes[i])
            i += 1
            space()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                output.append(bytes[i]); i += 1
                return
            }
            // `{"key": "api_key", "value": …}`: the value goes by the key, before or after it.
            var pairSensitive = false
            var pairChain = false
            var valueOutput: Range<Int>?
            while true {
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw Malformed() }
                let (start, end, escaped) = try string()
                output += bytes[start..<end]
                let member = try name(start, end, escaped: escaped)
                space()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Malformed() }
                output.append(bytes[i]); i += 1
                space()
                let isValue = member == PayloadScrubber.valueName
                if isValue, pairSensitive {
                    try skip(depth: depth + 1)
                    output += PayloadScrubber.quotedFiltered
                } else {
                    let valueStart = i, outputStart = output.count
                    let inner = isValue && pairChain ? .plain : member.withUnsafeBufferPointer { zone.entering($0) }
                    try value(name: member, zone: inner, depth: depth + 1, top: depth == 0)
                    if isValue { valueOutput = outputStart..<output.count }
                    if !pairSensitive, member == PayloadScrubber.keyName || member == PayloadScrubber.nameName,
                       bytes[valueStart] == UInt8(ascii: "\"") {
                        let (s, e, esc) = (valueStart, i, bytes[valueStart..<i].contains(UInt8(ascii: "\\")))
                        let pair = try name(s, e, escaped: esc)
                        pairChain = SecretScrubber.chainKeys.contains(String(decoding: pair, as: UTF8.self))
                        if pair.withUnsafeBufferPointer({ SecretScrubber.isSensitiveKey($0) }) {
                            pairSensitive = true
                            if let r = valueOutput { output.replaceSubrange(r, with: PayloadScrubber.quotedFiltered) }
                        }
                    }
                }
                space()
                guard i < bytes.count else { throw Malformed() }
                output.append(bytes[i])
                i += 1
                if bytes[i - 1] == UInt8(ascii: "}") { return }
                guard bytes[i - 1] == UInt8(ascii: ",") else { throw Malformed() }
                space()
            }
        }

        private mutating func array(zone: SecretScrubber.Zone, depth: Int) throws(Malformed) {
            output.append(bytes[i])
            i += 1
            space()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                output.append(bytes[i]); i += 1
                return
            }
            var index = 0
            var firstString: [UInt8]?
            while true {
                guard i < bytes.count else { throw Malformed() }
                if index == 0, bytes[i] == UInt8(ascii: "\"") {
                    let start = i
                    try value(name: nil, zone: zone, depth: depth + 1)
                    let (s, e, esc) = (start, i, bytes[start..<i].contains(UInt8(ascii: "\\")))
                    firstString = try name(s, e, escaped: esc)
                } else {
                    // A `[name, value]` pair (headers, a query as pairs): the value goes by the name.
                    try value(name: index == 1 ? firstString : nil, zone: zone, depth: depth + 1)
                }
                index += 1
                space()
                guard i < bytes.count else { throw Malformed() }
                output.append(bytes[i])
                i += 1
                if bytes[i - 1] == UInt8(ascii: "]") { return }
                guard bytes[i - 1] == UInt8(ascii: ",") else { throw Malformed() }
                space()
            }
        }

        /// Reads a string whose opening quote is at `i`: its range with the quotes, and whether it holds an escape.
        private mutating func string() throws(Malformed) -> (Int, Int, Bool) {
            let start = i
            var escaped = false
            i += 1
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\\"):
                    escaped = true
                    i += 2
                case UInt8(ascii: "\""):
                    i += 1
                    return (start, i, escaped)
                default: i += 1
                }
            }
            throw Malformed()
        }

        /// Passes over a value without copying it.
        private mutating func skip(depth: Int) throws(Malformed) {
            guard depth < Walker.maxDepth, i < bytes.count else { throw Malformed() }
            switch bytes[i] {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = bytes[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                while true {
                    while i < bytes.count, PayloadScrubber.isSpace(bytes[i]) || bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: ":") { i += 1 }
                    guard i < bytes.count else { throw Malformed() }
                    if bytes[i] == close { i += 1; return }
                    try skip(depth: depth + 1)
                }
            default:
                let start = i
                while i < bytes.count, !PayloadScrubber.endsScalar(bytes[i]) { i += 1 }
                guard i > start else { throw Malformed() }
            }
        }
    }
}
