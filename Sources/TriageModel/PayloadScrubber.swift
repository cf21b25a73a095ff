/// Takes the secrets out of an event's JSON before the store keeps it, as Sentry's default data
/// scrubber does: the value under any key whose name holds `password`, `secret`, `passwd`,
/// `api_key`, `apikey`, `token`, `auth`, `credentials`, `sentry_dsn`, `private_key` or `cookie`
/// (any case; so the `Authorization`, `Cookie` and `Set-Cookie` headers too, as an object's
/// members or as `[name, value]` pairs) becomes `"[Filtered]"`, whatever it held; in a query
/// string (`query_string`, the query of a `url`) the value of such a name does too. Everything
/// else is kept byte for byte.
public enum PayloadScrubber {
    /// What a secret's value becomes.
    public static let filtered = "[Filtered]"

    /// The parts of a name that mark its value secret (lower case).
    public static let sensitiveParts = ["password", "secret", "passwd", "api_key", "apikey", "token", "auth", "credentials",
                                        "sentry_dsn", "private_key", "cookie"]

    private static let sensitiveBytes: [[UInt8]] = sensitiveParts.map { Array($0.utf8) }

    /// Whether a value under this name is a secret. Called for every name of every kept payload:
    /// no allocation but for a name that may hold a part.
    public static func isSensitive(name: ArraySlice<UInt8>) -> Bool {
        guard name.count >= 4 else { return false }  // the shortest part, `auth`
        return name.withUnsafeBufferPointer { b in
            let n = b.count
            for part in sensitiveBytes where part.count <= n {
                let first = part[0], m = part.count
                var i = 0
                while i + m <= n {
                    if b[i] | 0x20 == first {
                        var j = 1
                        while j < m, lower(b[i + j]) == part[j] { j += 1 }
                        if j == m { return true }
                    }
                    i += 1
                }
            }
            return false
        }
    }

    @inline(__always) private static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Where a number, `true`, `false` or `null` ends.
    @inline(__always) static func endsScalar(_ c: UInt8) -> Bool {
        isSpace(c) || c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == UInt8(ascii: ":")
    }

    static func lowercased<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// The JSON text with every secret's value filtered; nil when the text is not one JSON value
    /// (whose secrets could not be found: such a payload is not kept).
    public static func scrub(_ json: [UInt8]) -> [UInt8]? {
        var walker = Walker(input: json)
        guard (try? walker.document()) != nil else { return nil }
        return walker.output
    }

    /// Replaces the values of secret names in a query string (`a=1&token=x`): its bytes as they
    /// stand in the JSON string, escapes and all.
    static func scrubQuery(_ query: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(query.count)
        var first = true
        for pair in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            if !first { out.append(UInt8(ascii: "&")) }
            first = false
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")), isSensitive(name: ArraySlice(pair[pair.startIndex..<eq])) {
                out += pair[pair.startIndex...eq]
                out += filtered.utf8
            } else {
                out += pair
            }
        }
        return out
    }

    private struct Malformed: Error {}

    /// A recursive reading of the JSON that copies what it reads, except secrets' values.
    private struct Walker {
        let input: [UInt8]
        var i = 0
        var output: [UInt8] = []
        static let maxDepth = 512
        static let url = Array("url".utf8), query = Array("query".utf8), queryString = Array("query_string".utf8)

        init(input: [UInt8]) {
            self.input = input
            output.reserveCapacity(input.count)
        }

        mutating func document() throws(Malformed) {
            space()
            try value(name: nil, depth: 0)
            space()
            guard i == input.count else { throw Malformed() }
        }

        private mutating func space() {
            while i < input.count, PayloadScrubber.isSpace(input[i]) {
                output.append(input[i])
                i += 1
            }
        }

        /// A value under `name` (an object member's name, or the first of a pair).
        private mutating func value(name: ArraySlice<UInt8>?, depth: Int) throws(Malformed) {
            guard depth < Walker.maxDepth, i < input.count else { throw Malformed() }
            if let name, PayloadScrubber.isSensitive(name: name) {
                try skip(depth: depth)
                output += "\"\(PayloadScrubber.filtered)\"".utf8
                return
            }
            switch input[i] {
            case UInt8(ascii: "{"): try object(depth: depth)
            case UInt8(ascii: "["): try array(depth: depth)
            case UInt8(ascii: "\""):
                let (start, end) = try string()
                // Only a name of 3, 5 or 12 bytes can be `url`, `query` or `query_string`.
                let lower = name.flatMap { [3, 5, 12].contains($0.count) ? PayloadScrubber.lowercased($0) : nil }
                let isURL = lower == Walker.url
                if isURL || lower == Walker.query || lower == Walker.queryString {
                    // The query: all of a query string, what follows `?` in a URL.
                    let body = input[(start + 1)..<(end - 1)]
                    let queryStart = isURL ? body.firstIndex(of: UInt8(ascii: "?")).map { $0 + 1 } : body.startIndex
                    guard let queryStart else {
                        output += input[start..<end]
                        return
                    }
                    output += input[start..<queryStart]
                    output += PayloadScrubber.scrubQuery(input[queryStart..<(end - 1)])
                    output.append(UInt8(ascii: "\""))
                } else {
                    output += input[start..<end]
                }
            default:
                let start = i
                while i < input.count, !PayloadScrubber.endsScalar(input[i]) { i += 1 }
                guard i > start else { throw Malformed() }
                output += input[start..<i]
            }
        }

        private mutating func object(depth: Int) throws(Malformed) {
            output.append(input[i])
            i += 1
            space()
            if i < input.count, input[i] == UInt8(ascii: "}") {
                output.append(input[i]); i += 1
                return
            }
            while true {
                guard i < input.count, input[i] == UInt8(ascii: "\"") else { throw Malformed() }
                let (start, end) = try string()
                output += input[start..<end]
                space()
                guard i < input.count, input[i] == UInt8(ascii: ":") else { throw Malformed() }
                output.append(input[i]); i += 1
                space()
                try value(name: input[(start + 1)..<(end - 1)], depth: depth + 1)
                space()
                guard i < input.count else { throw Malformed() }
                output.append(input[i])
                i += 1
                if input[i - 1] == UInt8(ascii: "}") { return }
                guard input[i - 1] == UInt8(ascii: ",") else { throw Malformed() }
                space()
            }
        }

        private mutating func array(depth: Int) throws(Malformed) {
            output.append(input[i])
            i += 1
            space()
            if i < input.count, input[i] == UInt8(ascii: "]") {
                output.append(input[i]); i += 1
                return
            }
            var index = 0
            var firstString: ArraySlice<UInt8>?
            while true {
                guard i < input.count else { throw Malformed() }
                if index == 0, input[i] == UInt8(ascii: "\"") {
                    let (start, end) = try string()
                    output += input[start..<end]
                    firstString = input[(start + 1)..<(end - 1)]
                } else {
                    // A `[name, value]` pair (headers, a query as pairs): the value goes by the name.
                    try value(name: index == 1 ? firstString : nil, depth: depth + 1)
                }
                index += 1
                space()
                guard i < input.count else { throw Malformed() }
                output.append(input[i])
                i += 1
                if input[i - 1] == UInt8(ascii: "]") { return }
                guard input[i - 1] == UInt8(ascii: ",") else { throw Malformed() }
                space()
            }
        }

        /// Reads a string whose opening quote is at `i`: its range with the quotes.
        private mutating func string() throws(Malformed) -> (Int, Int) {
            let start = i
            i += 1
            while i < input.count {
                switch input[i] {
                case UInt8(ascii: "\\"): i += 2
                case UInt8(ascii: "\""):
                    i += 1
                    return (start, i)
                default: i += 1
                }
            }
            throw Malformed()
        }

        /// Passes over a value without copying it.
        private mutating func skip(depth: Int) throws(Malformed) {
            guard depth < Walker.maxDepth, i < input.count else { throw Malformed() }
            switch input[i] {
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = input[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                i += 1
                while true {
                    while i < input.count, PayloadScrubber.isSpace(input[i]) || input[i] == UInt8(ascii: ",") || input[i] == UInt8(ascii: ":") { i += 1 }
                    guard i < input.count else { throw Malformed() }
                    if input[i] == close { i += 1; return }
                    try skip(depth: depth + 1)
                }
            default:
                let start = i
                while i < input.count, !PayloadScrubber.endsScalar(input[i]) { i += 1 }
                guard i > start else { throw Malformed() }
            }
        }
    }
}
