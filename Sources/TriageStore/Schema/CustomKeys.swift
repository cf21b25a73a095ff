import TriageModel

/// Custom keys as stored: a JSON object, keys in their order.
enum CustomKeys {
    static func encode(_ pairs: [(key: String, value: String)]) -> String {
        var out = "{"
        for (i, pair) in pairs.enumerated() {
            if i > 0 { out += "," }
            JSONString.write(pair.key, to: &out)
            out += ":"
            JSONString.write(pair.value, to: &out)
        }
        return out + "}"
    }

    /// Reads what `encode` wrote; tolerant of anything else (returns what it can).
    static func decode(_ text: String?) -> [(key: String, value: String)] {
        guard let text else { return [] }
        var result: [(key: String, value: String)] = []
        var scanner = Scanner(Array(text.utf8))
        guard scanner.take(UInt8(ascii: "{")) else { return [] }
        while let key = scanner.string() {
            guard scanner.take(UInt8(ascii: ":")), let value = scanner.string() else { break }
            result.append((key, value))
            guard scanner.take(UInt8(ascii: ",")) else { break }
        }
        return result
    }
}

extension CustomKeys {
    /// Reads the JSON strings `JSONString.write` writes (the store's own column, not any JSON).
    struct Scanner {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }
        mutating func take(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        /// A quoted string, its escapes read by `JSONString.unescape`; nil where there is none.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
            guard i < b.count else { return nil }
            defer { i += 1 }
            return b[start..<i].withUnsafeBufferPointer { try? JSONString.unescape($0) }
        }
    }
}
