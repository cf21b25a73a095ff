/// The words of one link of an event whose name is its message's template: where it was met, and
/// the template's tokens, for the store to learn which positions vary there (`WordTemplate`).
///
/// Where no stack trace tells where a link was raised (a Go `fmt.Errorf` wrap, a message without
/// a stack), its words decide its code: the store gives it the code of the template it joins at
/// its place, so that `load coupon SPRING24` and `load coupon WELCOME` are one failure. Where its
/// raise site decides the code (`bySite`), only the name is learned: the words that differ among
/// the events of the one place become `<value>`, so that the title is the same whichever came first.
public struct LinkWords: Hashable, Sendable {
    /// The link's index in the event's chain.
    public var link: Int
    /// Where the words were met: the link's type (and a message's level), or its raise site's code.
    public var place: String
    /// The template's tokens (`WordTemplate.tokens`).
    public var tokens: [String]
    /// Whether the raise site decides the code, so that every template of the place is one.
    public var bySite: Bool

    public init(link: Int, place: String, tokens: [String], bySite: Bool) {
        self.link = link
        self.place = place
        self.tokens = tokens
        self.bySite = bySite
    }
}

/// A template learned at one place: its tokens, where `<*>` stands for a position whose words
/// differ among the messages that joined it, and the code it was given when it was first met,
/// which it keeps for ever.
///
/// The words-decide case follows Drain (He et al., 2017, as Drain3 implements it): a message joins
/// a template of the same place with the same number of tokens whose first words are its own (a
/// word with a digit, a mask or a quoted value matches any) and with at least `threshold` of its
/// tokens the same; the positions that differ become parameters. So `upload avatar <n>` and
/// `delete avatar <n>` stay two (they differ in the first word), `load coupon SPRING<n>` and
/// `load coupon <id>` are one. Where the site decides, every message of the place joins the one
/// template: the positions that differ become parameters, and where the lengths differ, what
/// lies between the words they share at both ends.
public struct WordTemplate: Hashable, Sendable {
    public var tokens: [String]
    public var code: Int

    /// A position whose words differ.
    public static let parameter = "<*>"
    /// How many of a message's tokens must be the template's for it to join (Drain3's default: 0.4).
    public static let threshold = 0.4
    /// How many first tokens must match (Drain3's default depth 4 less the root and length levels),
    /// but for a value a noun names (`similarity`).
    public static let leadingWords = 2

    public init(tokens: [String], code: Int) {
        self.tokens = tokens
        self.code = code
    }

    /// The code of a link whose words decide it, the same for every message that joins one
    /// template at `place` in the usual case: derived from the place, the number of tokens and the
    /// first two tokens (`leadingWords`), a word that may be data read as a parameter. So a new
    /// coupon code in `load coupon <value>`, in any run and in any order, gives the key the others
    /// gave. Two templates of a place that share those but not enough of the rest get another
    /// code for the second (`TemplateLearner`); a template that a message with another second word
    /// joined (`coupon <value> rejected`) keeps the code of its first.
    public static func code(place: String, tokens: [String]) -> Int {
        let leading = min(leadingWords, tokens.count)
        var text = place + "\u{1F}words\u{1F}\(tokens.count)"
        for token in tokens.prefix(leading) {
            text += "\u{1F}"
            text += mayBeData(token) || isParameter(token) ? parameter : token
        }
        let hash = StableHash.value(text)
        let range = MessageTemplate.derivedRange
        return range.lowerBound + Int(hash % UInt64(range.count))
    }

    /// A template's tokens: words between spaces, where a quoted value is one token however many
    /// words it holds (`'font size'`) and a list is one token (`name, email, phone`).
    public static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var quote: Character?
        var current = ""
        var list = false
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if let q = quote {
                current += " " + word
                if word.last == q { quote = nil; out.append(current); current = "" }
                continue
            }
            if list, let last = out.last {
                out[out.count - 1] = last + " " + word
                list = word.last == ","
                continue
            }
            if let first = word.first, first == "'" || first == "\"" || first == "`", word.count == 1 || word.last != first {
                quote = first
                current = String(word)
                continue
            }
            out.append(String(word))
            list = word.last == "," && word.count > 1
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Words that say what happened rather than name a value: second words that differ and are
    /// both of these (or end like a verb's participle, `declined`, `timing`) tell two failures
    /// apart (`payment failed for card`, `payment declined for card`).
    static let happenings: Set<String> = [
        "not", "no", "cannot", "can't", "won't", "never", "error", "errors", "failure", "timeout", "invalid", "missing",
        "unknown", "unavailable", "denied", "refused", "rejected", "busy", "full", "empty", "closed", "lost", "gone", "down",
        "over", "under", "out", "too", "is", "was", "are", "has", "had", "does", "did", "will", "could", "would", "must",
    ]

    static func saysWhatHappened(_ token: String) -> Bool {
        let word = String(token.lowercased().drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed())
        return happenings.contains(word) || word.hasSuffix("ed") || word.hasSuffix("ing")
    }

    /// Whether a one-word name is a case of the app's or a word of its own (`timeout`, `EOF`,
    /// `invalid_grant`) rather than data (`'theme_dark'`, `<id>`): such a name is not learned.
    public static func isCaseName(_ token: String) -> Bool {
        guard let first = token.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return token.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ($0.value >= 48 && $0.value <= 57) }
    }

    /// Whether a token is a parameter (`<*>`, quoted or not).
    public static func isParameter(_ token: String) -> Bool {
        token == parameter || (token.count == parameter.count + 2 && quote(token) != nil && token.dropFirst().dropLast() == parameter)
    }

    /// Whether a token may be data where it stands first: it has a digit or a mask, or is quoted.
    static func mayBeData(_ token: String) -> Bool {
        if let first = token.utf8.first, first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") || first == UInt8(ascii: "`") { return true }
        return token.utf8.contains { ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "<") }
    }

    /// How much of a message is this template's: the share of its tokens the same, nil where it
    /// cannot join. It joins where it has as many tokens and its first two are the template's
    /// (a word with a digit, a mask or a quoted value matches any) with at least `threshold` of
    /// all the same; or where, of three tokens or more, only the second differs (`coupon SPRING
    /// rejected at checkout`: a value a noun names); never where the first word differs.
    public func similarity(_ message: [String]) -> Double? {
        guard message.count == tokens.count, !tokens.isEmpty else { return nil }
        if tokens.count == 1 { return tokens[0] == message[0] || (Self.mayBeData(tokens[0]) && Self.mayBeData(message[0])) ? 1 : nil }
        func differs(_ i: Int) -> Bool { tokens[i] != message[i] && !Self.mayBeData(tokens[i]) && !Self.mayBeData(message[i]) }
        guard !differs(0) else { return nil }
        var same = 0
        for (a, b) in zip(tokens, message) where a == b && !Self.isParameter(a) { same += 1 }
        let share = Double(same) / Double(tokens.count)
        if differs(1) {
            guard tokens.count >= 3, !(Self.saysWhatHappened(tokens[1]) && Self.saysWhatHappened(message[1])),
                  tokens.indices.allSatisfy({ $0 == 1 || tokens[$0] == message[$0] || Self.isParameter(tokens[$0]) }) else {
                return nil
            }
            return share
        }
        return share >= Self.threshold ? share : nil
    }

    /// The template with a message joined: the positions that differ become parameters (quoted
    /// where both are quoted alike); messages of another length keep the words both share at each
    /// end around one parameter.
    public func merged(with message: [String]) -> [String] {
        guard message.count != tokens.count else { return zip(tokens, message).map(Self.merge) }
        var head = 0
        let most = min(tokens.count, message.count)
        while head < most, tokens[head] == message[head] { head += 1 }
        var tail = 0
        while tail < most - head, tokens[tokens.count - 1 - tail] == message[message.count - 1 - tail] { tail += 1 }
        let middle = Array(tokens[head..<(tokens.count - tail)]) + Array(message[head..<(message.count - tail)])
        let quote = middle.first.flatMap(Self.quote)
        let joined = quote.map { q in middle.allSatisfy { Self.quote($0) == q } } == true ? "\(quote!)\(Self.parameter)\(quote!)" : Self.parameter
        return Self.collapsed(Array(tokens[..<head]) + [joined] + Array(tokens[(tokens.count - tail)...]))
    }

    static func merge(_ a: String, _ b: String) -> String {
        guard a != b else { return a }
        if let q = quote(a), quote(b) == q { return "\(q)\(parameter)\(q)" }
        return parameter
    }

    /// The quote a token is enclosed in, if any.
    static func quote(_ token: String) -> Character? {
        guard token.count >= 2, let q = token.first, q == "'" || q == "\"" || q == "`", token.last == q else { return nil }
        return q
    }

    /// Tokens with every run of one parameter folded to one.
    static func collapsed(_ tokens: [String]) -> [String] {
        var out: [String] = []
        for t in tokens where !(isParameter(t) && out.last == t) { out.append(t) }
        return out
    }

    /// The name the template gives: its tokens, each parameter `<value>` (a run of them one).
    public var name: String { Self.name(tokens) }

    public static func name(_ tokens: [String]) -> String {
        collapsed(tokens).map { token in
            guard isParameter(token), let quote = quote(token) else { return isParameter(token) ? "<value>" : token }
            return "\(quote)<value>\(quote)"
        }.joined(separator: " ")
    }
}
