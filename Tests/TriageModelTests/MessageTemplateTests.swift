import Foundation
import PropertyBased
import Testing
@testable import TriageModel

/// What one event's message says once its data is masked: examples of each kind of data, then
/// the properties a template keeps whatever the data (under the masks before schema 21).
@Suite("MessageTemplate.mask")
struct MessageTemplateMaskTests {
    /// The masks as grouping had them before schema 21, with which earlier stores' keys are found
    /// (`MessageTemplate.Rules.former`); `MessageTemplateRulesTests` has what changed since.
    static func mask(_ text: String) -> String { MessageTemplate.mask(text, rules: .former) }

    @Test(arguments: ["'", "\"", "`"])
    func masksAQuotedValueKeepingItsQuotes(_ quote: String) {
        #expect(Self.mask("user \(quote)bob smith\(quote) not found") == "user \(quote)<value>\(quote) not found")
    }

    @Test func masksAnEmptyQuotedValue() {
        #expect(Self.mask("key '' is empty") == "key '<value>' is empty")
    }

    @Test func keepsAnApostropheInsideAWord() {
        #expect(Self.mask("can't connect, don't retry") == "can't connect, don't retry")
    }

    @Test func masksAUUIDInEitherCase() {
        #expect(Self.mask("order 550e8400-e29b-41d4-a716-446655440000 lost") == "order <uuid> lost")
        #expect(Self.mask("order 550E8400-E29B-41D4-A716-446655440000.") == "order <uuid>.")
    }

    @Test func masksAHexNumber() {
        #expect(Self.mask("bad access at 0x7ffee4a1c0") == "bad access at <hex>")
        #expect(Self.mask("bad access at 0XDEADbeef, again") == "bad access at <hex>, again")
    }

    @Test func masksAURL() {
        #expect(Self.mask("GET https://api.example.com/v1/items?id=42&page=3 failed") == "GET <url> failed")
    }

    @Test func aURLEndsBeforeTheSentencesPunctuation() {
        #expect(Self.mask("cannot reach (http://10.0.0.7:8080/health).") == "cannot reach (<url>).")
    }

    @Test(arguments: ["/var/mobile/Containers/Data/app-3.sqlite", "~/Library/Caches/x", "./build/out.log", "../up/there",
                      "C:\\Users\\bob\\AppData\\x.txt"])
    func masksAPath(_ path: String) {
        #expect(Self.mask("cannot open \(path) for writing") == "cannot open <path> for writing")
    }

    @Test func masksAnEmailAddress() {
        #expect(Self.mask("mail to first.last+tag@example.co.uk bounced.") == "mail to <email> bounced.")
    }

    @Test(arguments: ["2026-10-04", "2026-10-04T22:33:00Z", "2026-10-04 22:33:00", "2026-10-04T22:33:00.123+03:00",
                      "2026-10-04T22:33:00-0500", "2026-10-04 22:33:00 UTC", "22:33", "9:05:01", "22:33:00.5"])
    func masksADateOrATime(_ time: String) {
        #expect(Self.mask("expired at \(time) today") == "expired at <time> today")
    }

    @Test func masksANumber() {
        #expect(Self.mask("retry 3 of 15") == "retry <n> of <n>")
    }

    @Test func masksADecimalAsOneNumber() {
        #expect(Self.mask("took 30.2s") == "took <n>s")
    }

    /// A number with its unit is a number however many digits it has: 120000ms is not an id.
    /// (A unit that is a hex digit, `12345678B`, reads as an id: `123456b` is one.)
    @Test(arguments: ["5000ms", "120000ms", "1500000us", "12345678KB"])
    func masksANumberWithAUnitAsANumber(_ duration: String) {
        let unit = duration.drop { $0.isNumber }
        #expect(Self.mask("timed out after \(duration)") == "timed out after <n>\(unit)")
    }

    @Test func keepsTheSignOfANegativeNumber() {
        #expect(Self.mask("status -1009") == "status -<n>")
    }

    @Test func masksAWordOfSixOrMoreHexDigitsAsAnID() {
        #expect(Self.mask("request req-8f3a2c timed out") == "request req-<id> timed out")
    }

    @Test func masksAWordOfEightOrMoreLettersAndDigitsAsAnID() {
        #expect(Self.mask("session a1b2c3d4zz expired") == "session <id> expired")
    }

    @Test func masksOnlyTheDigitsOfAShortWord() {
        #expect(Self.mask("http2 stream ab12 reset") == "http<n> stream ab<n> reset")
    }

    @Test func keepsAWordWithoutDigits() {
        #expect(Self.mask("deadbeef cafe") == "deadbeef cafe")
    }

    @Test func foldsWhiteSpaceOntoOneLine() {
        #expect(Self.mask("  connection\tlost\r\n\n  retrying  ") == "connection lost retrying")
    }

    /// Every line break Unicode names (LF, CR, VT, FF, NEL, LS, PS) is white space: the template is one line.
    @Test(arguments: ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"])
    func foldsEveryLineBreakToASpace(_ lineBreak: String) {
        #expect(Self.mask("connection lost\(lineBreak)retrying") == "connection lost retrying")
    }

    @Test func masksNothingInAnEmptyMessage() {
        #expect(Self.mask("") == "")
        #expect(Self.mask(" \t\n") == "")
    }

    /// A hex number running into a word (`0x1fg9`) masked only its hex run: the digits after it stayed.
    @Test func aHexNumberRunningIntoAWordLeavesNoDigitBehind() {
        let template = Self.mask("bad pointer 0x1fg9")
        #expect(!template.utf8.contains { $0 >= 48 && $0 <= 57 }, "\(template)")
    }

    /// Inputs on which masking the template again changed it: a quote right after a number (the
    /// number's `<n>` ends in `>`, so the quote then starts a word), and a hex run into a word.
    @Test(arguments: ["size 12\"abc\"", "0\"_1\"", "bad pointer 0x1fg9", "0xcode12:30"])
    func maskingATemplateAgainChangesNothing(_ message: String) {
        let template = Self.mask(message)
        #expect(Self.mask(template) == template, "\(message.debugDescription) → \(template.debugDescription)")
    }

    // MARK: - Properties

    /// The same situation, different data: a template does not change with the data.
    @Test func aTemplateIsStableUnderChangedData() async {
        await propertyCheck(count: 500, input: MaskGen.quote, MaskGen.slots, MaskGen.slots) { quote, a, b in
            let expected = MaskGen.template(quote: quote)
            #expect(Self.mask(MaskGen.sentence(quote: quote, a)) == expected, "\(MaskGen.sentence(quote: quote, a))")
            #expect(Self.mask(MaskGen.sentence(quote: quote, a)) == Self.mask(MaskGen.sentence(quote: quote, b)))
        }
    }

    /// Two sentences differing in one word without digits are different situations.
    @Test func differentWordsGiveDifferentTemplates() async {
        let input = zip(MaskGen.word.array(of: 2...8), MaskGen.datum.array(of: 7), Gen.int(in: 0...7), MaskGen.word)
        await propertyCheck(count: 500, input: input) { words, data, pick, replacement in
            let at = pick % words.count
            guard words[at] != replacement else { return }
            var other = words
            other[at] = replacement
            let a = MaskGen.interleave(words, data), b = MaskGen.interleave(other, data)
            #expect(Self.mask(a) != Self.mask(b), "\(a) | \(b)")
        }
    }

    @Test func maskIsIdempotent() async {
        let pieces = zip(MaskGen.messyPiece.array(of: 0...30), MaskGen.unicodePiece.array(of: 0...3))
        await propertyCheck(count: Int(ProcessInfo.processInfo.environment["MASK_CHECKS"] ?? "") ?? 500, input: pieces) { messy, other in
            let text = (messy + other).joined()
            let once = Self.mask(text)
            #expect(Self.mask(once) == once, "\(text.debugDescription) → \(once.debugDescription)")
        }
    }

    @Test func maskNeverCrashesAndGivesOneLineOnArbitraryUnicode() async {
        await propertyCheck(count: 1000, input: MaskGen.unicodePiece.array(of: 0...40)) { pieces in
            let text = pieces.joined()
            let template = Self.mask(text)
            #expect(!template.contains { $0.isNewline }, "\(text.unicodeScalars.map { String($0.value, radix: 16) }) → \(template.debugDescription)")
        }
    }

    /// An ASCII message takes a byte-wise path; it must mask exactly as the Unicode path does.
    /// A non-ASCII letter at the end sends the same text through the Unicode path for comparison.
    @Test func theASCIIPathMasksEveryByteAsTheUnicodePathDoes() {
        for byte in UInt8(0)..<0x80 {
            let ascii = "id\(Character(Unicode.Scalar(byte)))42 at 'x'\t\(Character(Unicode.Scalar(byte)))end"
            #expect(Self.mask(ascii) + " é" == Self.mask(ascii + " é"), "byte \(byte)")
        }
    }
}

@Suite("MessageTemplate.statedCode")
struct MessageTemplateStatedCodeTests {
    @Test func readsApplesDomainErrorForm() {
        let stated = MessageTemplate.statedCode("The file couldn’t be saved. (NSCocoaErrorDomain error 640.)")
        #expect(stated?.code == 640)
        #expect(stated?.rest == "The file couldn’t be saved.")
    }

    @Test func readsANegativeAppleCode() {
        let stated = MessageTemplate.statedCode("The operation couldn’t be completed. (NSURLErrorDomain error -1009.)")
        #expect(stated?.code == -1009)
        #expect(stated?.rest == "The operation couldn’t be completed.")
    }

    @Test func readsAppleCodeOfAReverseDNSDomain() {
        let stated = MessageTemplate.statedCode("(com.example.feed.decoding error 3.) while loading")
        #expect(stated?.code == 3)
        #expect(stated?.rest == "while loading")
    }

    @Test func readsALeadingBracketedCode() {
        let stated = MessageTemplate.statedCode("[8] timeout: request req-8f3a2c took 30.2s")
        #expect(stated?.code == 8)
        #expect(stated?.rest == "timeout: request req-8f3a2c took 30.2s")
    }

    @Test func readsALeadingParenthesizedCode() {
        let stated = MessageTemplate.statedCode("  (-42) - bad gateway")
        #expect(stated?.code == -42)
        #expect(stated?.rest == "bad gateway")
    }

    @Test(arguments: [("request failed with code 7", 7), ("request failed, code=7", 7),
                      ("Code 404 from server", 404), ("http_code=503", 503)])
    func readsACodeNamedCode(message: String, code: Int) {
        let stated = MessageTemplate.statedCode(message)
        #expect(stated?.code == code)
        #expect(stated?.rest == message, "the message keeps a code it names in its words")
    }

    @Test(arguments: [("request failed (code: -7)", -7, "request failed"), ("timeout (code 8): POST /token", 8, "timeout: POST /token"),
                      ("loginFailed [code=43] for u1", 43, "loginFailed for u1")])
    func readsACodeInParenthesesOfItsOwnAndTheRestWithoutThem(message: String, code: Int, rest: String) {
        let stated = MessageTemplate.statedCode(message)
        #expect(stated?.code == code)
        #expect(stated?.rest == rest)
    }

    @Test func readsTheCodeOfAnNSErrorDescription() {
        #expect(MessageTemplate.statedCode("Error Domain=NSURLErrorDomain Code=-1009 \"offline\"")?.code == -1009)
    }

    @Test func prefersApplesFormToACodeNamedCode() {
        #expect(MessageTemplate.statedCode("code 3 (NSPOSIXErrorDomain error 5.)")?.code == 5)
    }

    @Test(arguments: ["barcode 5 unreadable", "codes 5 and 6", "zipcode 12345", "code 5a", "code", "codes: 5",
                      "code 1234567890123456789"])
    func readsNoCodeFromAWordThatIsNotCodeOrANumberThatIsNotOne(_ message: String) {
        #expect(MessageTemplate.statedCode(message) == nil)
    }

    @Test func readsNoCodeFromAMessageThatStatesNone() {
        #expect(MessageTemplate.statedCode("could not resolve host api-3.example.com") == nil)
        #expect(MessageTemplate.statedCode("") == nil)
    }

    @Test func readsNoAppleCodeWithoutItsClosingDot() {
        #expect(MessageTemplate.statedCode("(NSURLErrorDomain error -1009)") == nil)
    }
}

@Suite("MessageTemplate.caseName")
struct MessageTemplateCaseNameTests {
    @Test func namesTheIdentifierBeforeAColonOnceTheCodeIsRead() throws {
        let stated = try #require(MessageTemplate.statedCode("[8] timeout: request req-8f3a2c took 30.2s"))
        #expect(MessageTemplate.caseName(stated.rest) == "timeout")
    }

    @Test func namesALeadingCamelCaseWord() {
        #expect(MessageTemplate.caseName("getTokenFailed for user 42") == "getTokenFailed")
    }

    @Test func namesALeadingSnakeCaseWord() {
        #expect(MessageTemplate.caseName("invalid_grant (token expired)") == "invalid_grant")
    }

    @Test func namesACamelCaseWordAlone() {
        #expect(MessageTemplate.caseName("connectionIssue") == "connectionIssue")
    }

    @Test func givesTheMaskedTemplateForASentence() {
        #expect(MessageTemplate.caseName("could not resolve host api-3.example.com") == "could not resolve host api-<n>.example.com")
    }

    @Test func anIdentifierWithDigitsIsNotACase() {
        #expect(MessageTemplate.caseName("http2: stream 7 reset") == "http<n>: stream <n> reset")
    }

    @Test func aPlainLowercaseFirstWordIsNotACase() {
        #expect(MessageTemplate.caseName("timeout after 30s") == "timeout after <n>s")
    }

    @Test func namesOnlyTheFirstLine() {
        #expect(MessageTemplate.caseName("connection lost\nretrying in 5s") == "connection lost")
    }

    @Test func aNameIsAtMostEightyCharacters() {
        let name = MessageTemplate.caseName(String(repeating: "word ", count: 40))
        #expect(name?.count == MessageTemplate.maxNameLength)
    }

    @Test func anEmptyMessageHasNoName() {
        #expect(MessageTemplate.caseName("") == nil)
        #expect(MessageTemplate.caseName("  \n  ") == nil)
    }

    @Test func aNameIsAtMostEightyCharactersForAnyMessage() async {
        await propertyCheck(count: 500, input: MaskGen.unicodePiece.array(of: 0...40)) { pieces in
            let text = pieces.joined()
            if let name = MessageTemplate.caseName(text) {
                #expect(!name.isEmpty && name.count <= MessageTemplate.maxNameLength)
            }
        }
    }
}

@Suite("MessageTemplate.derivedCode")
struct MessageTemplateDerivedCodeTests {
    @Test func theSamePairGivesTheSameCode() {
        #expect(MessageTemplate.derivedCode(domain: "NetworkError", name: "timeout")
                == MessageTemplate.derivedCode(domain: "NetworkError", name: "timeout"))
    }

    /// FNV-1a of the pair: the same on every machine and in every release.
    @Test func theCodeIsTheSameInEveryRelease() {
        #expect(MessageTemplate.derivedCode(domain: "NetworkError", name: "timeout") == 53053)
        #expect(MessageTemplate.derivedCode(domain: "APIError", name: "timeout") == 52795)
    }

    @Test func anotherDomainGivesAnotherCode() {
        #expect(MessageTemplate.derivedCode(domain: "NetworkError", name: "timeout")
                != MessageTemplate.derivedCode(domain: "APIError", name: "timeout"))
    }

    @Test func everyCodeIsFiveDigits() async {
        await propertyCheck(count: 1000, input: Gen.latin1.string(of: 0...24), Gen.latin1.string(of: 0...24).optional) { domain, name in
            let code = MessageTemplate.derivedCode(domain: domain, name: name)
            #expect(MessageTemplate.derivedRange.contains(code) && (10_000...99_999).contains(code))
            #expect(code == MessageTemplate.derivedCode(domain: domain, name: name))
        }
    }
}

/// Generators of messages: the data each mask stands for, words, and text of every kind.
enum MaskGen {
    typealias RNG = any SeededRandomNumberGenerator

    static func pick(_ options: [String]) -> Generator<String, Shrink.None<String?>> {
        Gen<String?>.element(of: options).map { $0! }
    }

    /// A generator from a function of the random source (no shrinking).
    static func make<T>(_ body: @Sendable @escaping (inout RNG) -> T) -> Generator<T, Shrink.None<T>> {
        Generator(run: { rng in body(&rng) })
    }

    static let hexDigits = Array("0123456789abcdefABCDEF")
    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let alnum = letters + Array("0123456789")

    static func int(_ range: ClosedRange<Int>, _ rng: inout RNG) -> Int { Int.random(in: range, using: &rng) }

    static func run(_ alphabet: [Character], _ count: ClosedRange<Int>, _ rng: inout RNG) -> String {
        var s = ""
        for _ in 0..<int(count, &rng) { s.append(alphabet.randomElement(using: &rng)!) }
        return s
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `42`, `30.25`.
    static func number(_ rng: inout RNG) -> String {
        let n = int(0...2_000_000_000, &rng)
        return Bool.random(using: &rng) ? "\(n).\(int(0...999, &rng))" : "\(n)"
    }

    /// `8f3a2c`: six or more hex digits, a digit and a letter among them.
    static func hexID(_ rng: inout RNG) -> String {
        run(Array("0123456789"), 1...1, &rng) + run(hexDigits, 4...14, &rng) + run(Array("abcdef"), 1...1, &rng)
    }

    /// `a1b2c3d4`: a letter, then letters and digits, eight or more with a digit.
    static func wordID(_ rng: inout RNG) -> String {
        run(letters, 1...1, &rng) + run(alnum, 6...14, &rng) + run(Array("0123456789"), 1...1, &rng)
    }

    static func uuid(_ rng: inout RNG) -> String {
        [8, 4, 4, 4, 12].map { run(hexDigits, $0...$0, &rng) }.joined(separator: "-")
    }

    /// A date, a date and time in one of the forms logs write, or a time alone.
    static func time(_ rng: inout RNG) -> String {
        let date = "\(int(1970...2099, &rng))-\(two(int(1...12, &rng)))-\(two(int(1...28, &rng)))"
        let h = int(0...23, &rng)
        let hm = "\(two(h)):\(two(int(0...59, &rng)))", hms = hm + ":\(two(int(0...59, &rng)))"
        switch int(0...7, &rng) {
        case 0: return date
        case 1: return "\(date)T\(hms)Z"
        case 2: return "\(date) \(hms)"
        case 3: return "\(date)T\(hms).\(int(0...999, &rng))+03:00"
        case 4: return "\(date) \(hms) UTC"
        case 5: return "\(date)T\(hm)-0500"
        case 6: return "\(h):\(two(int(0...59, &rng)))"
        default: return hms
        }
    }

    static func hex(_ rng: inout RNG) -> String { (Bool.random(using: &rng) ? "0x" : "0X") + run(hexDigits, 1...16, &rng) }

    static func segments(_ count: ClosedRange<Int>, _ rng: inout RNG) -> [String] {
        (0..<int(count, &rng)).map { _ in run(alnum, 1...8, &rng) }
    }

    static func path(_ rng: inout RNG) -> String {
        let form = int(0...4, &rng)
        let tail = segments(1...4, &rng).joined(separator: form == 4 ? "\\" : "/") + (Bool.random(using: &rng) ? ".log" : "")
        switch form {
        case 0: return "/" + tail
        case 1: return "~/" + tail
        case 2: return "./" + tail
        case 3: return "../" + tail
        default: return run(Array("ABCDEFGHZ"), 1...1, &rng) + ":\\" + tail
        }
    }

    static func url(_ rng: inout RNG) -> String {
        ["http", "https", "ftp", "wss"].randomElement(using: &rng)! + "://" + segments(1...3, &rng).joined(separator: ".") + ".com"
            + segments(0...3, &rng).map { "/" + $0 }.joined() + (Bool.random(using: &rng) ? "?id=\(number(&rng))&x=y" : "")
    }

    /// `first.last+tag@host.example.org`; the first character a letter (`0x1f@…` reads as hex first).
    static func email(_ rng: inout RNG) -> String {
        run(letters, 1...1, &rng) + run(alnum, 0...7, &rng) + ["", ".", "+", "-"].randomElement(using: &rng)! + run(alnum, 1...8, &rng) + "@" + run(alnum, 1...8, &rng)
            + ".example.org"
    }

    /// What a quoted value holds: printable ASCII but the quote, and a few letters beyond ASCII.
    static func quoted(_ quote: Character, _ rng: inout RNG) -> String {
        let alphabet = (0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) }.filter { $0 != quote } + ["é", "ж", "界", "🙂"]
        return String(quote) + run(alphabet, 0...40, &rng) + String(quote)
    }

    static let quote = pick(["'", "\"", "`"])

    /// The data one event puts into the sentence: its quoted value is quoted later, by the sentence's quote.
    struct Slots: Sendable {
        var quoted: [Character: String], path: String, uuid: String, time: String, url: String
        var count: String, seconds: String, hex: String, hexID: String, wordID: String, email: String
    }

    static let slots = make { rng in
        Slots(quoted: Dictionary(uniqueKeysWithValues: Array("'\"`").map { ($0, quoted($0, &rng)) }), path: path(&rng), uuid: uuid(&rng),
              time: time(&rng), url: url(&rng), count: number(&rng), seconds: number(&rng), hex: hex(&rng), hexID: hexID(&rng),
              wordID: wordID(&rng), email: email(&rng))
    }

    static func sentence(quote: String, _ s: Slots) -> String {
        "user \(s.quoted[Character(quote)]!) could not open \(s.path) for request \(s.uuid) at \(s.time) from \(s.url) after \(s.count) retries "
            + "(\(s.seconds)s), ptr \(s.hex), trace \(s.hexID), req-\(s.wordID), reply to \(s.email)."
    }

    static func template(quote q: String) -> String {
        "user \(q)<value>\(q) could not open <path> for request <uuid> at <time> from <url> after <n> retries "
            + "(<n>s), ptr <hex>, trace <id>, req-<id>, reply to <email>."
    }

    /// A word without digits: letters, some beyond ASCII.
    static let word = make { rng in run(letters + ["é", "ß", "ж", "ö"], 1...8, &rng) }

    /// Any one piece of data.
    static let datum = make { rng -> String in
        switch int(0...9, &rng) {
        case 0: return quoted(Array("'\"`").randomElement(using: &rng)!, &rng)
        case 1: return path(&rng)
        case 2: return uuid(&rng)
        case 3: return time(&rng)
        case 4: return url(&rng)
        case 5: return number(&rng)
        case 6: return hex(&rng)
        case 7: return hexID(&rng)
        case 8: return wordID(&rng)
        default: return email(&rng)
        }
    }

    /// `w0 d0 w1 d1 … wn`.
    static func interleave(_ words: [String], _ data: [String]) -> String {
        var parts: [String] = []
        for (i, word) in words.enumerated() {
            parts.append(word)
            if i < words.count - 1 { parts.append(data[i % data.count]) }
        }
        return parts.joined(separator: " ")
    }

    /// Pieces of text the masks look for, to run together with arbitrary characters.
    static let messyPiece = pick([
        "0", "7", "42", "a", "f", "x", "g", "Z", "_", "-", ".", ":", "/", "\\", "~", "@", "'", "\"", "`", " ", "\t", "\n",
        "0x", "12:30", "2026-01-02", "T", "UTC", "<", ">", "(", "[", "=", "é", "http://", "<n>", "code",
    ])

    /// One piece of Unicode text: ASCII (control characters too), line breaks and marks of every kind, any scalar.
    static let unicodePiece = make { rng -> String in
        switch int(0...9, &rng) {
        case 0...4: return String(UnicodeScalar(UInt8(int(0...127, &rng))))
        case 5, 6: return UnicodeScalar(UInt32(int(0x80...0xFFFF, &rng))).map { String($0) } ?? "\u{FFFD}"
        case 7: return UnicodeScalar(UInt32(int(0...0x10FFFF, &rng))).map { String($0) } ?? "\u{FFFD}"
        default:
            return ["\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\r\n", "\u{FEFF}", "\u{200D}", "\u{202E}", "\u{0301}", "🇺🇦",
                    "👩‍💻", "\u{0}"].randomElement(using: &rng)!
        }
    }
}

/// The masks since schema 21 (`MessageTemplate.Rules.current`): one class for each kind of data
/// whichever form comes, quoted values kept (the values that vary are learned, `WordTemplate`),
/// an address kept and its port masked.
@Suite("MessageTemplate.mask, schema 21")
struct MessageTemplateRulesTests {
    @Test(arguments: ["123456", "9081726354", "8f3a2c", "0123456789abcdef", "deadbeefcafe", "DEADBEEF"])
    func anIDIsOneClassWhetherItsDigitsAreDecimalOrHex(_ id: String) {
        #expect(MessageTemplate.mask("resume session \(id) now") == "resume session <id> now")
    }

    @Test func aShortNumberAndADecimalStayNumbers() {
        #expect(MessageTemplate.mask("retry 3 of 15 after 30.2s, 1234567.5 bytes") == "retry <n> of <n> after <n>s, <n> bytes")
    }

    @Test func aWordOfHexLettersShorterThanAnIDStays() {
        #expect(MessageTemplate.mask("deadbeef cafe decade") == "<id> cafe decade")
        #expect(MessageTemplate.mask("a facade was defaced") == "a facade was defaced")
    }

    @Test(arguments: ["'", "\"", "`"])
    func aQuotedValueIsKept(_ quote: String) {
        #expect(MessageTemplate.mask("Cannot read properties of undefined (reading \(quote)total\(quote))")
                == "Cannot read properties of undefined (reading \(quote)total\(quote))")
        #expect(MessageTemplate.mask("user \(quote)u4711\(quote) not found") == "user \(quote)u<n>\(quote) not found")
    }

    @Test func aPathInQuotesIsStillAPath() {
        #expect(MessageTemplate.mask("cannot open '/var/data/x.db'") == "cannot open '<path>'")
    }

    @Test func anAddressIsKeptAndItsPortMasked() {
        #expect(MessageTemplate.mask("connect ECONNREFUSED 127.0.0.1:5432") == "connect ECONNREFUSED 127.0.0.1:<port>")
        #expect(MessageTemplate.mask("dial tcp 10.0.7.12:443: i/o timeout") == "dial tcp 10.0.7.12:<port>: i/o timeout")
        #expect(MessageTemplate.mask("cannot reach db.internal:6543 or localhost:8080") == "cannot reach db.internal:<port> or localhost:<port>")
        #expect(MessageTemplate.mask("retry:3 code: 8") == "retry:<n> code: <n>")
    }

    @Test func aVersionIsNotAnAddress() {
        #expect(MessageTemplate.mask("requires 1.4.2 or later") == "requires <n>.<n> or later")
    }

    @Test func aGoPackageBeforeAColonIsNotACase() {
        let message = "json: cannot unmarshal string into Go struct field .qty of type int"
        #expect(MessageTemplate.caseName(message, domain: "*json.UnmarshalTypeError") == message)
        #expect(MessageTemplate.caseName("timeout: request took 3s", domain: "*main.NetworkError") == "timeout")
        #expect(MessageTemplate.caseName(message, domain: "*json.UnmarshalTypeError", rules: .former) == "json")
    }

    /// Two forms of one kind of data give one template, whichever comes first.
    @Test func oneTemplateWhicheverFormOfAnIDComes() async {
        await propertyCheck(count: 300, input: MaskGen.make { rng in
            (MaskGen.run(Array("0123456789"), 6...20, &rng), MaskGen.hexID(&rng))
        }) { pair in
            #expect(MessageTemplate.mask("order \(pair.0) lost") == MessageTemplate.mask("order \(pair.1) lost"))
        }
    }

    @Test func maskIsIdempotent() async {
        let pieces = zip(MaskGen.messyPiece.array(of: 0...30), MaskGen.unicodePiece.array(of: 0...3))
        await propertyCheck(count: 500, input: pieces) { messy, other in
            let text = (messy + other).joined()
            let once = MessageTemplate.mask(text)
            #expect(MessageTemplate.mask(once) == once, "\(text.debugDescription) → \(once.debugDescription)")
        }
    }

    @Test func theASCIIPathMasksEveryByteAsTheUnicodePathDoes() {
        for byte in UInt8(0)..<0x80 {
            let ascii = "id\(Character(Unicode.Scalar(byte)))42 at 'x'\t\(Character(Unicode.Scalar(byte)))end 127.0.0.1:80"
            #expect(MessageTemplate.mask(ascii) + " é" == MessageTemplate.mask(ascii + " é"), "byte \(byte)")
        }
    }
}
