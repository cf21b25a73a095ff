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
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out = [UInt8]()
            while i < b.count {
                let c = b[i]
                i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard c == UInt8(ascii: "\\"), i < b.count else { out.append(c); continue }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 <= b.count, let v = UInt32(String(decoding: b[i..<i + 4], as: UTF8.self), radix: 16),
                          let s = Unicode.Scalar(v) else { return nil }
                    out.append(contentsOf: Array(String(Character(s)).utf8))
                    i += 4
                default: out.append(e)
                }
            }
            return nil
        }
    }
}
