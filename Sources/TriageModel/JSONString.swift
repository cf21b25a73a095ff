/// JSON string literals: the one writer every layer's JSON goes through (export, reports, the
/// store's custom-key column, the sample generator).
public enum JSONString {
    /// Appends `s` to `out` as a quoted JSON string. Control characters (C0 and C1) and the line
    /// and paragraph separators are escaped, so that a line of NDJSON stays one line everywhere.
    ///
    /// `inert` (for what a command prints) escapes besides every scalar a terminal would act on
    /// or hide (`isInertUnsafe`: bidi controls, zero-width and other format characters), so the
    /// JSON keeps the text exactly and shows nothing live. Ids hashed from `serialized` are made
    /// without it, so they stay what they were.
    public static func write(_ s: String, to out: inout String, inert: Bool = false) {
        out += "\""
        // The usual text (printable ASCII, no quote or backslash) goes in whole: walking its
        // scalars one by one cost an eighth of ingest's reading thread, which writes every event's
        // custom keys this way.
        var plain = s
        if plain.withUTF8({ bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }) {
            out += plain
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += escaped(UInt16(scalar.value))
                } else if inert && scalar.value >= 0xA0 && isInertUnsafe(scalar) {
                    for unit in String(scalar).utf16 { out += escaped(unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    static func escaped(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Whether a terminal would act on the scalar, or show it as nothing: C0 and C1 controls, DEL,
    /// format characters (bidi embeddings, overrides and isolates, zero-width characters, the
    /// BOM, the soft hyphen), line and paragraph separators, and the Hangul fillers that take
    /// no visible space. The dashboard's and the command line's sanitiser show these as codes.
    public static func isInertUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: break
        }
        return v == 0x115F || v == 0x1160 || v == 0x3164 || v == 0xFFA0 || (0xFFF9...0xFFFB).contains(v)
    }

    /// Why escaped string content cannot be read: what is wrong, and where in the content.
    public struct EscapeError: Error, Sendable {
        /// `bad escape` or `bad \\u escape`.
        public let message: String
        /// The offset in the content just past the bad escape's backslash and letter.
        public let offset: Int
    }

    /// Reads the content between a JSON string's quotes with its escapes resolved; a lone
    /// surrogate becomes U+FFFD. The reading side of `write`, for the importers and the store.
    public static func unescape(_ raw: UnsafeBufferPointer<UInt8>) throws(EscapeError) -> String {
        var out = [UInt8]()
        out.reserveCapacity(raw.count)
        var k = 0
        func fail(_ m: String) -> EscapeError { EscapeError(message: m, offset: k) }
        func hex4(_ at: Int) throws(EscapeError) -> UInt32 {
            guard at + 4 <= raw.count else { throw fail("bad \\u escape") }
            var v: UInt32 = 0
            for j in at..<at + 4 {
                let c = raw[j]
                let d: UInt32
                switch c {
                case 48...57: d = UInt32(c - 48)
                case 65...70: d = UInt32(c - 55)
                case 97...102: d = UInt32(c - 87)
                default: throw fail("bad \\u escape")
                }
                v = v * 16 + d
            }
            return v
        }
        while k < raw.count {
            let b = raw[k]
            guard b == UInt8(ascii: "\\") else { out.append(b); k += 1; continue }
            guard k + 1 < raw.count else { throw fail("bad escape") }
            let e = raw[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(k)
                k += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    if k + 6 <= raw.count, raw[k] == UInt8(ascii: "\\"), raw[k + 1] == UInt8(ascii: "u") {
                        let low = try hex4(k + 2)
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            k += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(s)).utf8))
            default: throw fail("bad escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
