/// Makes untrusted text safe to print: control characters and escape sequences become visible.
enum Inert {
    static func text(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20: out += "^" + String(UnicodeScalar(UInt8(scalar.value) + 0x40))
            case 0x7F: out += "^?"
            case 0x80..<0xA0, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                out += "<U+" + String(scalar.value, radix: 16, uppercase: true) + ">"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Inert text that also cannot break a markdown table cell.
    static func markdown(_ s: String) -> String {
        text(s).replacingPipes()
    }
}

extension String {
    func replacingPipes() -> String {
        var out = ""
        for ch in self {
            if ch == "|" || ch == "`" || ch == "*" || ch == "_" || ch == "<" || ch == "[" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}

/// A one-line sparkline of counts, resampled to `width` cells.
enum Sparkline {
    static let ticks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func text(_ values: [Int], width: Int) -> String {
        guard !values.isEmpty, width > 0 else { return "" }
        let cells = min(width, values.count)
        var buckets = [Int](repeating: 0, count: cells)
        for (i, v) in values.enumerated() { buckets[i * cells / values.count] += v }
        let top = buckets.max() ?? 0
        return String(buckets.map { v in
            guard top > 0, v > 0 else { return v == 0 ? " " : ticks[0] }
            return ticks[min(7, v * 8 / (top + 1))]
        })
    }
}
