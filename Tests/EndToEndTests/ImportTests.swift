import Foundation
import Testing

/// Every source through the real binary, on the fixtures of Tests/Fixtures (group sizes: make_fixtures.py).
@Suite struct ImportTests {
    static let fixtures = CLI.packageRoot.appendingPathComponent("Tests/Fixtures")
    static let now = "2026-11-20T00:00:00Z"

    func fixture(_ name: String) -> String { ImportTests.fixtures.appendingPathComponent(name).path }

    func issues(_ cli: CLI, by: String = "events") throws -> [String: [String: Any]] {
        let json = try cli.run(["report", "--now", ImportTests.now, "--window", "30d", "--top", "100", "--by", by, "--format", "json"]).json
        var result: [String: [String: Any]] = [:]
        for issue in json["issues"] as? [[String: Any]] ?? [] { result[issue["key"] as! String] = issue }
        return result
    }

    @Test func crashlyticsRowsBecomeEventsAndRepeatedRowsCountOnce() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", fixture("crashlytics.ndjson")])
        #expect(result.stdout == "ingest: 280 events added, 20 duplicates, 0 complaints added, 4 new issues, 0 rejected lines\n")
        let list = try issues(cli)
        #expect(list["US14-LO43-AP7-NE8"]?["events"] as? Int == 100)
        #expect(list["US14-LO43-AP7-NE8"]?["chain"] as? String == "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
        #expect(list["IN500-TA202-TB30-HT400-NE29"]?["events"] as? Int == 80)
        #expect(list["NSn1009"]?["events"] as? Int == 60)
        #expect(list["ST0"]?["events"] as? Int == 40)
    }

    @Test func crashlyticsFieldsFillTheBreakdowns() throws {
        let cli = try CLI()
        try cli.run(["ingest", fixture("crashlytics.ndjson")])
        let show = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", ImportTests.now, "--window", "30d", "--format", "json"]).json
        let breakdowns = show["breakdowns"] as? [String: [[String: Any]]] ?? [:]
        #expect(Set(breakdowns["network"]?.compactMap { $0["value"] as? String } ?? []) == ["wifi", "cellular", "offline"])
        #expect(Set(breakdowns["app_state"]?.compactMap { $0["value"] as? String } ?? []) == ["foreground", "background"])
        #expect(breakdowns["device"]?.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 100)
        let event = (show["recent_events"] as? [[String: Any]])?.first
        #expect(event?["free_ram"] is Int)
        #expect((event?["keys"] as? [String: String])?["screen"] == "map")
    }

    @Test func sentryChainsAreReversedAndJoinTheSameIssueAsCrashlytics() throws {
        let cli = try CLI()
        try cli.run(["ingest", fixture("crashlytics.ndjson"), fixture("sentry.ndjson")])
        let list = try issues(cli)
        #expect(list["US14-LO43-AP7-NE8"]?["events"] as? Int == 220)
        // Code-less errors get a code derived from their type and message template: the same in every store.
        #expect(list["DE93113"]?["events"] as? Int == 80)
        #expect(list["DE93113"]?["first_version"] as? String == "1.11.0")
    }

    @Test func elkReportsGroupByDomainChainAndLogicOrigin() throws {
        let cli = try CLI()
        let first = try cli.run(["ingest", fixture("elk.ndjson")])
        #expect(first.stdout.hasPrefix("ingest: 150 events added, 0 duplicates"))
        let again = try cli.run(["ingest", fixture("elk.ndjson")])
        #expect(again.stdout.hasPrefix("ingest: 0 events added, 150 duplicates"))
        let list = try issues(cli)
        #expect(list["DE666"]?["events"] as? Int == 60)
        #expect(list["IN500-TA202-TB30-HT400-NE29"]?["events"] as? Int == 40)
        let logic = list.values.filter { ($0["key"] as? String)?.hasPrefix("LO") == true }
        #expect(logic.map { $0["events"] as? Int ?? 0 }.sorted() == [20, 30])
        #expect(logic.contains { $0["title"] as? String == "AppDelegate.swift:34 >>> application(_:didFinishLaunchingWithOptions:)" })
    }

    @Test func supportDeskComplaintsLinkOncePerCitedIssue() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", fixture("crashlytics.ndjson"), fixture("desk.csv"), fixture("desk.ndjson")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("150 complaints added"))
        let list = try issues(cli, by: "complaints")
        // 50 CSV tickets + 10 that cite it beside IN500 + 20 NDJSON tickets.
        #expect(list["US14-LO43-AP7-NE8"]?["complaints"] as? Int == 80)
        #expect(list["IN500-TA202-TB30-HT400-NE29"]?["complaints"] as? Int == 30)
        let show = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", ImportTests.now, "--window", "30d", "--format", "json"]).json
        let texts = (show["complaints"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.contains { $0.contains("\n") && $0.contains("\"US14-LO43-AP7-NE8\"") })
    }

    @Test func allSourcesAtOnceMakeOneConsistentList() throws {
        let cli = try CLI()
        let names = ["crashlytics.ndjson", "sentry.ndjson", "elk.ndjson", "desk.csv", "desk.ndjson"]
        let result = try cli.run(["ingest"] + names.map(fixture))
        #expect(result.stdout == "ingest: 630 events added, 20 duplicates, 150 complaints added, 8 new issues, 0 rejected lines\n")
        let list = try issues(cli)
        #expect(list["US14-LO43-AP7-NE8"]?["events"] as? Int == 220)
        #expect(list["US14-LO43-AP7-NE8"]?["complaints"] as? Int == 80)
        #expect(list["IN500-TA202-TB30-HT400-NE29"]?["events"] as? Int == 120)
    }

    @Test func sourceCanBeForcedAndAnUnknownOneIsAUsageError() throws {
        let cli = try CLI()
        let forced = try cli.run(["ingest", "--source", "native", fixture("sentry.ndjson")])
        #expect(forced.status == 2)
        #expect(forced.stderr.contains("sentry.ndjson:1: missing chain"))
        let unknown = try cli.run(["ingest", "--source", "bugsnag", fixture("sentry.ndjson")])
        #expect(unknown.status == 1)
    }
}

@Suite struct UnlinkedComplaintTests {
    @Test func complaintsCitingNoKnownIssueAreKeptAndShownByCategory() throws {
        let cli = try CLI()
        try cli.run(["ingest", ImportTests.fixtures.appendingPathComponent("crashlytics.ndjson").path,
                     ImportTests.fixtures.appendingPathComponent("desk.csv").path])
        let json = try cli.run(["report", "--now", ImportTests.now, "--window", "30d", "--format", "json"]).json
        let unlinked = json["unlinked_complaints"] as? [String: Any]
        // 25 tickets cite no code and 15 cite a code no event carries.
        #expect(unlinked?["total"] as? Int == 40)
        let groups = unlinked?["by_category"] as? [[String: Any]] ?? []
        #expect(groups.first?["category"] as? String == "feedback_disapointment_slow_loading")
        #expect(groups.first?["count"] as? Int == 25)
        #expect((groups.first?["samples"] as? [String])?.count == 1)
    }
}
