import Testing
import TriageModel

/// Titles as every peer writes them: where a link the title names has no case name of the app's, it
/// reads `Type: template`; a case name, a logger's template and a logic origin stay as they are.
@Suite struct LinkTitleTests {
    static func chain(_ links: (String?, String?)...) -> ErrorChain {
        ErrorChain(links: links.enumerated().map { ChainLink(domain: $0.element.0, short: "XY", code: $0.offset + 1, name: $0.element.1) })
    }

    @Test func anExceptionsTemplateReadsTypeColonTemplate() {
        #expect(Self.chain(("KeyError", "'<value>'")).title == "KeyError: '<value>'")
        #expect(Self.chain(("ValueError", "invalid literal for int() with base <n>: '<value>'")).title
                == "ValueError: invalid literal for int() with base <n>: '<value>'")
        #expect(Self.chain(("pyshop.imports.ImportFailed", "import of feed failed"), ("json.JSONDecodeError", "Expecting value")).title
                == "pyshop.imports.ImportFailed: import of feed failed … json.JSONDecodeError: Expecting value")
    }

    /// The root cause is named with its type too where its name is a message (a library's type, whose
    /// package alone names nothing): `*json.UnmarshalTypeError: json: cannot unmarshal …`, not `json: …`.
    @Test func aRootOfALibrarysTypeIsNamedWithItsType() {
        #expect(Self.chain(("*errors.errorString", "decode cart <id>"),
                           ("*json.UnmarshalTypeError", "json: cannot unmarshal string into Go struct field .qty of type int")).title
                == "decode cart <id> … *json.UnmarshalTypeError: json: cannot unmarshal string into Go struct field .qty of type int")
        // A case name of the app's stays bare at either end.
        #expect(Self.chain(("UserError", "connectionIssue"), ("*net.OpError", "timeout")).title == "connectionIssue … timeout")
    }

    @Test func caseNamesLoggersMessagesAndLogicOriginsStayAsTheyAre() {
        #expect(Self.chain(("UserError", "connectionIssue"), ("NetworkError", "timeout")).title == "connectionIssue … timeout")
        #expect(Self.chain(("APIError", "validationFailure(ValidationError.valueOutOfBounds)")).title
                == "validationFailure(ValidationError.valueOutOfBounds)")
        #expect(Self.chain(("pyshop.payments", "Payment %s failed for order %d")).title == "Payment %s failed for order %d")
        #expect(Self.chain(("Message", "Order <n> stuck")).title == "Order <n> stuck")
        #expect(Self.chain(("LogicError", "AppDelegate.swift:34 >>> application(_:)")).title == "AppDelegate.swift:34 >>> application(_:)")
    }
}
