import Testing
import TriageModel

/// Titles as every peer writes them: where the outermost link has no case name of the app's, the
/// title is `Type: template`; a case name, a logger's template and a logic origin stay as they are.
@Suite struct LinkTitleTests {
    static func chain(_ links: (String?, String?)...) -> ErrorChain {
        ErrorChain(links: links.enumerated().map { ChainLink(domain: $0.element.0, short: "XY", code: $0.offset + 1, name: $0.element.1) })
    }

    @Test func anExceptionsTemplateReadsTypeColonTemplate() {
        #expect(Self.chain(("KeyError", "'<value>'")).title == "KeyError: '<value>'")
        #expect(Self.chain(("ValueError", "invalid literal for int() with base <n>: '<value>'")).title
                == "ValueError: invalid literal for int() with base <n>: '<value>'")
        #expect(Self.chain(("pyshop.imports.ImportFailed", "import of feed failed"), ("json.JSONDecodeError", "Expecting value")).title
                == "pyshop.imports.ImportFailed: import of feed failed … Expecting value")
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
