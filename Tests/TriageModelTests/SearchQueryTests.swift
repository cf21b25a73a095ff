import PropertyBased
import Testing
@testable import TriageModel

@Suite struct SearchQueryTests {
    static let alphabet: [Character] = Array("aZ09,. -|*:\"\\<>=_é")
    static let text = Gen<Int>.value(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...6).map { String($0) }
    static let value = zip(text, Gen<Int>.value(in: 0...4), Gen.bool)
    /// A term of any field (the last index a bare word), made valid for its field.
    static let term = zip(Gen<Int>.value(in: 0...SearchField.allCases.count), Gen.bool, value.array(of: 1...3), Gen<Int>.value(in: 0...1000))
        .map { fieldIndex, negated, raw, number in
            let field = fieldIndex < SearchField.allCases.count ? SearchField.allCases[fieldIndex] : nil
            let values: [SearchValue] = raw.map { text, op, prefix in
                let comparison = SearchComparison.allCases[op]
                switch field {
                case nil: return SearchValue(text.isEmpty ? "w" : text)
                case .events?, .users?, .complaints?: return SearchValue(String(number), comparison: comparison)
                case .version?, .firstSeen?:
                    return comparison == .equal ? SearchValue(text, isPrefix: prefix) : SearchValue("1.\(number)", comparison: comparison)
                case .tag?: return SearchValue("k\(number % 7)=" + text, isPrefix: prefix)
                case let f?:
                    if let allowed = f.allowedValues { return SearchValue(allowed[number % allowed.count]) }
                    return SearchValue(text, isPrefix: prefix)
                }
            }
            let kept = field == nil ? Array(values.prefix(1)) : values.filter { !$0.text.isEmpty || $0.isPrefix }
            return SearchTerm(field: field, values: kept.isEmpty ? [SearchValue(field == .tag ? "k=x" : "x")] : kept, negated: negated)
        }

    @Test func printingAQueryAndParsingItGivesTheSameQuery() async {
        await propertyCheck(count: 500, input: Self.term.array(of: 0...5)) { terms in
            let query = SearchQuery(terms: terms)
            #expect((try? SearchQuery.parse(query.description)) == query, "printed as \(query.description)")
        }
    }

    @Test func anyTypedTextThatParsesPrintsBackToTheSameQuery() async {
        let typed = Gen<Int>.value(in: 0...(Self.alphabet.count + 3)).map { i -> String in
            i < Self.alphabet.count ? String(Self.alphabet[i]) : ["os:", "-", "events:>", "key:"][i - Self.alphabet.count]
        }.array(of: 0...12).map { $0.joined() }
        await propertyCheck(count: 1000, input: typed) { text in
            if let query = try? SearchQuery.parse(text) {
                #expect((try? SearchQuery.parse(query.description)) == query, "\(text) printed as \(query.description)")
            }
        }
    }

    @Test func aDeviceIdKeepsItsComma() throws {
        let query = try SearchQuery.parse("device:iPhone14,5|iPhone15,2 os:17*")
        #expect(query.terms[0].values.map(\.text) == ["iPhone14,5", "iPhone15,2"])
        #expect(query.terms[1].values == [SearchValue("17", isPrefix: true)])
    }

    @Test func aProjectTermIsADimensionTermOfNames() throws {
        let query = try SearchQuery.parse("project:ios|android -project:web* NE8")
        #expect(query.terms[0] == SearchTerm(field: .project, values: [SearchValue("ios"), SearchValue("android")]))
        #expect(query.terms[1] == SearchTerm(field: .project, values: [SearchValue("web", isPrefix: true)], negated: true))
        #expect(query.dimensionTerms.count == 2)
        #expect(query.terms[0].admitsDimension("IOS") && !query.terms[0].admitsDimension("ios-beta"))
        #expect(query.terms[1].admitsDimension("web-staging"))
        #expect(query.description == "project:ios|android -project:web* NE8")
    }

    @Test func aMinusNegatesAndQuotesKeepSpaces() throws {
        let query = try SearchQuery.parse(#"-status:muted "slow network" key:US14-*"#)
        #expect(query.terms[0] == SearchTerm(field: .status, values: [SearchValue("muted")], negated: true))
        #expect(query.terms[1] == SearchTerm(field: nil, values: [SearchValue("slow network")]))
        #expect(query.terms[2].values == [SearchValue("US14-", isPrefix: true)])
    }

    @Test func countsAndVersionsCompare() throws {
        let query = try SearchQuery.parse("events:>=10 version:<1.13")
        #expect(query.terms[0].values == [SearchValue("10", comparison: .greaterOrEqual)])
        #expect(query.terms[1].values == [SearchValue("1.13", comparison: .less)])
        #expect(query.terms[1].admitsDimension("1.9") && !query.terms[1].admitsDimension("1.13"))
    }

    @Test(arguments: [
        ("colour:red", #""colour:red" names no field"#),
        ("is:big", #""is:big" takes new, spike"#),
        ("events:>many", #""events:>many" compares a count"#),
        ("os:", #""os:" has an empty value"#),
        (#"key:"US14"#, "opens a quote"),
        ("version:>=abc", "compares with a version"),
    ])
    func aBadTermIsNamedInOneSentenceWithTheFields(input: String, expected: String) {
        #expect {
            try SearchQuery.parse(input)
        } throws: { error in
            let text = String(describing: error)
            return text.contains(expected) && text.contains("fields: status is key domain") && !text.contains("\n")
        }
    }

    static let chain = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 14, name: "connectionIssue"),
        ChainLink(domain: "TolokaBackendError", short: "TB", code: 30, name: "internalError"),
        ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout"),
    ])

    func admits(_ text: String, _ facts: IssueFacts = IssueFacts(key: "US14-TB30-NE8", chain: chain, status: .open)) throws -> Bool {
        try SearchQuery.parse(text).admits(facts)
    }

    @Test func chainFieldsMatchCodesNamesAndDomains() throws {
        #expect(try admits("domain:TolokaBackendError"))
        #expect(try admits("domain:TB"))
        #expect(try !admits("domain:APIError"))
        #expect(try admits("root:NE8") && admits("root:NetworkError.timeout") && !admits("root:US14"))
        #expect(try admits("outer:US14") && !admits("outer:NE8"))
        #expect(try admits("key:US14-*") && !admits("key:US1"))
        #expect(try admits("timeout -domain:APIError"))
    }

    @Test func issueFieldsReadTheFacts() throws {
        let facts = IssueFacts(key: "US14-TB30-NE8", chain: Self.chain, status: .regressed, signals: [.new], assignee: "ana",
                               firstVersion: "1.12", events: 12, users: 3, complaints: 0, notes: ["retry added"])
        #expect(try admits("is:new is:regressed is:assigned assignee:ana", facts))
        #expect(try !admits("is:unassigned", facts) && !admits("has:complaints", facts) && admits("has:note", facts))
        #expect(try admits("events:>10 users:<=3 complaints:0", facts) && !admits("events:>12", facts))
        #expect(try admits("first-seen:>=1.10 first-seen:<1.13", facts) && !admits("first-seen:1.13", facts))
        #expect(try admits("retry status:regressed|open", facts))
    }

    @Test func osMatchesTheLabelOrItsVersion() throws {
        let term = try SearchQuery.parse("os:17*").terms[0]
        #expect(term.admitsDimension("iOS 17.2") && !term.admitsDimension("iOS 16.7"))
        #expect(try SearchQuery.parse("os:iOS*").terms[0].admitsDimension("iOS 16.7"))
    }
}
