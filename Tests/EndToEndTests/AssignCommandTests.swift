import Foundation
import Testing

/// `errtriage assign`, through the real binary: the JSON, `show`, the query fields and the history.
@Suite struct AssignCommandTests {
    @Test func assigningShowsEverywhereAndClearing() throws {
        let cli = try CLITests().ingested()
        let key = "US14-LO43-AP7-NE8"
        let assigned = try cli.run(["assign", key, "ana", "--by", "lead", "--now", CLITests.now])
        #expect(assigned.status == 0, "\(assigned.stderr)")
        #expect(assigned.stdout == "\(key): assigned to ana\n")

        let report = try cli.run(["report", "--now", CLITests.now, "--format", "json"]).json
        let issues = report["issues"] as? [[String: Any]] ?? []
        #expect(issues.first { $0["key"] as? String == key }?["assignee"] as? String == "ana")
        #expect(issues.first { $0["key"] as? String != key }?["assignee"] is NSNull)
        let mine = try cli.run(["report", "--now", CLITests.now, "--query", "assignee:ana", "--format", "json"]).json
        #expect((mine["issues"] as? [[String: Any]])?.map { $0["key"] as? String } == [key])

        let show = try cli.run(["show", key, "--now", CLITests.now])
        #expect(show.stdout.contains("Assignee: ana\n"))
        #expect(show.stdout.contains("assigned to ana"), "the history row: \(show.stdout)")

        let cleared = try cli.run(["assign", key, "--none", "--now", CLITests.now])
        #expect(cleared.stdout == "\(key): unassigned (was ana)\n")
        let unassigned = try cli.run(["report", "--now", CLITests.now, "--query", "is:unassigned", "--format", "json"]).json
        #expect((unassigned["issues"] as? [[String: Any]])?.count == 3)
    }

    @Test func aNameAndNoneTogetherOrNeitherIsAUsageError() throws {
        let cli = try CLITests().ingested()
        #expect(try cli.run(["assign", "US14-LO43-AP7-NE8"]).status == 1)
        #expect(try cli.run(["assign", "US14-LO43-AP7-NE8", "ana", "--none"]).status == 1)
        let unknown = try cli.run(["assign", "US1-NE8", "ana"])
        #expect(unknown.status == 1 && unknown.stderr == "errtriage: no issue has the key US1-NE8\n")
    }
}
