import PropertyBased
import Testing
@testable import TriageModel

@Suite("DomainShortName.derive")
struct DomainShortNameTests {
    @Test(arguments: [
        ("UserError", "US"), ("LogicError", "LO"), ("APIError", "AP"), ("NetworkError", "NE"),
        ("HTTPError", "HT"), ("JSONError", "JS"), ("TolokaAPIError", "TA"), ("TolokaBackendError", "TB"),
        ("CoreDataError", "CD"), ("InteractorError", "IN"),
    ])
    func derivesTheShortNameAppsUse(domain: String, short: String) {
        #expect(DomainShortName.derive(domain) == short)
    }

    @Test func readsNSURLErrorDomainAsNS() {
        // The short key docs write NSURLErrorDomain -1009 as `NSn1009`.
        #expect(DomainShortName.derive("NSURLErrorDomain") == "NS")
    }

    @Test func readsAReverseDNSDomainByItsLastComponent() {
        #expect(DomainShortName.derive("com.example.ios.feed.decoding") == "DE")
    }

    @Test func ignoresTheOriginInParentheses() {
        #expect(DomainShortName.derive("LogicError(AppDelegate.swift:34 >>> application(_:))") == "LO")
    }

    @Test(arguments: ["Error", "x", "", "Domain", "ErrorDomain", "42", "Ürror", "_"])
    func givesTwoUppercaseLettersForADomainWithLittleToGoOn(_ domain: String) {
        #expect(isTwoUppercaseASCIILetters(DomainShortName.derive(domain)))
    }

    @Test func alwaysGivesTwoUppercaseASCIILetters() async {
        await propertyCheck(count: 300, input: Gen.latin1.string(of: 0...24)) { domain in
            #expect(isTwoUppercaseASCIILetters(DomainShortName.derive(domain)))
        }
    }

    private func isTwoUppercaseASCIILetters(_ s: String) -> Bool {
        s.utf8.count == 2 && s.utf8.allSatisfy { $0 >= 65 && $0 <= 90 }
    }
}
