import Foundation
import LoopbackHTTP
import Testing

/// `errtriage key` and `ingest --project`, through the real binary: the way a team sets up the
/// projects apps send to, and finds their errors again with `project:`.
@Suite struct KeyCommandTests {
    static let now = "2026-11-20T18:00:00Z"

    /// The key and DSN `key add` printed.
    static func added(_ result: CLI.Result) -> (key: String, dsn: String) {
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let key = lines.first?.components(separatedBy: "new key ").last?.prefix(32).description ?? ""
        let dsn = lines.dropFirst().first?.replacingOccurrences(of: "DSN: ", with: "") ?? ""
        return (key, dsn)
    }

    @Test func aKeyIsAddedListedAndRevoked() throws {
        let cli = try CLI()
        let first = try cli.run(["key", "add", "ios", "--at", Self.now])
        #expect(first.status == 0, "\(first.stderr)")
        let ios = Self.added(first)
        #expect(ios.key.count == 32 && ios.key.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(first.stdout)")
        #expect(first.stdout.hasPrefix("project ios (id 1): new key \(ios.key), added to "))
        #expect(first.stdout.hasSuffix("\nDSN: http://\(ios.key)@127.0.0.1:8000/1\n"))
        if !cli.store.hasPrefix("postgres") { #expect(first.stdout.contains("added to \(cli.store)\n"), "\(first.stdout)") }

        let second = try cli.run(["key", "add", "android", "--url", "https://errors.example.com/intake/", "--at", Self.now])
        #expect(second.status == 0, "\(second.stderr)")
        let android = Self.added(second)
        #expect(android.dsn == "https://\(android.key)@errors.example.com/intake/2")

        #expect(try cli.run(["key", "revoke", ios.key, "--at", "2026-11-21T09:00:00Z"]).stdout
                == "revoked \(ios.key) of project ios (id 1)\n")
        let list = try cli.run(["key", "list", "--format", "json"])
        #expect(list.status == 0, "\(list.stderr)")
        let projects = list.json["projects"] as? [[String: Any]] ?? []
        #expect(projects.map { $0["name"] as? String } == ["ios", "android"])
        #expect(projects.map { $0["id"] as? Int } == [1, 2])
        let iosKey = (projects.first?["keys"] as? [[String: Any]])?.first ?? [:]
        #expect(iosKey["key"] as? String == ios.key)
        #expect(iosKey["status"] as? String == "revoked" && iosKey["revoked"] as? String == "2026-11-21T09:00:00Z")
        #expect(iosKey["created"] as? String == "2026-11-20T18:00:00Z")
        #expect(iosKey["dsn"] as? String == ios.dsn)
        let androidKey = (projects.last?["keys"] as? [[String: Any]])?.first ?? [:]
        #expect(androidKey["status"] as? String == "active" && androidKey["revoked"] is NSNull)
        // Each key lists with the URL it was added with; --url puts them all on another.
        #expect(androidKey["dsn"] as? String == android.dsn)
        let moved = try cli.run(["key", "list", "--url", "http://10.0.0.5:9000", "--format", "json"])
        let movedKeys = (moved.json["projects"] as? [[String: Any]] ?? []).flatMap { $0["keys"] as? [[String: Any]] ?? [] }
        #expect(movedKeys.compactMap { $0["dsn"] as? String } == ["http://\(ios.key)@10.0.0.5:9000/1", "http://\(android.key)@10.0.0.5:9000/2"])

        let text = try cli.run(["key", "list"])
        #expect(text.stdout.contains("ios (id 1, since 2026-11-20T18:00:00Z)\n  \(ios.key)  revoked 2026-11-21T09:00:00Z"), "\(text.stdout)")
        #expect(text.stdout.contains("  \(android.key)  active "), "\(text.stdout)")

        // Revoking the project revokes its keys that are still active: none left here.
        let again = try cli.run(["key", "revoke", "ios"])
        #expect(again.status == 0 && again.stdout == "nothing revoked: ios has no active key (revoked already)\n")
    }

    /// No option that does nothing: commands to which a time means nothing take no --now.
    @Test func keyCommandsTakeNoNowAndABadAtIsAUsageError() throws {
        let cli = try CLI()
        for command in [["key", "add", "ios"], ["key", "list"], ["key", "revoke", "ios"], ["check"], ["serve"],
                        ["alert", "rm", "a"], ["owner", "apply"], ["view", "rm", "v"], ["retention", "off"]] {
            let result = try cli.run(command + ["--now", Self.now])
            #expect(result.status != 0 && result.stderr.contains("--now"), "\(command): \(result.stderr)")
        }
        let badAt = try cli.run(["key", "add", "ios", "--at", "yesterday"])
        #expect(badAt.status == 1 && badAt.stderr.contains("--at 'yesterday' is not a time"), "\(badAt.stderr)")
    }

    /// README's walk as a newcomer got it wrong: serve on one store, the key added to another
    /// (no --store, no ERRTRIAGE_STORE). key add says where it wrote, and serve's 401 says the
    /// key is not in the store it uses, naming that store.
    @Test func aKeyAddedToAnotherStoreIsNamedByBothSides() async throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli, store: "team.sqlite")
        defer { _ = server.stop() }
        let added = try cli.run(["key", "add", "ios", "--url", server.base])
        #expect(added.stdout.contains(", added to "), "\(added.stdout)")
        if !cli.store.hasPrefix("postgres") { #expect(added.stdout.contains("added to \(cli.store)\n"), "\(added.stdout)") }
        let key = Self.added(added).key
        let request = LoopbackRequest(.POST, "/api/1/envelope/", headers: [("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=\(key)")],
                                      body: ServeTests.envelope(String(repeating: "a", count: 32)))
        let response = try await LoopbackConnection.send(request, port: server.port)
        let body = response.text
        #expect(response.status == 401)
        #expect(body.contains("not a key of the store this server uses (team.sqlite)"), "\(body)")
        #expect(body.contains(#""reason":"unknown-key""#), "\(body)")
    }

    @Test func unknownNamesKeysAndBadInputAreUsageErrors() throws {
        let cli = try CLI()
        #expect(try cli.run(["key", "add", "ios"]).status == 0)
        let unknown = try cli.run(["key", "revoke", "iso"])
        #expect(unknown.status == 1 && unknown.stderr == "errtriage: no project is named iso (there are ios)\n")
        let key = String(repeating: "0f", count: 16)
        let noKey = try cli.run(["key", "revoke", key])
        #expect(noKey.status == 1 && noKey.stderr == "errtriage: no project has the key \(key) (errtriage key list shows the keys)\n")
        let badName = try cli.run(["key", "add", "my app"])
        #expect(badName.status == 1 && badName.stderr == "errtriage: a project name is letters, digits, '.', '_' and '-' only\n")
        let badURL = try cli.run(["key", "add", "ios", "--url", "ftp://example.com"])
        #expect(badURL.status == 1 && badURL.stderr.contains("must start with http:// or https://"), "\(badURL.stderr)")
        let badProject = try cli.run(["ingest", "--project", "a/b", "-"], stdin: "")
        #expect(badProject.status == 1 && badProject.stderr == "errtriage: --project: a project name is letters, digits, '.', '_' and '-' only\n")
    }

    @Test func anIngestsProjectIsFoundByAProjectTermAndListedInReportJSON() throws {
        let cli = try CLI()
        let ios = try cli.file("ios.ndjson", [
            #"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43"}"#,
            #"{"event_id":"b","timestamp":"2026-11-20T11:00:00Z","codes":"US14-LO43","project":"web"}"#,
        ].joined(separator: "\n") + "\n")
        let other = try cli.file("other.ndjson", #"{"event_id":"c","timestamp":"2026-11-20T12:00:00Z","codes":"US3-AP7"}"# + "\n")
        #expect(try cli.run(["ingest", "--project", "ios", ios]).status == 0)
        #expect(try cli.run(["ingest", other]).status == 0)

        let report = try cli.run(["report", "--query", "project:ios", "--window", "7d", "--now", Self.now, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        let issues = report.json["issues"] as? [[String: Any]] ?? []
        #expect(issues.map { $0["key"] as? String } == ["US14-LO43"])
        #expect(issues.first?["events"] as? Int == 1)
        #expect(issues.first?["projects"] as? [String] == ["ios", "web"])

        let all = try cli.run(["report", "--window", "7d", "--now", Self.now, "--format", "json"])
        let byKey = Dictionary(uniqueKeysWithValues: (all.json["issues"] as? [[String: Any]] ?? []).map { ($0["key"] as? String ?? "", $0) })
        #expect(byKey["US3-AP7"]?["projects"] as? [String] == [])

        let show = try cli.run(["show", "US14-LO43", "--window", "7d", "--now", Self.now, "--format", "json"])
        let breakdowns = show.json["breakdowns"] as? [String: Any] ?? [:]
        #expect((breakdowns["project"] as? [[String: Any]])?.map { $0["value"] as? String } == ["ios", "web"])
        #expect(try cli.run(["check"]).status == 0)
    }
}
