/// A link's own words: its message without the text it quotes from its cause.
///
/// Wrappers repeat their cause's message: Go's `fmt.Errorf("resume session %s: %w", id, err)`
/// and pkg/errors' `Wrap`, Ruby's `raise "saving draft failed: #{e.message}"`, Python's
/// `raise Outer(f"…: {e}") from e`, Java's `new RuntimeException(cause)` (whose message is the
/// cause's `toString()`). Where a message ends with its cause's whole message — after `: `, ` - `,
/// `; `, a space or a line break, or directly after punctuation, bare or in quotes, parentheses
/// or brackets — the link's own text is what comes before it, without the separator. Where it
/// starts with the cause's message and a separator (`%w: …`), its own text is what follows.
/// What is left that only names the cause's type (`java.net.SocketTimeoutException`) is no
/// text of its own. A message that does not quote its cause is its own text, as it is.
public enum OwnText {
    /// The link's own text; `cause` is the message of the link right below it (nil for a root),
    /// `causeType` that link's type.
    public static func of(_ message: String, cause: String?, causeType: String? = nil) -> String {
        let m = Array(trimmed(message).utf8)
        guard let cause else { return message }
        let c = Array(trimmed(cause).utf8)
        guard !c.isEmpty else {
            // A cause without a message: a wrapper that says only the cause's type says nothing of its own.
            return namesType(m, causeType) ? "" : message
        }
        if m == c { return "" }
        for (open, close) in quotings {
            let form = open + c + close
            guard form.count <= m.count, m.suffix(form.count).elementsEqual(form) else { continue }
            let before = m.prefix(m.count - form.count)
            guard let last = before.last else { return "" }
            // A bare cause starts where a word may: after a space or punctuation, or with punctuation itself.
            if open.isEmpty, isWord(last), isWord(c[0]) { continue }
            let own = trimmingSeparators(Array(before))
            return namesType(own, causeType) ? "" : String(decoding: own, as: UTF8.self)
        }
        for separator in leadingSeparators {
            let form = c + separator
            guard form.count < m.count, m.prefix(form.count).elementsEqual(form) else { continue }
            return String(decoding: trimmingSeparators(Array(m.dropFirst(form.count))), as: UTF8.self)
        }
        return message
    }

    /// How a wrapper quotes its cause's message: bare, in quotes, parentheses or brackets.
    static let quotings: [([UInt8], [UInt8])] = [
        ([], []), (Array("\"".utf8), Array("\"".utf8)), (Array("'".utf8), Array("'".utf8)), (Array("`".utf8), Array("`".utf8)),
        (Array("(".utf8), Array(")".utf8)), (Array("[".utf8), Array("]".utf8)), (Array("«".utf8), Array("»".utf8)),
        (Array("“".utf8), Array("”".utf8)),
    ]

    /// What may stand between a cause's message and the wrapper's words that follow it.
    static let leadingSeparators: [[UInt8]] = [Array(": ".utf8), Array(" - ".utf8), Array("; ".utf8)]

    /// The text without surrounding spaces, tabs and line breaks.
    static func trimmed(_ text: String) -> String { text.trimmingASCIIWhitespace() }

    /// The bytes without trailing separators (`:`, `;`, `-`, `,`, `|`, `=`, `>`, `(`, `[`, dashes)
    /// and surrounding white space.
    static func trimmingSeparators(_ bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        let trailing: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "-"),
                                    UInt8(ascii: ","), UInt8(ascii: "|"), UInt8(ascii: "="), UInt8(ascii: ">"),
                                    UInt8(ascii: "("), UInt8(ascii: "[")]
        while end > 0 {
            if trailing.contains(bytes[end - 1]) { end -= 1; continue }
            // An en or em dash (U+2013, U+2014): E2 80 93 / E2 80 94.
            if end >= 3, bytes[end - 3] == 0xE2, bytes[end - 2] == 0x80, bytes[end - 1] == 0x93 || bytes[end - 1] == 0x94 {
                end -= 3
                continue
            }
            break
        }
        var start = 0
        while start < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        return Array(bytes[start..<end])
    }

    /// Whether the text only names the type (`SocketTimeoutException`, or qualified:
    /// `java.net.SocketTimeoutException`, `App::StorageError`): no words of its own.
    public static func namesType(_ text: String, _ type: String?) -> Bool {
        guard type != nil else { return false }
        let first = text.utf8.first, last = text.utf8.last
        let padded = first.map(MessageTemplate.isSpace) == true || last.map(MessageTemplate.isSpace) == true
        let bare = padded ? text.trimmingASCIIWhitespace() : text
        // A type's name is one word: most messages are told apart by their first space.
        guard !bare.utf8.contains(where: MessageTemplate.isSpace) else { return false }
        return namesType(Array(bare.utf8), type)
    }

    static func namesType(_ text: [UInt8], _ type: String?) -> Bool {
        guard let type, !type.isEmpty, !text.isEmpty, !text.contains(where: MessageTemplate.isSpace) else { return false }
        let t = Array(type.utf8)
        if text == t { return true }
        let simple = Array(DomainShortName.lastComponent(type).utf8)
        if text == simple { return true }
        guard !simple.isEmpty, text.count > simple.count, text.suffix(simple.count).elementsEqual(simple) else { return false }
        let before = text[text.count - simple.count - 1]
        return before == UInt8(ascii: ".") || before == UInt8(ascii: ":") || before == UInt8(ascii: "$")
            || before == UInt8(ascii: "+") || before == UInt8(ascii: "/")
    }

    static func isWord(_ b: UInt8) -> Bool { MessageTemplate.isWord(b) || b >= 0x80 }
}
