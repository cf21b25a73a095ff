/// Derives a domain's two-letter short name where neither the data nor the dictionary gives one.
///
/// Drop a trailing `Error` (or `ErrorDomain`, `Domain`), split the rest into camel-case words
/// (a run of capitals is one word: `TolokaAPI` is `Toloka`, `API`); two or more words give the
/// first letters of the first two, one word gives its first two letters; uppercase.
public enum DomainShortName {
    public static func derive(_ domain: String) -> String {
        var base = Substring(domain)
        // Types such as `LogicError(File.swift:34 >>> f())` carry their origin in parentheses.
        if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
        // Reverse-DNS domains: the last component names the type.
        if let dot = base.lastIndex(of: ".") { base = base[base.index(after: dot)...] }
        for suffix in ["ErrorDomain", "Error", "Domain"] where base.hasSuffix(suffix) && base.count > suffix.count {
            base = base.dropLast(suffix.count)
            break
        }
        let words = camelWords(String(base))
        let letters: String
        switch words.count {
        case 0: letters = "XX"
        case 1: letters = String(words[0].prefix(2))
        default: letters = String(words[0].prefix(1)) + String(words[1].prefix(1))
        }
        let upper = String(letters.uppercased().filter { $0.isASCII && $0.isLetter })
        return upper.count >= 2 ? upper : (upper + "XX").prefix(2).description
    }

    /// Splits `TolokaAPIError` into `Toloka`, `API`, `Error`; digits and symbols end a word.
    static func camelWords(_ text: String) -> [String] {
        let chars = Array(text)
        var words: [String] = []
        var current = ""
        for (i, ch) in chars.enumerated() {
            guard ch.isASCII, ch.isLetter else {
                if !current.isEmpty { words.append(current); current = "" }
                continue
            }
            if ch.isUppercase, !current.isEmpty {
                let prevUpper = chars[i - 1].isUppercase
                let nextLower = i + 1 < chars.count && chars[i + 1].isLowercase
                // A capital starts a word after a lowercase letter, or ends a run of capitals before a lowercase one.
                if !prevUpper || nextLower {
                    words.append(current)
                    current = ""
                }
            }
            current.append(ch)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
