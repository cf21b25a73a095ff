import Foundation
import Testing

/// A backend's breakdowns as a new user meets them: the Go, Ruby and Python services of
/// `SDKService` report through their official SDKs, and `show` gives the servers and runtimes
/// their events name (and the tags the Python service sets) instead of panes of `unknown`;
/// the facets are queryable like the rest.
@Suite struct BackendFacetsTests {
    @Test(arguments: SDKService.allCases)
    func showGivesServersRuntimesAndTagsInsteadOfUnknownPanes(_ service: SDKService) throws {
        let (cli, _, _) = try SDKGroupingTests.throughFiles(service)
        let issues = try SDKService.issues(cli)
        let key = try #require(issues.max { ($0.value["events"] as? Int ?? 0) < ($1.value["events"] as? Int ?? 0) }?.key)
        let detail = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        let breakdowns = try #require(detail["breakdowns"] as? [String: Any])
        // No device, network, orientation or app state: a server sends none, and no pane says `unknown` alone.
        for dimension in ["device", "network", "orientation", "app_state"] { #expect(breakdowns[dimension] == nil, "\(dimension)") }
        for (dimension, rows) in breakdowns {
            let values = (rows as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            #expect(values.contains { $0 != "unknown" }, "\(dimension): \(values)")
        }
        let facets = try #require(detail["facets"] as? [[String: Any]])
        func values(_ facet: String) -> [String] {
            (facets.first { $0["facet"] as? String == facet }?["values"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        }
        let server = try #require(values("server").first, "\(service): \(facets)")
        #expect(!server.isEmpty)
        let runtime = try #require(values("runtime").first, "\(service): \(facets)")
        let runtimeName = ["python": "CPython", "go": "go", "ruby": "ruby"][service.rawValue]!
        #expect(runtime.hasPrefix(runtimeName + " "), "\(runtime)")
        // The Python service tags each attempt's shard (7, 8 or 9).
        let shards = values("tag:shard")
        if service == .python { #expect(!shards.isEmpty && Set(shards).isSubset(of: ["7", "8", "9"]), "\(facets)") }

        // The text says the same under headings a person reads.
        let text = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        #expect(text.contains("\nServer\n  \(server)") && text.contains("\nRuntime\n  \(runtime)"), "\(text)")
        #expect(!text.contains("\nDevice\n") && !text.contains("\nNetwork\n"), "\(text)")

        // Queryable: the server and runtime the issue names let it through; another server does not.
        let byServer = try SDKService.issues(cli, query: "server:\"\(server)\"")
        #expect(byServer[key] != nil)
        #expect(try SDKService.issues(cli, query: "runtime:\(runtimeName)*")[key] != nil)
        #expect(try SDKService.issues(cli, query: "server:no-such-host").isEmpty)
        if service == .python, let first = shards.first {
            let counted = (facets.first { $0["facet"] as? String == "tag:shard" }?["values"] as? [[String: Any]])?.first?["count"] as? Int
            let shard = try SDKService.issues(cli, query: "tag:shard=\(first)")
            #expect(shard[key]?["events"] as? Int == counted, "\(shard[key] ?? [:])")
        }
        #expect(try cli.run(["check"]).status == 0)
    }
}
