import Foundation
import Testing

/// `errtriage alert` and `errtriage alerts`, through the real binary: each alert fires once per issue.
@Suite struct AlertCommandTests {
    let key = "US14-LO43-AP7-NE8"

    @Test func anAlertFiresOnceAndAgainOnlyAfterTheIssueIsResolvedAndComesBack() throws {
        let cli = try CLITests().ingested()
        let added = try cli.run(["alert", "add", "timeouts", "--query", "root:NE8", "--events", "2", "--within", "7d"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try cli.run(["alert", "list"]).stdout == "timeouts  root:NE8  ≥ 2 events within 7d\n")

        let dry = try cli.run(["alert", "run", "--dry-run", "--now", CLITests.now])
        #expect(dry.status == 0)
        #expect(dry.stdout.hasPrefix("ALERT timeouts: \(key) connectionIssue … timeout — 2 events within 7d (threshold 2)\n"))
        let first = try cli.run(["alert", "run", "--now", CLITests.now])
        #expect(first.stdout == dry.stdout, "a dry run records nothing")
        #expect(first.stdout.contains("NEW IN500-TA202-TB30-HT400-NE29 "))
        let second = try cli.run(["alert", "run", "--now", "2026-10-06T01:00:00Z"])
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty, "fired once: \(second.stdout)")

        #expect(try cli.run(["mark", key, "resolved", "--in-version", "1.12", "--at", "2026-10-06T02:00:00Z"]).status == 0)
        let late = #"{"event_id":"e9","timestamp":"2026-10-06T03:00:00Z","codes":"US14-LO43-AP7-NE8","app":{"version":"1.13"}}"# + "\n"
        #expect(try cli.run(["ingest", try cli.file("late.ndjson", late)]).status == 0)
        let json = try cli.run(["alert", "run", "--format", "json", "--now", "2026-10-06T04:00:00Z"]).json
        let alerts = json["alerts"] as? [[String: Any]] ?? []
        #expect(alerts.map { ($0["issue"] as? [String: Any])?["key"] as? String } == [key])
        #expect(alerts.first?["count"] as? Int == 3)
        #expect((json["regressions"] as? [[String: Any]])?.map { $0["key"] as? String } == [key])
        #expect(try cli.run(["alert", "run", "--now", "2026-10-06T05:00:00Z"]).stdout.isEmpty)
    }

    @Test func anAlertNeedsOneThresholdAndAKnownName() throws {
        let cli = try CLI()
        #expect(try cli.run(["alert", "add", "x", "--query", "kind:crash"]).status == 1)
        #expect(try cli.run(["alert", "add", "x", "--query", "kind:crash", "--events", "1", "--users", "1"]).status == 1)
        #expect(try cli.run(["alert", "add", "x", "--query", "kind:crash", "--events", "1", "--within", "2h"]).status == 1)
        let gone = try cli.run(["alert", "rm", "nope"])
        #expect(gone.status == 1 && gone.stderr == "errtriage: no alert is named nope (there are none yet)\n")
    }
}
