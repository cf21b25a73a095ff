import Foundation
import Testing

/// `--query` on `report` and `export`, through the real binary on the sample store.
@Suite struct QueryCommandTests {
    func run(_ arguments: [String]) throws -> CLI.Result {
        try CLI().run(arguments + ["--store", try SampleStore.path, "--now", SampleStore.end])
    }

    @Test func reportNarrowsToTheIssuesTheQueryLetsThrough() throws {
        let query = "domain:TolokaBackendError os:17* has:complaints"
        let result = try run(["report", "--query", query, "--format", "json", "--top", "50"])
        #expect(result.status == 0, "\(result.stderr)")
        let issues = result.json["issues"] as? [[String: Any]] ?? []
        #expect(!issues.isEmpty)
        for issue in issues {
            #expect((issue["chain"] as? String ?? "").contains("TolokaBackendError."))
            #expect((issue["complaints"] as? Int ?? 0) > 0)
        }
        let all = try run(["report", "--query", "domain:TolokaBackendError", "--format", "json", "--top", "50"]).json
        let unrestricted = Dictionary(uniqueKeysWithValues: (all["issues"] as? [[String: Any]] ?? []).map { ($0["key"] as! String, $0["events"] as! Int) })
        // os:17* counts only the events on iOS 17: never more than all of the issue's.
        for issue in issues {
            let key = issue["key"] as! String
            #expect((issue["events"] as! Int) <= (unrestricted[key] ?? 0), "\(key)")
        }
        #expect(issues.contains { ($0["events"] as! Int) < (unrestricted[$0["key"] as! String] ?? 0) })
    }

    @Test func aBadQueryIsOneSentenceNamingTheTermWithExitOne() throws {
        let result = try run(["report", "--query", "os:17* colour:red"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\"colour:red\" names no field"), "\(result.stderr)")
        #expect(result.stderr.contains("fields: status is key domain"))
        #expect(result.stdout.isEmpty)
    }

    @Test func exportWritesOnlyTheMatchingEvents() throws {
        let result = try run(["export", "--query", "device:iPhone14,5 network:wifi", "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(row.contains("\"iPhone14,5\",wifi,"), "\(row)")
        }
    }

    @Test func envAddsAnEnvironmentTermUnlessTheQueryNamesOne() throws {
        let viaEnv = try run(["report", "--env", "production", "--format", "json"])
        #expect(viaEnv.status == 0, "\(viaEnv.stderr)")
        #expect(viaEnv.stdout == (try run(["report", "--query", "env:production", "--format", "json"])).stdout)
        #expect((try run(["report", "--env", "staging", "--format", "json"]).json["issues"] as? [Any])?.isEmpty == true)
        let named = try run(["report", "--query", "env:production", "--env", "staging", "--format", "json"])
        #expect((named.json["issues"] as? [Any])?.isEmpty == false)
    }
}
