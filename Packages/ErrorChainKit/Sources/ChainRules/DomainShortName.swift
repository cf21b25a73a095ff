/// Derives a domain's two-letter short name where neither the data nor the dictionary gives one.
///
/// Drop a trailing `Error` (or `ErrorDomain`, `Domain`), split the rest into camel-case words
/// (a run of capitals is one word: `TolokaAPI` is `Toloka`, `API`; `_` and digits end a word);
/// two or more words give the first letters of the first two, one word gives its first two
/// letters; uppercase.
///
/// In one store a short name belongs to one domain for ever. When the first candidate is held by
/// another domain, `candidates` gives the next ones, in this order, each once:
/// 1. the first letters of the first two words (or the first two letters of a single word);
/// 2. the first letter, then the first letter of each later word: `EXC_BAD_ACCESS` → `EA`;
/// 3. the first letter, then each later letter of the name in order: `SIGABRT` → `SG`, `SA`, …;
/// 4. the first candidate and one more letter, `A` to `Z`: `SIA`, `SIB`, …;
/// 5. then two, three … up to six more letters, counting `A…Z` (`SIAA`, `SIAB`, …).
///
/// Foundation's own domains come first (`system`): by the words above `NSURLErrorDomain`,
/// `NSPOSIXErrorDomain` and `NSOSStatusErrorDomain` would all be `NS`, and which one a store gave
/// `NS` would depend on which it saw first, while an app, which sees one error at a time, gave
/// every one of them `NS`. Each has its name fixed instead, the same on both sides.
public enum DomainShortName {
    /// The short names of Foundation's domains whose words give a name another of them has:
    /// the first candidate for these domains on both sides (an app's reporter and the store).
    /// `NSURLErrorDomain` keeps `NS`; the others have what a store that met `NSURLErrorDomain`
    /// first derived for them, so that its keys stay. Never change a name once shipped.
    public static let system: [String: String] = [
        "NSURLErrorDomain": "NS",
        "NSPOSIXErrorDomain": "NP",
        "NSOSStatusErrorDomain": "NO",
        "NSXMLParserErrorDomain": "NX",
    ]

    /// The first candidate: the short name a domain gets when no other domain holds it.
    public static func derive(_ domain: String) -> String {
        system[domain] ?? first(words(domain))
    }

    /// The first candidate, in the documented order, that no other domain holds (`isTaken` says which are held).
    public static func derive(_ domain: String, isTaken: (String) -> Bool) -> String {
        let words = words(domain)
        let primary = system[domain] ?? first(words)
        var tried = Set<String>()
        for candidate in [primary] + later(words) where tried.insert(candidate).inserted {
            if !isTaken(candidate) { return candidate }
        }
        // Step 4 and 5: the first candidate with 1…6 more letters, counting A…Z; 26^6 names
        // more than any store holds domains.
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for extra in 1...6 {
            var digits = [Int](repeating: 0, count: extra)
            while true {
                let candidate = primary + String(digits.map { letters[$0] })
                if !isTaken(candidate) { return candidate }
                var i = extra - 1
                while i >= 0, digits[i] == 25 { digits[i] = 0; i -= 1 }
                if i < 0 { break }
                digits[i] += 1
            }
        }
        return primary
    }

    /// `derive(_:isTaken:)` for a caller whose taken names only ever grow (a store's: a short
    /// name once held or carried is never free again), resuming steps 4 and 5 at `start`, the
    /// index (`extended(_:_:)`) of the first of their candidates the caller did not find taken
    /// before for this first candidate: the same name, without trying again every name taken
    /// since — which made each new domain of a crowded first candidate cost as many tries as
    /// there were domains before it. Returns the name and, where it came from steps 4 and 5,
    /// its index there (the caller resumes after it next time).
    public static func derive(_ domain: String, isTaken: (String) -> Bool, extendedFrom start: Int) -> (name: String, extended: Int?) {
        let words = words(domain)
        let primary = system[domain] ?? first(words)
        var tried = Set<String>()
        for candidate in [primary] + later(words) where tried.insert(candidate).inserted {
            if !isTaken(candidate) { return (candidate, nil) }
        }
        var index = max(0, start)
        while let candidate = extended(primary, index) {
            if !isTaken(candidate) { return (candidate, index) }
            index += 1
        }
        return (primary, nil)
    }

    /// The candidate of steps 4 and 5 at `index`: the first candidate and 1 to 6 more letters,
    /// counting `A…Z` (`SIA` is 0, `SIZ` 25, `SIAA` 26, …); nil past the last.
    public static func extended(_ primary: String, _ index: Int) -> String? {
        var rest = index
        var width = 1, count = 26
        while rest >= count {
            rest -= count
            width += 1
            guard width <= 6 else { return nil }
            count *= 26
        }
        var letters = [Character](repeating: "A", count: width)
        for i in stride(from: width - 1, through: 0, by: -1) {
            letters[i] = Character(Unicode.Scalar(UInt8(65 + rest % 26)))
            rest /= 26
        }
        return primary + String(letters)
    }

    /// The candidates of steps 1 to 3, in order, each once.
    public static func candidates(_ domain: String) -> [String] {
        let words = words(domain)
        var seen = Set<String>()
        return ([system[domain] ?? first(words)] + later(words)).filter { seen.insert($0).inserted }
    }

    /// Steps 2 and 3: the first letter with the first letter of each later word, then with each later letter.
    static func later(_ words: [String]) -> [String] {
        let letters = Array(words.joined().uppercased().filter { $0.isASCII && $0.isLetter })
        guard let head = letters.first else { return [] }
        let initials = words.dropFirst().compactMap { $0.first.map { String(head) + String($0).uppercased() } }
        return initials + letters.dropFirst().map { String(head) + String($0) }
    }

    private static func first(_ words: [String]) -> String {
        let letters: String
        switch words.count {
        case 0: letters = "XX"
        case 1: letters = String(words[0].prefix(2))
        default: letters = String(words[0].prefix(1)) + String(words[1].prefix(1))
        }
        let upper = String(letters.uppercased().filter { $0.isASCII && $0.isLetter })
        return upper.count >= 2 ? upper : (upper + "XX").prefix(2).description
    }

    /// The type's own name, the last component of a qualified one: `App::UserError`,
    /// `*main.UserError`, `com.acme.UserError`, `app.errors.UserError`, `Outer$UserError` (Java),
    /// `Outer+UserError` (.NET) and `UserError<T>` or ``UserError`1[[…]]`` all name `UserError`.
    /// The origin a type such as `LogicError(File.swift:34 >>> f())` carries in parentheses is not
    /// part of it.
    public static func lastComponent(_ domain: String) -> String { String(ownName(domain)) }

    static func ownName(_ domain: String) -> Substring {
        var base = Substring(domain)
        if let cut = base.firstIndex(where: { $0 == "(" || $0 == "<" || $0 == "[" || $0 == "`" }), cut > base.startIndex {
            base = base[..<cut]
        }
        let separators: Set<Character> = [".", ":", "/", "\\", "$", "+", "#"]
        if let at = base.lastIndex(where: { separators.contains($0) }), base.index(after: at) < base.endIndex {
            base = base[base.index(after: at)...]
        }
        while let first = base.first, first == "*" || first == "&" { base = base.dropFirst() }
        return base
    }

    /// The camel-case words of the domain's type name, without its origin, namespace or `Error` suffix.
    static func words(_ domain: String) -> [String] {
        var base = ownName(domain)
        for suffix in ["ErrorDomain", "Error", "Domain"] where base.hasSuffix(suffix) && base.count > suffix.count {
            base = base.dropLast(suffix.count)
            break
        }
        return camelWords(String(base))
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
