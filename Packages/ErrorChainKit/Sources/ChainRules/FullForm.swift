/// The full rendering of a chain: `UserError.connectionIssue - … - NetworkError.timeout`,
/// or the same joined by bare dashes as apps write it into a custom key.
public enum FullForm {
    /// One link of a full form: the error type and the code's name.
    public struct Name: Hashable, Sendable {
        public var domain: String
        public var name: String
        public init(domain: String, name: String) {
            self.domain = domain
            self.name = name
        }
    }

    /// Reads a full form, splitting only at dashes outside parentheses.
    public static func parse(_ text: String) throws(ChainError) -> [Name] {
        let parts = try splitTopLevel(text, separator: "-")
        let names = parts.map { $0.trimmingASCIIWhitespace() }
        guard !(names.count == 1 && names[0].isEmpty) else { throw .empty }
        var result: [Name] = []
        for part in names {
            let pieces = try splitTopLevel(part, separator: ".", maxSplits: 1)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty,
                  pieces[0].allSatisfy({ $0 != " " })
            else { throw .badFullLink(part) }
            result.append(Name(domain: pieces[0], name: pieces[1]))
        }
        return result
    }

    /// Splits at `separator` where it stands outside parentheses.
    static func splitTopLevel(_ text: String, separator: Character, maxSplits: Int = .max) throws(ChainError) -> [String] {
        if let byte = separator.asciiValue, text.utf8.allSatisfy({ $0 < 0x80 }) {
            return try splitTopLevel(ascii: text, separator: byte, maxSplits: maxSplits)
        }
        return try splitTopLevel(characters: text, separator: separator, maxSplits: maxSplits)
    }

    /// The split character by character, for any text.
    static func splitTopLevel(characters text: String, separator: Character, maxSplits: Int) throws(ChainError) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for ch in text {
            switch ch {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth < 0 { throw .unbalancedParentheses(text) }
            default: break
            }
            if ch == separator, depth == 0, parts.count < maxSplits {
                parts.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        guard depth == 0 else { throw .unbalancedParentheses(text) }
        parts.append(current)
        return parts
    }

    /// The same split over ASCII text, byte by byte (in ASCII a byte is a character, and `\r\n`,
    /// the one two-byte character, holds neither a separator nor a parenthesis), without the cost
    /// of breaking text into characters: ingest reads a full form per event.
    static func splitTopLevel(ascii text: String, separator: UInt8, maxSplits: Int) throws(ChainError) -> [String] {
        var parts: [String] = []
        var depth = 0
        let utf8 = text.utf8
        var start = utf8.startIndex
        var i = start
        while i != utf8.endIndex {
            let b = utf8[i]
            if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") {
                depth -= 1
                if depth < 0 { throw .unbalancedParentheses(text) }
            }
            let next = utf8.index(after: i)
            if b == separator, depth == 0, parts.count < maxSplits {
                parts.append(String(text[start..<i]))
                start = next
            }
            i = next
        }
        guard depth == 0 else { throw .unbalancedParentheses(text) }
        parts.append(String(text[start..<utf8.endIndex]))
        return parts
    }
}
