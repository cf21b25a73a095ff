/// JSON string literals: the one writer every layer's JSON goes through (export, reports, the
/// store's custom-key column, the sample generator).
public enum JSONString {
    /// Appends `s` to `out` as a quoted JSON string. Control characters (C0 and C1) and the line
    /// and paragraph separators are escaped, so that a line of NDJSON stays one line everywhere.
    public static func write(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
