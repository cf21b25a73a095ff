import Foundation
import TestSupport
import Testing

/// `errtriage history KEY`: an identifier's life month by month, held to a naive count over its events.
@Suite struct HistoryCommandTests {
    @Test func eachMonthsEventsAndUsersAreTheIssuesEventsOfThatMonth() throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 3_000, issues: 12, days: 120)
        try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        let report = try cli.run(["report", "--window", "all", "--now", "2026-11-21T00:00:00Z", "--format", "json"]).json
        let key = try #require((report["issues"] as? [[String: Any]])?.first?["key"] as? String)
        #expect(try cli.run(["mark", key, "resolved", "--in-version", "1.13"], environment: ["USER": "ana"]).status == 0)

        // The naive count: every event of the issue, by month of its time.
        var events: [String: Int] = [:], users: [String: Set<String>] = [:]
        for line in try cli.run(["export", "--key", key, "--window", "all", "--now", "2026-11-21T00:00:00Z"]).stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let month = String((event["timestamp"] as! String).prefix(7))
            events[month, default: 0] += 1
            if let user = event["user_id"] as? String { users[month, default: []].insert(user) }
        }
        let history = try cli.run(["history", key, "--format", "json"]).json
        let months = try #require(history["months"] as? [[String: Any]])
        #expect(months.count > 2, "the sample spans four months")
        #expect(months.map { $0["month"] as! String } == events.keys.sorted())
        for m in months {
            let name = m["month"] as! String
            #expect(m["events"] as? Int == events[name], "\(name)")
            #expect(m["users"] as? Int == users[name]?.count ?? 0, "\(name)")
        }
        let changes = try #require(history["status_changes"] as? [[String: Any]])
        #expect(changes.last?["to"] as? String == "resolved" && changes.last?["by"] as? String == "ana")

        let text = try cli.run(["history", key]).stdout
        #expect(text.hasPrefix("\(key)  resolved\n"))
        #expect(text.contains("MONTH    EVENTS  USERS  COMPL  VERSIONS"))
        #expect(text.contains("→ resolved in 1.13  by ana"))
    }

    @Test func anUnknownKeyIsAUsageError() throws {
        let cli = try CLI()
        try cli.run(["ingest", try cli.file("e.ndjson", TemporaryStore.event("a", "2026-11-20T10:00:00Z") + "\n")])
        let result = try cli.run(["history", "ZZ9"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no issue has the key ZZ9"))
    }
}
