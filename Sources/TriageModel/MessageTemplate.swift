/// What an error's message says about its situation once the data of one event is masked, and
/// the code it states: how errors that carry no code of their own get a stable one.
///
/// `mask` replaces what differs from one event to the next with placeholders: quoted values
/// (`'<value>'`), UUIDs, hex (`0x…`), URLs, paths, e-mail addresses, dates and times, numbers
/// (`<n>`) and ids (a word of 6 or more hex digits, or 8 or more letters and digits, with a
/// digit in it: `<id>`). What is left names the situation, so the same situation masks to the
/// same template in every event and release, and different words give different templates.
public enum MessageTemplate {
    /// Which masks apply: grouping's since schema 21 (`current`), or the masks before it
    /// (`former`), with which the chains of earlier stores' keys are worked out (`FormerChain`).
    public struct Rules: Hashable, Sendable {
        /// Quoted values are masked whole (`'<value>'`); since schema 21 they are kept, and the
        /// values that differ from one event to the next at one place are learned instead
        /// (`WordTemplate`), so that `(reading 'total')` keeps the property it names.
        public var masksQuoted: Bool
        /// A run of six or more digits is an id like a run of six or more hex digits (`<id>`),
        /// and so is a run of eight or more hex letters: an id is one class whatever its digits.
        public var unifiesIDs: Bool
        /// An IPv4 address is kept as it is and a port after a host is `<port>`
        /// (`127.0.0.1:<port>`, `db.internal:<port>`), instead of `<n>.<n>.<n>.<n>:<n>`.
        public var keepsAddresses: Bool

        public static let current = Rules(masksQuoted: false, unifiesIDs: true, keepsAddresses: true)
        public static let former = Rules(masksQuoted: true, unifiesIDs: false, keepsAddresses: false)
    }

    /// The longest name a template gives, in characters.
    public static let maxNameLength = 80
    /// Derived codes are five digits, 10000–99999: a code the app states is rarely that large, and
    /// two templates of one domain share one by chance about once in 90,000 pairs.
    public static let derivedRange = 10_000..<100_000

    /// The message with per-event data masked, white space folded, on one line. Masking may
    /// uncover another mask (a quote that closed too early around a word now closes around a
    /// mask), so it runs until the template masks to itself: a template is its own template.
    public static func mask(_ text: String, rules: Rules = .current) -> String {
        var template = maskOnce(text, rules)
        for _ in 0..<8 {
            let again = maskOnce(template, rules)
            if again == template { break }
            template = again
        }
        return template
    }

    static func maskOnce(_ text: String, _ rules: Rules = .current) -> String {
        // Every line break and control is a space: a template is one line (U+2028, U+0085 …).
        var b = Array(text.utf8)
        if b.allSatisfy({ $0 < 0x80 }) {
            // ASCII (most messages): its whitespace and controls are the bytes below 0x20 and DEL.
            for i in b.indices where b[i] < 0x20 || b[i] == 0x7F { b[i] = 0x20 }
        } else {
            b = Array(String(String.UnicodeScalarView(text.unicodeScalars.map {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control ? " " : $0
            })).utf8)
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            let atWordStart = i == 0 || !isWordOrMask(b[i - 1])
            if rules.masksQuoted, atWordStart, let end = quoted(b, i) {
                out += [c] + Array("<value>".utf8) + [c]
                i = end
            } else if atWordStart, let end = uuid(b, i) {
                out += Array("<uuid>".utf8)
                i = end
            } else if atWordStart, let end = dateTime(b, i) {
                out += Array("<time>".utf8)
                i = end
            } else if atWordStart, let end = hex(b, i) {
                out += Array("<hex>".utf8)
                i = end
            } else if rules.keepsAddresses, atWordStart, let (end, port) = address(b, i) {
                out += b[i..<(port ?? end)]
                if port != nil { out += Array(":<port>".utf8) }
                i = end
            } else if rules.keepsAddresses, c == UInt8(ascii: ":"), let end = port(b, i, after: out) {
                out += Array(":<port>".utf8)
                i = end
            } else if i == 0 || isSpace(b[i - 1]) || opensToken(b[i - 1]) || (!rules.masksQuoted && isQuote(b[i - 1])),
                      let (end, mask) = token(b, i) {
                out += Array(mask.utf8)
                i = end
            } else if isWord(c) && atWordStart {
                var j = i
                while j < b.count, isWord(b[j]) { j += 1 }
                // A decimal: 30.2 reads as one number, however many digits it has.
                let decimal = j + 1 < b.count && b[j] == UInt8(ascii: ".") && isDigit(b[j + 1]) && b[i..<j].allSatisfy(isDigit)
                out += decimal && rules.unifiesIDs ? Array("<n>".utf8) : word(b[i..<j], rules)
                i = j
                if out.last == UInt8(ascii: ">"), i + 1 < b.count, b[i] == UInt8(ascii: "."), isDigit(b[i + 1]),
                   out.count >= 3, Array(out.suffix(3)) == Array("<n>".utf8) {
                    i += 1
                    while i < b.count, isDigit(b[i]) { i += 1 }
                }
            } else {
                out.append(isSpace(c) ? 0x20 : c)
                i += 1
            }
        }
        return fold(out)
    }

    /// A code the message states, and the message without it: Apple's `(Domain error N.)`, a
    /// leading `[N]` or `(N)`, else `code N`, `code=N` or `code: N` (without it where it stands in
    /// parentheses or brackets of its own, `timeout (code 8): …`); nil where it states none.
    public static func statedCode(_ text: String) -> (code: Int, rest: String)? {
        let b = Array(text.utf8)
        if let (code, start, end) = appleCode(b) {
            return (code, fold(Array(b[..<start]) + Array(b[end...])))
        }
        var i = 0
        while i < b.count, isSpace(b[i]) { i += 1 }
        if i < b.count, b[i] == UInt8(ascii: "[") || b[i] == UInt8(ascii: "("),
           let (code, j) = integer(b, i + 1), j < b.count, b[j] == (b[i] == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: ")")) {
            var k = j + 1
            while k < b.count, isSpace(b[k]) || b[k] == UInt8(ascii: ":") || b[k] == UInt8(ascii: "-") { k += 1 }
            return (code, fold(Array(b[k...])))
        }
        var at = 0
        while let found = find(Array("code".utf8), in: b, from: at) {
            at = found + 4
            guard found == 0 || !isWord(b[found - 1]) || b[found - 1] == UInt8(ascii: "_"),
                  b[found] | 0x20 == UInt8(ascii: "c") else { continue }
            var j = found + 4
            while j < b.count, isSpace(b[j]) || b[j] == UInt8(ascii: "=") || b[j] == UInt8(ascii: ":") { j += 1 }
            guard j > found + 4, let (code, end) = integer(b, j), end == b.count || !isWord(b[end]) else { continue }
            // `timeout (code 8): …`: the parenthesis is the code's alone, and the rest reads without it.
            if found > 0, end < b.count, (b[found - 1] == UInt8(ascii: "(") && b[end] == UInt8(ascii: ")"))
                || (b[found - 1] == UInt8(ascii: "[") && b[end] == UInt8(ascii: "]")) {
                var head = Array(b[..<(found - 1)])
                while let last = head.last, isSpace(last) { head.removeLast() }
                let tail = Array(b[(end + 1)...])
                let joined = tail.first.map { isSpace($0) || [UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ".")].contains($0) } ?? true
                return (code, fold(head + (joined ? [] : [0x20]) + tail))
            }
            return (code, text)
        }
        return nil
    }

    /// The name of the situation a message describes: the case it starts with (`timeout: …`,
    /// `getTokenFailed for user 42`: an identifier before a colon, or a camelCase or snake_case
    /// word), else its masked template, first line, at most `maxNameLength` characters; nil
    /// for an empty message.
    public static func caseName(_ message: String, domain: String? = nil, rules: Rules = .current) -> String? {
        let b = Array(message.utf8)
        var i = 0
        while i < b.count, isSpace(b[i]) { i += 1 }
        var j = i
        if j < b.count, isLetter(b[j]) || b[j] == UInt8(ascii: "_") {
            while j < b.count, isWord(b[j]) { j += 1 }
            let ident = b[i..<j]
            let next = j < b.count ? b[j] : nil
            let camel = ident.dropFirst().contains(where: isUpperLetter) && ident.contains(where: isLowerLetter)
            let snake = ident.contains(UInt8(ascii: "_")) && ident.contains(where: isLowerLetter)
            let colon = next == UInt8(ascii: ":") && (j + 1 == b.count || isSpace(b[j + 1]))
            // Go's `json: cannot unmarshal …` names the type's package, not a case of the app's.
            let package = rules == .current && colon && domain.map { packageName($0) == String(decoding: ident, as: UTF8.self) } == true
            if !ident.contains(where: isDigit), !package,
               colon || ((camel || snake) && (next == nil || isSpace(next!) || next == UInt8(ascii: "(") || next == UInt8(ascii: ","))) {
                return String(decoding: ident, as: UTF8.self)
            }
        }
        let firstLine = String(decoding: b.prefix { $0 != 0x0A }, as: UTF8.self)
        let template = mask(firstLine, rules: rules)
        guard !template.isEmpty else { return nil }
        return String(template.prefix(maxNameLength))
    }

    /// The package a type is declared in, as its message may name it first: `json` of
    /// `*json.UnmarshalTypeError`, `decoder` of `json.decoder.JSONDecodeError`; nil for a bare name.
    static func packageName(_ domain: String) -> String? {
        let parts = domain.drop { $0 == "*" || $0 == "&" }.split(separator: ".")
        return parts.count >= 2 ? String(parts[parts.count - 2]) : nil
    }

    /// A code for a link that states none, from its domain and name: the same pair gives the
    /// same code on every machine and in every release (`StableHash`), in `derivedRange`.
    public static func derivedCode(domain: String, name: String?) -> Int {
        let hash = StableHash.value(domain + "\u{1F}" + (name ?? ""))
        return derivedRange.lowerBound + Int(hash % UInt64(derivedRange.count))
    }

    // MARK: - Scanning

    /// `(Domain error N.)` anywhere: the code and the byte range of the parenthesis.
    static func appleCode(_ b: [UInt8]) -> (Int, Int, Int)? {
        var at = 0
        while let open = b[at...].firstIndex(of: UInt8(ascii: "(")) {
            at = open + 1
            var j = open + 1
            while j < b.count, isWord(b[j]) || b[j] == UInt8(ascii: ".") { j += 1 }
            let marker = Array(" error ".utf8)
            guard j > open + 1, j + marker.count <= b.count, Array(b[j..<j + marker.count]) == marker,
                  let (code, end) = integer(b, j + marker.count),
                  end + 1 < b.count, b[end] == UInt8(ascii: "."), b[end + 1] == UInt8(ascii: ")") else { continue }
            return (code, open, end + 2)
        }
        return nil
    }

    /// An optionally negative decimal integer at `i` of at most 18 digits, and where it ends.
    static func integer(_ b: [UInt8], _ i: Int) -> (Int, Int)? {
        var j = i
        let negative = j < b.count && b[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let start = j
        var value = 0
        while j < b.count, isDigit(b[j]), j - start < 18 {
            value = value * 10 + Int(b[j] - UInt8(ascii: "0"))
            j += 1
        }
        guard j > start, j == b.count || !isDigit(b[j]) else { return nil }
        return (negative ? -value : value, j)
    }

    /// `0x` and hex digits, ending at a word's end.
    static func hex(_ b: [UInt8], _ i: Int) -> Int? {
        guard b[i] == UInt8(ascii: "0"), i + 2 < b.count, b[i + 1] | 0x20 == UInt8(ascii: "x"), isHex(b[i + 2]) else { return nil }
        var j = i + 2
        while j < b.count, isHex(b[j]) { j += 1 }
        return j == b.count || !isWordOrMask(b[j]) ? j : nil
    }

    /// A quoted value that closes on the same line within 200 bytes, before a non-word byte.
    static func quoted(_ b: [UInt8], _ i: Int) -> Int? {
        let q = b[i]
        guard q == UInt8(ascii: "'") || q == UInt8(ascii: "\"") || q == UInt8(ascii: "`") else { return nil }
        var j = i + 1
        while j < b.count, j - i <= 200, b[j] != 0x0A {
            if b[j] == q {
                guard j + 1 == b.count || !isWordOrMask(b[j + 1]) else { return nil }
                return j + 1
            }
            j += 1
        }
        return nil
    }

    /// 8-4-4-4-12 hex digits.
    static func uuid(_ b: [UInt8], _ i: Int) -> Int? {
        var j = i
        for (n, run) in [8, 4, 4, 4, 12].enumerated() {
            if n > 0 {
                guard j < b.count, b[j] == UInt8(ascii: "-") else { return nil }
                j += 1
            }
            for _ in 0..<run {
                guard j < b.count, isHex(b[j]) else { return nil }
                j += 1
            }
        }
        return j == b.count || !isWordOrMask(b[j]) ? j : nil
    }

    /// `YYYY-MM-DD`, optionally with a time (`T` or a space, then `hh:mm[:ss[.fff]]`, a zone), or a time alone.
    static func dateTime(_ b: [UInt8], _ i: Int) -> Int? {
        func digits(_ at: Int, _ n: Int) -> Bool { at + n <= b.count && b[at..<at + n].allSatisfy(isDigit) }
        func time(_ at: Int) -> Int? {
            guard digits(at, 2) || (digits(at, 1) && at + 1 < b.count && b[at + 1] == UInt8(ascii: ":")) else { return nil }
            var j = at + (digits(at, 2) ? 2 : 1)
            guard j + 2 < b.count + 0, j < b.count, b[j] == UInt8(ascii: ":"), digits(j + 1, 2) else { return nil }
            j += 3
            if j + 2 < b.count + 1, j < b.count, b[j] == UInt8(ascii: ":"), digits(j + 1, 2) { j += 3 }
            if j + 1 < b.count, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: ","), isDigit(b[j + 1]) {
                j += 1
                while j < b.count, isDigit(b[j]) { j += 1 }
            }
            if j < b.count, b[j] == UInt8(ascii: "Z") { j += 1 }
            else if j < b.count, b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "-"), digits(j + 1, 2) {
                j += 3
                if j < b.count, b[j] == UInt8(ascii: ":"), digits(j + 1, 2) { j += 3 } else if digits(j, 2) { j += 2 }
            } else if j + 3 < b.count + 0, Array(b[j..<j + 4]) == Array(" UTC".utf8) { j += 4 }
            return j
        }
        if digits(i, 4), i + 4 < b.count, b[i + 4] == UInt8(ascii: "-"), digits(i + 5, 2), i + 7 < b.count,
           b[i + 7] == UInt8(ascii: "-"), digits(i + 8, 2) {
            var j = i + 10
            if j + 1 < b.count, b[j] == UInt8(ascii: "T") || b[j] == UInt8(ascii: " "), let end = time(j + 1) { j = end }
            return j == b.count || !isWordOrMask(b[j]) ? j : nil
        }
        guard let end = time(i) else { return nil }
        return end == b.count || !isWordOrMask(b[end]) ? end : nil
    }

    /// An IPv4 address at `i` (four numbers of at most three digits), its end and where a port
    /// after it starts (`127.0.0.1:5432`); nil where none starts there.
    static func address(_ b: [UInt8], _ i: Int) -> (Int, Int?)? {
        var j = i
        for part in 0..<4 {
            if part > 0 {
                guard j < b.count, b[j] == UInt8(ascii: ".") else { return nil }
                j += 1
            }
            let start = j
            while j < b.count, isDigit(b[j]), j - start < 4 { j += 1 }
            guard j > start, j - start <= 3 else { return nil }
        }
        guard j == b.count || !(isWordOrMask(b[j]) || (b[j] == UInt8(ascii: ".") && j + 1 < b.count && isDigit(b[j + 1]))) else { return nil }
        if let end = port(b, j, after: []) { return (end, j) }
        return (j, nil)
    }

    /// A port at `i` (`:` and one to five digits, ending a word) after a host: an address, a
    /// name with a dot (`db.internal`) or `localhost`, as `out` ends (empty: the caller knows).
    static func port(_ b: [UInt8], _ i: Int, after out: [UInt8]) -> Int? {
        guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
        var j = i + 1
        while j < b.count, isDigit(b[j]), j - i <= 6 { j += 1 }
        guard j - i >= 2, j - i <= 6, j == b.count || !isWordOrMask(b[j]) else { return nil }
        guard !out.isEmpty else { return j }
        let host = out.reversed().prefix { !isSpace($0) && !opensToken($0) && !isQuote($0) && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") }
        guard let last = host.first, isWord(last) || last == UInt8(ascii: ">") || last == UInt8(ascii: "]") else { return nil }
        let name = Array(host.reversed())
        return name.contains(UInt8(ascii: ".")) || name == Array("localhost".utf8) || name.first == UInt8(ascii: "[") ? j : nil
    }

    /// A URL, a path or an e-mail address that starts at `i`: its end and its mask.
    static func token(_ b: [UInt8], _ i: Int) -> (Int, String)? {
        var j = i
        while j < b.count, !isSpace(b[j]) { j += 1 }
        // Trailing punctuation ends a sentence, not the token.
        while j > i, [UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ")"),
                      UInt8(ascii: "]"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(b[j - 1]) {
            j -= 1
        }
        let t = Array(b[i..<j])
        // Quotes and a mask's brackets end a path, a URL or an address: what they enclose is masked on its own.
        guard t.count > 1, !t.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "`")
                                                 || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return nil }
        if find(Array("://".utf8), in: t, from: 0).map({ $0 > 0 && t[..<$0].allSatisfy(isLetter) }) == true { return (j, "<url>") }
        let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")
        let startsPath = t[0] == slash || (t[0] == UInt8(ascii: "~") && t[1] == slash)
            || (t[0] == UInt8(ascii: ".") && (t[1] == slash || (t.count > 2 && t[1] == UInt8(ascii: ".") && t[2] == slash)))
            || (t.count > 2 && isLetter(t[0]) && t[1] == UInt8(ascii: ":") && t[2] == backslash)
        if startsPath, t.dropFirst().contains(where: { $0 == slash || $0 == backslash || isWord($0) }) { return (j, "<path>") }
        if let at = t.firstIndex(of: UInt8(ascii: "@")), at > 0, t[(at + 1)...].contains(UInt8(ascii: ".")),
           t[..<at].allSatisfy({ isWord($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
            return (j, "<email>")
        }
        return nil
    }

    /// Units a number carries in messages: time, size, screen.
    static let units: Set<String> = ["ns", "us", "ms", "s", "sec", "m", "min", "h", "d", "b", "kb", "mb", "gb", "tb",
                                     "kib", "mib", "gib", "px", "pt", "x"]

    /// A word with digits in it: a number; an id (six or more hex digits: `8f3a2c`); a number with
    /// a unit (`120000ms`; a hex-looking one such as `123456b` reads as an id); another id (eight or
    /// more letters and digits); else a word whose digits are masked (`v2`, `u42`).
    static func word(_ w: ArraySlice<UInt8>, _ rules: Rules = .current) -> [UInt8] {
        guard w.contains(where: isDigit) else {
            // Eight or more hex letters (`deadbeef`, `CAFEBABEFACE`): an id whose digits happen to be letters.
            if rules.unifiesIDs, w.count >= 8, w.allSatisfy(isHex), w.allSatisfy(isLowerLetter) || w.allSatisfy(isUpperLetter) {
                return Array("<id>".utf8)
            }
            return Array(w)
        }
        // Six or more digits are an id, as six or more hex digits are: one class, whichever form comes.
        if w.allSatisfy(isDigit) { return Array((rules.unifiesIDs && w.count >= 6 ? "<id>" : "<n>").utf8) }
        if w.count >= 6 && w.allSatisfy(isHex) { return Array("<id>".utf8) }
        // A number with a unit (`120000ms`, `30s`, `12345678B`) is a number, however long.
        if let unit = w.firstIndex(where: { !isDigit($0) }), unit > w.startIndex,
           units.contains(String(decoding: w[unit...], as: UTF8.self).lowercased()) {
            return Array("<n>".utf8) + Array(w[unit...])
        }
        if w.count >= 8 { return Array("<id>".utf8) }
        var out: [UInt8] = []
        var k = w.startIndex
        while k < w.endIndex {
            if isDigit(w[k]) {
                while k < w.endIndex, isDigit(w[k]) { k += 1 }
                out += Array("<n>".utf8)
            } else {
                out.append(w[k])
                k += 1
            }
        }
        return out
    }

    /// Bytes as text with runs of white space folded to one space and the ends trimmed.
    static func fold(_ b: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        for c in b {
            if isSpace(c) {
                if let last = out.last, last != 0x20 { out.append(0x20) }
            } else {
                out.append(c)
            }
        }
        while out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    static func find(_ needle: [UInt8], in b: [UInt8], from: Int) -> Int? {
        guard needle.count <= b.count else { return nil }
        var i = from
        while i + needle.count <= b.count {
            if b[i] | 0x20 == needle[0] | 0x20 {
                var k = 1
                while k < needle.count, b[i + k] | (isLetter(needle[k]) ? 0x20 : 0) == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    static func isUpperLetter(_ c: UInt8) -> Bool { c >= 65 && c <= 90 }
    static func isLowerLetter(_ c: UInt8) -> Bool { c >= 97 && c <= 122 }
    static func isLetter(_ c: UInt8) -> Bool { isUpperLetter(c) || isLowerLetter(c) }
    static func isWord(_ c: UInt8) -> Bool { isLetter(c) || isDigit(c) || c == UInt8(ascii: "_") }
    /// A word byte, or the bracket of a mask: a mask stands where a word stood, so that masking a
    /// template again finds the same boundaries and changes nothing.
    static func isWordOrMask(_ c: UInt8) -> Bool { isWord(c) || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") }
    static func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 97 && c | 0x20 <= 102) }
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    static func isQuote(_ c: UInt8) -> Bool { c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "`") }
    static func opensToken(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "(") || c == UInt8(ascii: "[") || c == UInt8(ascii: "=") || c == UInt8(ascii: "<")
    }
}
