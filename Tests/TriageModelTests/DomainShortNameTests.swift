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

    @Test func foundationsDomainsHaveTheirOwnNamesWhicheverAStoreMeetsFirst() {
        // By their words NSURLErrorDomain, NSPOSIXErrorDomain and NSOSStatusErrorDomain are all `NS`.
        let domains = ["NSURLErrorDomain", "NSPOSIXErrorDomain", "NSOSStatusErrorDomain", "NSXMLParserErrorDomain"]
        for order in [domains, domains.reversed(), [domains[1], domains[0], domains[3], domains[2]]] {
            var held: [String: String] = [:]
            for domain in order { held[DomainShortName.derive(domain) { held[$0] != nil }] = domain }
            #expect(held == ["NS": "NSURLErrorDomain", "NP": "NSPOSIXErrorDomain", "NO": "NSOSStatusErrorDomain",
                             "NX": "NSXMLParserErrorDomain"], "\(order)")
        }
        #expect(domains.map { DomainShortName.derive($0) } == ["NS", "NP", "NO", "NX"])
    }

    @Test func aCaseCodeIsTheCodeTheStoreDerivesForTheSameTypeAndName() {
        // ErrorChainKit keys a plain Swift enum's case as errtriage keys a code-less link: one rule.
        for (domain, name) in [("ParseError", "truncated"), ("SyncError", "conflict"), ("E", "")] {
            #expect(CaseCode.code(domain: domain, name: name) == MessageTemplate.derivedCode(domain: domain, name: name))
        }
        #expect(CaseCode.range == MessageTemplate.derivedRange)
    }

    @Test(arguments: [
        ("us14-lo43-ap7-ne8", "US14-LO43-AP7-NE8"), ("US14-LO43-AP7-NE8", "US14-LO43-AP7-NE8"),
        ("us15-ap12-nsn1009", "US15-AP12-NSn1009"), ("Us15-Ap12-Nsn1009", "US15-AP12-NSn1009"),
        ("in500-ta202", "IN500-TA202"), (" syn3-pa2 ", "SYn3-PA2"), ("In500", "In500"),
    ])
    func readsAKeyAsAUserQuotesIt(_ text: String, _ key: String) {
        #expect(ShortKey.quoted(text) == key)
    }

    @Test(arguments: ["", "us-14", "us14-", "über1", "14", "us14-lo"])
    func refusesAQuoteThatIsNoKey(_ text: String) {
        #expect(ShortKey.quoted(text) == nil)
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

    @Test func theCandidatesRunFirstLettersThenInitialsThenEachLaterLetter() {
        #expect(DomainShortName.candidates("EXC_BAD_ACCESS").prefix(4) == ["EB", "EA", "EX", "EC"])
        #expect(DomainShortName.candidates("SIGABRT") == ["SI", "SG", "SA", "SB", "SR", "ST"])
        #expect(DomainShortName.candidates("ValidationError").prefix(3) == ["VA", "VL", "VI"])
    }

    @Test func collidingDomainsGetTheFirstCandidateNoOtherHolds() {
        var held: [String: String] = [:]
        for domain in ["EXC_BAD_ACCESS", "EXC_BREAKPOINT", "SIGSEGV", "SIGABRT", "SIGBUS", "SIGILL", "ValueError", "ValidationError"] {
            held[DomainShortName.derive(domain) { held[$0] != nil }] = domain
        }
        #expect(held == ["EB": "EXC_BAD_ACCESS", "EX": "EXC_BREAKPOINT", "SI": "SIGSEGV", "SG": "SIGABRT",
                         "SB": "SIGBUS", "SL": "SIGILL", "VA": "ValueError", "VL": "ValidationError"])
    }

    @Test func whenEveryTwoLetterCandidateIsHeldALetterIsAdded() {
        #expect(DomainShortName.derive("SIG") { $0.count == 2 } == "SIA")
        #expect(DomainShortName.derive("SIG") { $0.count == 2 || $0 == "SIA" } == "SIB")
        #expect(DomainShortName.derive("SIG") { $0.count <= 3 } == "SIAA")
    }

    @Test func theSameTakenNamesAlwaysGiveTheSameName() async {
        await propertyCheck(count: 200, input: Gen.latin1.string(of: 0...24)) { domain in
            let taken = Set(DomainShortName.candidates(domain).prefix(2))
            let a = DomainShortName.derive(domain) { taken.contains($0) }
            #expect(a == DomainShortName.derive(domain) { taken.contains($0) })
            #expect(!taken.contains(a) && a.utf8.allSatisfy { $0 >= 65 && $0 <= 90 } && (2...8).contains(a.count))
        }
    }
}

@Suite("EventKind")
struct EventKindTests {
    @Test(arguments: [("FATAL", EventKind.crash), ("fatal", .crash), ("NON_FATAL", .nonFatal), ("non-fatal", .nonFatal),
                      ("ANR", .anr), ("crash", .crash)])
    func readsTheSourcesSpellings(text: String, kind: EventKind) {
        #expect(EventKind(source: text) == kind)
    }

    @Test func theWorstOfTwoKindsIsTheMoreSevere() {
        #expect(EventKind.worst(.nonFatal, .crash) == .crash)
        #expect(EventKind.worst(.anr, .nonFatal) == .anr)
        #expect(EventKind.worst(nil, .nonFatal) == .nonFatal)
        #expect(EventKind(source: "warning") == nil)
    }

    @Test func theAgendaPutsNewCrashesBeforeNewNonFatals() {
        func issue(_ key: String, _ events: Int, _ kind: EventKind?) -> IssueSummary {
            IssueSummary(key: key, chain: ErrorChain(links: []), status: .open, events: events, users: 0, complaints: 0,
                         firstSeen: Timestamp(millis: 0), lastSeen: Timestamp(millis: 0), firstVersion: nil, lastVersion: nil,
                         series: [], signals: [.new], kind: kind)
        }
        let agenda = Agenda.build(from: [issue("NF1", 90, .nonFatal), issue("CR1", 5, .crash), issue("AN1", 9, .anr),
                                         issue("CR2", 50, .crash)], top: 5)
        #expect(agenda.items(in: .new).map(\.issue.key) == ["CR2", "CR1", "AN1", "NF1"])
    }
}
