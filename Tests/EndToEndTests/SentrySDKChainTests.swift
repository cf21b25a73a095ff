import Foundation
import Testing

/// Chained errors as the Java/Android, JavaScript, .NET and Go SDKs write them
/// (Tests/Fixtures/sentry-sdk-chains.ndjson; each shape and its source in sentry-sdk-chains.md):
/// `Caused by`, `Error.cause` and `AggregateError`, `InnerException` and `AggregateException`,
/// Go's wrapped errors and `errors.Join`.
@Suite struct SentrySDKChainTests {
    static let fixture = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/sentry-sdk-chains.ndjson").path
    /// Per line, the chain's domains outermost first: a group's first branch down to its root cause.
    static let chains: [[String]] = [
        ["UserError", "LogicError", "ApiError", "SocketTimeoutException"],
        ["UserError", "LogicError", "ApiError", "SocketTimeoutException"],
        ["UserError", "LogicError", "ApiError", "TypeError"],
        ["AggregateError", "ApiError", "TypeError"],
        ["Shop.Core.UserError", "Shop.Core.LogicError", "Shop.Api.ApiError", "System.Net.Http.HttpRequestException"],
        ["System.AggregateException", "Shop.Api.ApiError", "System.Net.Http.HttpRequestException"],
        ["*shop.APIError", "*url.Error", "*net.OpError", "*net.timeoutError"],
        ["*errors.joinError", "*shop.APIError", "*url.Error", "context.deadlineExceededError"],
    ]
    /// The other branches a group keeps beside its chain, by line.
    static let others: [Int: String] = [4: "TimeoutError.", 6: "System.TimeoutException.", 8: "*shop.ValidationError."]

    /// Every stored event, in the file's order, with its key, its chain's domains and its custom keys.
    func events(_ cli: CLI) throws -> [(key: String, domains: [String], custom: String)] {
        let ids = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["event_id"] as! String
        }
        var byID: [String: (String, [String], String)] = [:]
        for line in try cli.run(["export", "--window", "all"]).stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let domains = (event["chain"] as? [[String: Any]] ?? []).map { $0["domain"] as? String ?? "?" }
            let custom = String(decoding: try JSONSerialization.data(withJSONObject: event["keys"] ?? [:]), as: UTF8.self)
            byID[event["event_id"] as! String] = (event["codes"] as! String, domains, custom)
        }
        return try ids.map { id in try #require(byID[id].map { (key: $0.0, domains: $0.1, custom: $0.2) }, "\(id) not stored") }
    }

    @Test func eachSDKsChainRunsFromTheOutermostErrorToItsRootCause() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", Self.fixture])
        #expect(result.status == 0, "\(result.stderr)")
        let stored = try events(cli)
        for (n, event) in stored.enumerated() {
            #expect(event.domains == Self.chains[n], "line \(n + 1): \(event.key)")
        }
    }

    @Test func aGroupKeepsItsOtherBranchesOnTheEvent() throws {
        let cli = try CLI()
        try cli.run(["ingest", Self.fixture])
        for (n, event) in try events(cli).enumerated() {
            if let other = Self.others[n + 1] {
                #expect(event.custom.contains("exception_group.other_branches") && event.custom.contains(other), "line \(n + 1): \(event.custom)")
            } else {
                #expect(!event.custom.contains("exception_group.other_branches"), "line \(n + 1)")
            }
        }
    }

    @Test func javasHandledAndUncaughtEventsOfOneChainAreOneIssueDespiteTheirIDsAndTimings() throws {
        let cli = try CLI()
        try cli.run(["ingest", Self.fixture])
        let stored = try events(cli)
        #expect(stored[0].key == stored[1].key)
        #expect(Set(stored.map(\.key)).count == 7)
        let issue = try cli.run(["report", "--window", "all", "--format", "json"]).json["issues"] as? [[String: Any]] ?? []
        #expect(issue.first { $0["key"] as? String == stored[0].key }?["kind"] as? String == "crash")
    }

    @Test func aNumericCodeInDotNetsExceptionDataIsTheLinksCode() throws {
        let cli = try CLI()
        try cli.run(["ingest", Self.fixture])
        let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n")
        let stated = lines.enumerated().compactMap { n, line in line.contains("\"code\":503") ? n : nil }
        try #require(!stated.isEmpty)
        let stored = try events(cli)
        for n in stated {
            #expect(stored[n].key.split(separator: "-").contains { $0.hasSuffix("503") }, "line \(n + 1): \(stored[n].key)")
        }
    }
}
