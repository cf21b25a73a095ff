import PropertyBased
import Testing
@testable import TriageModel

/// A link's own words: its message without what it quotes of its cause's, as each language's
/// wrappers quote it; then the property that its own text does not depend on its cause's.
@Suite struct OwnTextTests {
    @Test func goWrapsRepeatTheirCausesMessageAfterAColon() {
        let root = "timeout (code 8): POST https://api.example.com/v1/token?req=16c5"
        let middle = "refresh token for u1007: " + root
        #expect(OwnText.of(middle, cause: root) == "refresh token for u1007")
        #expect(OwnText.of("resume session 16c5a9: " + middle, cause: middle) == "resume session 16c5a9")
    }

    @Test(arguments: [": ", " - ", "; ", " ", "\n", ":\n  "])
    func aWrapperJoinsItsCauseWithAnyOfTheUsualSeparators(_ separator: String) {
        #expect(OwnText.of("saving draft failed" + separator + "writeFailed for draft 42 (code 5)",
                           cause: "writeFailed for draft 42 (code 5)") == "saving draft failed")
    }

    @Test(arguments: [("\"", "\""), ("'", "'"), ("(", ")"), ("[", "]"), ("«", "»"), ("“", "”")])
    func aQuotedCauseIsTheCausesToo(_ open: String, _ close: String) {
        #expect(OwnText.of("import failed: \(open)Expecting value: line 1\(close)", cause: "Expecting value: line 1") == "import failed")
    }

    @Test func aWrapperThatOnlyRepeatsItsCauseHasNoWordsOfItsOwn() {
        // pkg/errors' withStack over withMessage: the same text twice.
        #expect(OwnText.of("read config: open x: no such file", cause: "read config: open x: no such file") == "")
    }

    @Test func javasRuntimeExceptionOfACauseSaysOnlyTheCausesTypeAndMessage() {
        #expect(OwnText.of("java.net.SocketTimeoutException: Read timed out", cause: "Read timed out",
                           causeType: "SocketTimeoutException") == "")
        #expect(OwnText.of("java.net.SocketTimeoutException", cause: nil, causeType: "SocketTimeoutException")
                == "java.net.SocketTimeoutException", "a root's message is its own")
        #expect(OwnText.of("java.net.SocketTimeoutException", cause: "", causeType: "SocketTimeoutException") == "")
    }

    @Test func aCauseAtTheStartIsTheCausesToo() {
        #expect(OwnText.of("no such file: while loading settings", cause: "no such file") == "while loading settings")
    }

    @Test func aMessageThatDoesNotQuoteItsCauseIsAllItsOwn() {
        #expect(OwnText.of("connectionIssue: check your connection", cause: "timeout: request took 20 s")
                == "connectionIssue: check your connection")
        #expect(OwnText.of("x", cause: nil) == "x")
    }

    @Test func aCauseThatOnlyEndsAWordIsNotQuoted() {
        #expect(OwnText.of("unfound", cause: "found") == "unfound")
    }

    @Test func aMessageThatOnlyNamesItsTypeHasNoWords() {
        #expect(OwnText.namesType("App::CheckoutError", "App::CheckoutError"))
        #expect(OwnText.namesType("CheckoutError", "App::CheckoutError"))
        #expect(!OwnText.namesType("checkout failed", "App::CheckoutError"))
    }

    /// What a wrapper may put between its own words and its cause's message.
    static let joins: [(String, String)] = [(": ", ""), (" - ", ""), ("; ", ""), (" ", ""), ("\n", ""), (": \"", "\""),
                                            (": '", "'"), (" (", ")"), (": [", "]")]
    static let join = Gen.int(in: 0...(joins.count - 1))
    /// A message as messages are: words and per-event data, starting and ending with a word.
    static let message = zip(MaskGen.word, zip(MaskGen.word, MaskGen.datum).array(of: 0...5),
                             MaskGen.pick([" ", ": ", ", ", " - ", " (", "="]), MaskGen.word)
        .map { first, middle, glue, last in
            ([first] + middle.map { $0.0 + glue + $0.1 } + [last]).joined(separator: " ")
        }
    static let own = zip(MaskGen.word, MaskGen.datum).array(of: 0...4).map { $0.map { $0.0 + " " + $0.1 }.joined(separator: " ") }

    @Test func aLinksOwnTextIsTheSameWhateverItsCauseSays() async {
        await propertyCheck(count: 1000, input: Self.own, Self.join, Self.message, Self.message) { own, n, one, other in
            let (open, close) = Self.joins[n]
            let a = OwnText.of(own + open + one + close, cause: one)
            let b = OwnText.of(own + open + other + close, cause: other)
            #expect(a == b, "\(own + open + one + close) | \(own + open + other + close)")
            #expect(a == own.trimmingASCIIWhitespace(), "\(own + open + one + close)")
        }
    }
}

/// The short name and the domain come from a type's own name, its last component.
@Suite struct TypeOwnNameTests {
    @Test(arguments: ["App::UserError", "*main.UserError", "com.acme.UserError", "app.errors.UserError", "Outer$UserError",
                      "Shop.Core+UserError", "UserError`1[[System.String]]", "UserError<T>", "LogicError(File.swift:34 >>> f())"])
    func aQualifiedTypeIsNamedByItsLastComponent(_ type: String) {
        let name = DomainShortName.lastComponent(type)
        #expect(name == (type.hasPrefix("LogicError") ? "LogicError" : "UserError"), "\(type)")
        #expect(DomainShortName.derive(type) == (type.hasPrefix("LogicError") ? "LO" : "US"), "\(type)")
    }

    @Test func genericWrappersGetTheirOwnShortNames() {
        #expect(DomainShortName.derive("*fmt.wrapError") == "WR")
        #expect(DomainShortName.derive("*errors.withStack") == "WS")
        #expect(DomainShortName.derive("*errors.withMessage") == "WM")
        #expect(DomainShortName.derive("RuntimeError") == "RU")
        #expect(DomainShortName.derive("JSON::ParserError") == "PA")
    }
}

/// A title names the outer link's own words and the root cause, never a wrapper without words.
@Suite struct ChainTitleTests {
    static func link(_ domain: String, _ name: String?) -> ChainLink { ChainLink(domain: domain, short: "XX", code: 1, name: name) }

    @Test func aWrapperWithoutWordsGivesWayToTheFirstLinkWithSome() {
        let chain = ErrorChain(links: [Self.link("*errors.withStack", nil), Self.link("*errors.withMessage", "read config"),
                                       Self.link("syscall.Errno", "no such file or directory")])
        #expect(chain.title == "read config … syscall.Errno: no such file or directory")
    }

    @Test func whenOnlyTheRootHasWordsTheTitleIsTheRootsAlone() {
        let chain = ErrorChain(links: [Self.link("RuntimeException", nil), Self.link("SocketTimeoutException", "Read timed out")])
        // The root's words are a message of its type's, not a case name: `Type: template`.
        #expect(chain.title == "SocketTimeoutException: Read timed out")
    }

    @Test func chainsWithoutAnyNameKeepTheirShortCodes() {
        #expect(ErrorChain(links: [Self.link("A", nil), Self.link("B", nil)]).title == "XX1 … XX1")
    }
}
