/// The short rendering of a chain, `US14-LO43-AP7-NE8`: per link the domain's short name and its code.
///
/// A negative code is written with a lowercase `n` in place of the minus sign (`NSn1009` is
/// `NSURLErrorDomain` -1009): the dash already separates links, and short names are uppercase,
/// so the `n` can never be mistaken for part of a short name.
public enum ShortKey {
    /// One link of a short key.
    public struct Code: Hashable, Sendable {
        public var short: String
        public var code: Int
        public init(short: String, code: Int) {
            self.short = short
            self.code = code
        }
    }

    /// Writes a code as it stands in a short key.
    public static func encode(code: Int) -> String {
        code < 0 ? "n\(code.magnitude)" : String(code)
    }

    /// Reads a short key; surrounding white space is ignored.
    public static func parse(_ text: String) throws(ChainError) -> [Code] {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        var result: [Code] = []
        for part in trimmed.split(separator: "-", omittingEmptySubsequences: false) {
            guard let code = parseLink(part) else { throw .badShortCode(String(part)) }
            result.append(code)
        }
        return result
    }

    /// Reads one link such as `AP7` or `NSn1009`; nil when it is not one.
    /// Short names are uppercase letters, one to eight of them.
    public static func parseLink(_ part: Substring) -> Code? {
        let bytes = Array(part.utf8)
        var i = 0
        while i < bytes.count, isUpper(bytes[i]) { i += 1 }
        guard i > 0, i <= 8 else { return nil }
        let short = String(decoding: bytes[0..<i], as: UTF8.self)
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "n") {
            negative = true
            i += 1
        }
        let digits = bytes[i...]
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        // Every Int prints as a link (`encode`), so every Int reads back, Int.min included.
        var magnitude: UInt = 0
        for d in digits {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt(d - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        guard magnitude <= (negative ? Int.min.magnitude : Int.max.magnitude) else { return nil }
        return Code(short: short, code: negative ? Int(truncatingIfNeeded: 0 &- magnitude) : Int(magnitude))
    }

    /// Every short key cited in free text, in order of first appearance, each once.
    /// A key is two or more links joined by dashes, or one link of two uppercase letters and a code.
    public static func find(in text: String) -> [String] {
        var found: [String] = []
        var seen = Set<String>()
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            // A key starts at a letter that does not continue a word.
            guard isUpper(bytes[i]), i == 0 || !isWordByte(bytes[i - 1]) else { i += 1; continue }
            var j = i
            var links: [Code] = []
            var end = i
            while j < bytes.count {
                var k = j
                while k < bytes.count, isWordByte(bytes[k]) { k += 1 }
                guard let code = parseLink(Substring(String(decoding: bytes[j..<k], as: UTF8.self))) else { break }
                links.append(code)
                end = k
                if k < bytes.count, bytes[k] == UInt8(ascii: "-"), k + 1 < bytes.count, isUpper(bytes[k + 1]) {
                    j = k + 1
                } else {
                    break
                }
            }
            if links.count >= 2 || (links.count == 1 && links[0].short.count == 2) {
                let key = links.map { $0.short + encode(code: $0.code) }.joined(separator: "-")
                if seen.insert(key).inserted { found.append(key) }
                i = end
            } else {
                i += 1
            }
        }
        return found
    }

    /// Normalises a short key (uppercase short names, canonical codes); nil when it is not one.
    public static func canonical(_ text: String) -> String? {
        guard let codes = try? parse(text) else { return nil }
        return codes.map { $0.short + encode(code: $0.code) }.joined(separator: "-")
    }

    /// A key as a person writes it when quoting one (`us14-lo43-ap7-ne8`, `Us15-Ap12-Nsn1009`), in
    /// its canonical form; nil when it is not one. A key in canonical form reads as `canonical`
    /// reads it. Written in other cases, a link has lost the difference between a short name's
    /// `N` and the minus sign's `n`: its last letter before the digits is the sign where two
    /// letters or more stand before it (`nsn1009` is `NSn1009`), else a letter of the name
    /// (`in500` is `IN500`), as the short names derived for domains are two letters.
    public static func quoted(_ text: String) -> String? {
        if let key = canonical(text) { return key }
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var links: [String] = []
        for part in trimmed.split(separator: "-", omittingEmptySubsequences: false) {
            let bytes = Array(part.utf8)
            var letters = 0
            while letters < bytes.count, isLetter(bytes[letters]) { letters += 1 }
            guard letters > 0, letters < bytes.count, bytes[letters...].allSatisfy(isDigit) else { return nil }
            let name = bytes[..<letters]
            let negative = letters >= 3 && (name.last == UInt8(ascii: "n") || name.last == UInt8(ascii: "N"))
            let short = String(decoding: name.dropLast(negative ? 1 : 0), as: UTF8.self).uppercased()
            links.append(short + (negative ? "n" : "") + String(decoding: bytes[letters...], as: UTF8.self))
        }
        return canonical(links.joined(separator: "-"))
    }

    static func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
    static func isUpper(_ b: UInt8) -> Bool { b >= 65 && b <= 90 }
    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    static func isWordByte(_ b: UInt8) -> Bool { isLetter(b) || isDigit(b) || b == UInt8(ascii: "_") }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    /// Works on scalars, not characters: a space after a prepended mark (U+0600…U+0605) or a CR
    /// before an LF is part of one character, and must still be trimmed.
    public func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        let isSpace = { (s: Unicode.Scalar) in s == " " || s == "\t" || s == "\n" || s == "\r" }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let end = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[start...end])
    }
}
