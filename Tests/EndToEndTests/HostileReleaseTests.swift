import DashboardCore
import Foundation
import Testing
import TriageModel
import TriageStore

/// Versions and chains from the field holding escape sequences and format characters: `releases`,
/// `release`, `merge --suggest` and the release screen show them inert.
@Suite struct HostileReleaseTests {
    static let version = "2.0" + HostileTextTests.hostile

    func store() throws -> CLI {
        let cli = try CLI()
        var lines: [String] = []
        let chain = "UserError.bad\(HostileTextTests.hostile.filter { $0 != "-" && $0 != "(" && $0 != ")" }) - LogicError.loginFailed"
        for (i, version) in ["1.1", "1.1", Self.version, Self.version, Self.version].enumerated() {
            lines.append(HostileTextTests.json([
                "event_id": "r\(i)", "timestamp": "2026-11-20T1\(i):00:00Z", "codes": i < 2 ? "US14-LO43" : "US14-AP7-LO43",
                "chain": i < 2 ? chain : "UserError.bad - APIError.x\(HostileTextTests.hostile.filter { $0 != "-" }) - LogicError.loginFailed",
                "app": ["version": version], "user_id": "u\(i)",
            ] as [String: Any]))
        }
        let events = try cli.file("hostile.ndjson", lines.joined(separator: "\n") + "\n")
        let ingest = try cli.run(["ingest", events])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return cli
    }

    @Test func releaseOutputsShowHostileVersionsAndNamesInert() throws {
        let cli = try store()
        let check = HostileTextTests()
        for command in [["release", "list"], ["release", "list", "--format", "markdown"], ["release", "latest"],
                        ["release", "latest", "--format", "markdown"], ["merge", "--suggest"]] {
            let result = try cli.run(command + ["--now", HostileTextTests.now])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            check.expectInert(result.stdout, "\(command)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(try cli.run(["release", "list", "--format", "json"]).stdout.utf8))
        #expect(HostileTextTests.json(json).contains(HostileTextTests.json([Self.version]).dropFirst(2).dropLast(2)))
    }

    @Test func theReleaseScreenDrawsThemInert() throws {
        let cli = try store()
        let store = try TriageStore(path: cli.store, readOnly: true)
        let now = Timestamp.parse(HostileTextTests.now)!
        let size = Size(rows: 24, cols: 100)
        var state = DashboardState(storeName: "hostile", query: IssueQuery(window: .all))
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(try store.issueList(state.query, now: now)))
        _ = reduce(&state, .key(.char("V")))
        let latest = try #require(try store.versions().last)
        _ = reduce(&state, .releaseLoaded(try store.compareRelease(latest, window: .all, now: now), window: .all))
        HostileTextTests().expectInert(render(state, size: size).lines.joined(separator: "\n"), "the release screen")
    }
}
