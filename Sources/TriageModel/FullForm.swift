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
}
