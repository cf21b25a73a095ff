import Foundation
import Testing

/// `errtriage owner`, through the real binary: rules at ingest, `owner apply`, the query field.
@Suite struct OwnerCommandTests {
    func issues(_ cli: CLI, _ extra: [String] = []) throws -> [[String: Any]] {
        try cli.run(["report", "--now", CLITests.now, "--format", "json"] + extra).json["issues"] as? [[String: Any]] ?? []
    }

    @Test func aNewIssueGetsTheOwnerOfTheFirstMatchingRuleAtIngest() throws {
        let cli = try CLI()
        #expect(try cli.run(["owner", "add", "domain:TolokaBackendError", "backend"]).status == 0)
        #expect(try cli.run(["owner", "add", "root:NE*", "network"]).status == 0)
        #expect(try cli.run(["owner", "list"]).stdout == "1  domain:TolokaBackendError  →  backend\n2  root:NE*  →  network\n")
        #expect(try cli.run(["ingest", try cli.file("e.ndjson", CLITests.events)]).status == 0)
        let byKey = Dictionary(uniqueKeysWithValues: try issues(cli).map { ($0["key"] as! String, $0) })
        // The backend chain also ends in NE29: the first rule wins.
        #expect(byKey["IN500-TA202-TB30-HT400-NE29"]?["owner"] as? String == "backend")
        #expect(byKey["IN500-TA202-TB30-HT400-NE29"]?["assignee"] as? String == "backend")
        #expect(byKey["US14-LO43-AP7-NE8"]?["owner"] as? String == "network")
        #expect(byKey["NSn1009"]?["owner"] is NSNull)
        let backend = try issues(cli, ["--query", "owner:backend"]).map { $0["key"] as? String }
        #expect(backend == ["IN500-TA202-TB30-HT400-NE29"])
    }

    @Test func applyRoutesStoredIssuesAndKeepsAnAssignee() throws {
        let cli = try CLITests().ingested()
        #expect(try cli.run(["assign", "US14-LO43-AP7-NE8", "ana", "--now", CLITests.now]).status == 0)
        #expect(try cli.run(["owner", "add", "root:NE8|NE29", "network"]).status == 0)
        #expect(try cli.run(["owner", "apply"]).stdout == "owner apply: 2 issues changed owner\n")
        let byKey = Dictionary(uniqueKeysWithValues: try issues(cli).map { ($0["key"] as! String, $0) })
        #expect(byKey["US14-LO43-AP7-NE8"]?["owner"] as? String == "network")
        #expect(byKey["US14-LO43-AP7-NE8"]?["assignee"] as? String == "ana")
        #expect(byKey["IN500-TA202-TB30-HT400-NE29"]?["assignee"] as? String == "network")
        #expect(try cli.run(["owner", "rm", "1"]).status == 0)
        #expect(try cli.run(["owner", "apply"]).stdout == "owner apply: 2 issues changed owner\n")
    }

    @Test func aRuleBeyondTheChainOrAnUnknownNumberIsRefused() throws {
        let cli = try CLI()
        let bad = try cli.run(["owner", "add", "os:17*", "ios"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("\"os:17*\" is not about the chain"), "\(bad.stderr)")
        let gone = try cli.run(["owner", "rm", "7"])
        #expect(gone.status == 1 && gone.stderr == "errtriage: no owner rule is named 7 (there are none yet)\n")
    }

    @Test func theAgendaGroupsByOwner() throws {
        let cli = try CLITests().ingested()
        #expect(try cli.run(["owner", "add", "root:NE8", "network"]).status == 0)
        #expect(try cli.run(["owner", "apply"]).status == 0)
        let agenda = try cli.run(["meeting", "--print", "--by-owner", "--now", CLITests.now]).stdout
        let owner = try #require(agenda.range(of: "== Owner: network\n"))
        let none = try #require(agenda.range(of: "== No owner\n"))
        let login = try #require(agenda.range(of: "US14-LO43-AP7-NE8"))
        let backend = try #require(agenda.range(of: "IN500-TA202-TB30-HT400-NE29"))
        #expect(owner.upperBound < login.lowerBound && login.upperBound < none.lowerBound && none.upperBound < backend.lowerBound)

        let minutes = try cli.run(["report", "--format", "markdown", "--by-owner", "--now", CLITests.now]).stdout
        let ownerHeading = try #require(minutes.range(of: "\n### Owner: network\n\n#### New\n"))
        let noOwner = try #require(minutes.range(of: "\n### No owner\n"))
        #expect(ownerHeading.upperBound < noOwner.lowerBound)
        #expect(try cli.run(["report", "--by-owner", "--now", CLITests.now]).status == 1)
    }
}
