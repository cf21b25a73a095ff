import TriageModel

/// Why a line is not valid JSON.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "\(message) at byte \(offset + 1)" }
}

/// A strict JSON parser over UTF-8 bytes (RFC 8259): invalid UTF-8, raw control characters
/// in strings and trailing garbage are errors; nesting is limited so no input can exhaust the stack.
public struct JSONParser {
    public static let maxDepth = 128

    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    /// Parses one complete JSON text.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        do {
            return try array.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer)
                parser.skipWhitespace()
                let value = try parser.parseValue(depth: 0)
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

    /// Parses a string such as a custom key's value.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue { try parse(Array(text.utf8)) }

    func error(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: i) }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        guard i < bytes.count else { throw error(i == 0 ? "empty line" : "unexpected end of line (truncated JSON?)") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case 0: throw error("NUL byte")
        default: throw error("not JSON")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("not JSON") }
        i += n
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        var members: [(String, JSONValue)] = []
        try object(names: true) { (p: inout JSONParser, name: String?) throws(JSONParseError) in
            members.append((name!, try p.parseValue(depth: depth + 1)))
        }
        return .object(members)
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        try array { (p: inout JSONParser) throws(JSONParseError) in elements.append(try p.parseValue(depth: depth + 1)) }
        return .array(elements)
    }

    /// An object's grammar, written once for every reader (the whole tree, the sparse one, the
    /// skip): `{`, then `"name": value` pairs separated by `,`, then `}`. `value` reads each value,
    /// the parser standing on it; it gets the name when `names` is true (otherwise the name is
    /// checked and skipped).
    @inline(__always)
    mutating func object(names: Bool, _ value: (inout JSONParser, String?) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try members { (p: inout JSONParser, name: ScannedString) throws(JSONParseError) in
            try value(&p, names ? try p.string(name) : nil)
        }
    }

    /// A string as `scanString` found it: its bytes between the quotes, where they start, and
    /// whether they hold escapes (already checked).
    typealias ScannedString = (raw: UnsafeBufferPointer<UInt8>, start: Int, escaped: Bool)

    /// The text of a scanned string.
    func string(_ scanned: ScannedString) throws(JSONParseError) -> String {
        scanned.escaped ? try unescape(scanned.raw, base: scanned.start) : String(decoding: scanned.raw, as: UTF8.self)
    }

    /// The grammar of `object`, giving each member's name as scanned: a reader that looks names
    /// up by their bytes makes no string of a name it does not keep.
    @inline(__always)
    mutating func members(_ value: (inout JSONParser, ScannedString) throws(JSONParseError) -> Void) throws(JSONParseError) {
        i += 1
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            guard bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let name = try scanString()
            // Escapes are checked where the name is read, as `parseString` and `skipString` do.
            if name.escaped { _ = try unescape(name.raw, base: name.start) }
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            guard bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipWhitespace()
            try value(&self, name)
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return }
            throw error("expected ',' or '}'")
        }
    }

    /// An array's grammar, written once: `[`, values separated by `,`, `]`; `element` reads each.
    @inline(__always)
    mutating func array(_ element: (inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        i += 1
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of line (truncated JSON?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return }
            throw error("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = i
        try skipNumber()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    /// Reads past a number, checking its form.
    mutating func skipNumber() throws(JSONParseError) {
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let digitsStart = i
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
        guard i > digitsStart else { throw error("bad number") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let f = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            guard i > f else { throw error("bad number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let e = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
            guard i > e else { throw error("bad number") }
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let string = try scanString()
        guard string.escaped else { return String(decoding: string.raw, as: UTF8.self) }
        return try unescape(string.raw, base: string.start)
    }

    /// Reads past a string (standing at its opening quote), checking for raw control characters
    /// and invalid UTF-8: its content as it stands between the quotes, where that starts, and
    /// whether it holds escapes (left for the caller to resolve or check).
    @inline(__always)
    mutating func scanString() throws(JSONParseError) -> (raw: UnsafeBufferPointer<UInt8>, start: Int, escaped: Bool) {
        i += 1
        let start = i
        // Fast path: no escapes, ASCII or valid UTF-8 checked below.
        var hasEscape = false
        var hasHighBytes = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { hasEscape = true; i += 2; continue }
            if b < 0x20 { throw error(b == 0 ? "NUL byte" : "raw control character in a string") }
            if b >= 0x80 { hasHighBytes = true }
            i += 1
        }
        guard i < bytes.count else { throw error("unexpected end of line (unterminated string)") }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<i])
        i += 1
        if hasHighBytes, !JSONParser.isValidUTF8(raw) {
            throw JSONParseError(message: "invalid UTF-8", offset: start)
        }
        return (raw, start, hasEscape)
    }

    func unescape(_ raw: UnsafeBufferPointer<UInt8>, base: Int) throws(JSONParseError) -> String {
        do {
            return try JSONString.unescape(raw)
        } catch {
            throw JSONParseError(message: error.message, offset: base + error.offset)
        }
    }

    /// Whether bytes are well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
    public static func isValidUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = 0
        let n = b.count
        while k < n {
            let c = b[k]
            if c < 0x80 { k += 1; continue }
            let need: Int
            var minNext: UInt8 = 0x80, maxNext: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; minNext = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; maxNext = 0x9F
            case 0xF0: need = 3; minNext = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; maxNext = 0x8F
            default: return false
            }
            // The continuation bytes k+1 … k+need must all be inside the buffer.
            guard k + need < n else { return false }
            let first = b[k + 1]
            guard first >= minNext, first <= maxNext else { return false }
            var j = 2
            while j <= need {
                guard b[k + j] & 0xC0 == 0x80 else { return false }
                j += 1
            }
            k += need + 1
        }
        return true
    }
}
