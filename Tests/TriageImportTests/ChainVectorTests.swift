import Foundation
import TestSupport
import Testing
import TriageModel
import TriageStore

/// errtriage's side of Tests/Fixtures/chain-vectors.json: each chain, written as the sources write
/// it (native with a full form or with links, a Sentry event, a Crashlytics row, an ELK logic
/// error), is read into a store under the key and full form ErrorChainKit gives it
/// (ErrorChainKitTests' ChainVectorTests). Short names the data does not give are derived by the store.
@Suite struct ChainVectorTests {
    static let time = "2026-11-20T10:00:00Z"
    static let now = Timestamp.parse("2026-11-21T00:00:00Z")!

    /// The one issue a store holds after ingesting `line`.
    static func issue(_ line: String) throws -> IssueSummary {
        let store = try TemporaryStore()
        try store.ingest(lines: [line])
        let issues = try store.store.issueList(IssueQuery(window: .all), now: now).issues
        try #require(issues.count == 1, "\(issues.map(\.key))")
        return issues[0]
    }

    static func json(_ value: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test(arguments: ChainVectors.all)
    func nativeWithKeyAndFullForm(_ vector: ChainVectors.Vector) throws {
        let issue = try Self.issue(Self.json(["event_id": "n1", "timestamp": Self.time, "codes": vector.key, "chain": vector.full]))
        #expect(issue.key == vector.key)
        #expect(issue.chain.fullForm == vector.full)
    }

    @Test(arguments: ChainVectors.all)
    func nativeWithLinksWhoseShortNamesTheStoreDerives(_ vector: ChainVectors.Vector) throws {
        let full = try FullForm.parse(vector.full)
        let links: [[String: Any]] = zip(vector.links, full).map { link, name in
            var object: [String: Any] = ["domain": name.domain, "code": link.code, "name": name.name]
            if let short = link.short { object["short"] = short }
            return object
        }
        let issue = try Self.issue(Self.json(["event_id": "n2", "timestamp": Self.time, "chain": links]))
        #expect(issue.key == vector.key)
        #expect(issue.chain.fullForm == vector.full)
    }

    @Test(arguments: ChainVectors.all.filter { $0.sentry != false })
    func sentryEventWhoseCodesTheMechanismStates(_ vector: ChainVectors.Vector) throws {
        // Sentry lists the root cause first; each value's type is its domain, its code the NSError's.
        let values: [[String: Any]] = vector.links.reversed().map { link in
            ["type": link.domain, "value": link.name ?? "",
             "mechanism": ["type": "NSError", "handled": true, "meta": ["ns_error": ["domain": link.domain, "code": link.code]]]]
        }
        let event: [String: Any] = ["event_id": "0123456789abcdef0123456789abcdef", "timestamp": Self.time, "platform": "cocoa",
                                    "level": "error", "exception": ["values": values]]
        #expect(try Self.issue(Self.json(event)).key == vector.key)
    }

    @Test(arguments: ChainVectors.all)
    func crashlyticsRowWithTheKeyAsDomainAndTheStack(_ vector: ChainVectors.Vector) throws {
        let row: [String: Any] = [
            "event_id": "c1", "event_timestamp": "2026-11-20 10:00:00.000000 UTC", "issue_title": vector.key,
            "error_type": "NON_FATAL", "errors": [["title": vector.key, "code": vector.links[0].code]],
            "custom_keys": [["key": "error_codes_stack", "value": vector.stack]],
        ]
        let issue = try Self.issue(Self.json(row))
        #expect(issue.key == vector.key)
        #expect(issue.chain.fullForm == vector.full)
    }

    @Test(arguments: ChainVectors.all.filter { $0.logic != nil })
    func elkLogicErrorGroupedByItsOrigin(_ vector: ChainVectors.Vector) throws {
        let name = try #require(vector.links[0].name)
        let report: [String: Any] = ["reported_at": "2026-11-20T10:00:00.000Z", "domain": "LogicError(\(name))", "code": 0,
                                     "message": "a broken assumption", "mobile": ["version": "1.0", "platform": "ios"]]
        let issue = try Self.issue(Self.json(report))
        #expect(issue.key == vector.key)
        #expect(issue.chain.fullForm == vector.full)
    }

    @Test(arguments: ChainVectors.all.filter { $0.cited != nil })
    func aComplaintCitingTheKeyAsAUserTypedItCountsForTheIssue(_ vector: ChainVectors.Vector) throws {
        let cited = try #require(vector.cited)
        let store = try TemporaryStore()
        try store.ingest(lines: [
            Self.json(["event_id": "n1", "timestamp": Self.time, "codes": vector.key, "chain": vector.full]),
            Self.json(["complaint_id": "c1", "timestamp": Self.time, "text": "it says \(cited)", "codes": [cited]]),
        ])
        let issues = try store.store.issueList(IssueQuery(window: .all), now: Self.now).issues
        try #require(issues.count == 1)
        #expect(issues[0].key == vector.key)
        #expect(issues[0].complaints == 1)
    }
}
