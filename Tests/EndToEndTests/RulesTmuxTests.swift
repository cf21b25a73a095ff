import Foundation
import Testing

/// The grouping rules screen of the real binary, in tmux: a rule made with `errtriage rule add`
/// shows on `F` with the issue it gathers under, which Enter opens; at 80×24 and 160×48.
@Suite(.serialized) struct RulesTmuxTests: TmuxDriving {
    let session = "errtriage-rules-\(getpid())"

    @Test func fListsTheRuleMadeOnTheCommandLineAndEnterOpensItsIssue() throws {
        let cli = try CLI()
        let codes = RuleCommandTests.codes(3)
        let lines = codes.enumerated().map { RuleCommandTests.coupon("a\($0.offset)", 10 + $0.offset, $0.element, user: "u\($0.offset)") }
        #expect(try cli.run(["ingest", try cli.file("coupons.ndjson", lines.joined(separator: "\n"))]).status == 0)
        let made = try cli.run(["rule", "add", #"message:"load coupon *: not found""#, "--as", "coupon", "--by", "ana"])
        #expect(made.status == 0, "\(made.stderr)")
        let head = try #require(made.stdout.firstMatch(of: /under (CH3-WR\d+-ES1)/)?.1, "\(made.stdout)")

        for (cols, rows) in [(80, 24), (160, 48)] {
            try start("ERRTRIAGE_STORE='\(cli.store)' USER=tester '\(CLI.binary)' --now data", cols: cols, rows: rows)
            defer { stop() }
            try waitForLoaded("rank: events")
            try keys("F")
            let screen = try waitUntil("the rule with its issue") { $0.contains("Grouping rules") && $0.contains(String(head)) }
            #expect(screen.contains("coupon"), "\(screen)")
            #expect(screen.contains("load coupon"), "\(screen)")
            #expect(cols < 100 || screen.contains("Enter open its issue"), "\(screen)")
            #expect(cols < 100 || screen.contains("ana"), "who made it shows where there is room: \(screen)")
            try keys("Enter")
            try waitFor("\(head) · Chain")
            try keys("Escape")
            try waitForLoaded("rank: events")
        }
    }
}
