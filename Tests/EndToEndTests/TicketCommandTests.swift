import Foundation
import Testing

/// `errtriage ticket`, through the real binary.
@Suite struct TicketCommandTests {
    let key = "IN500-TA202-TB30-HT400-NE29"

    @Test func aGitHubTicketHoldsTheTitleChainCountsAndQuotesWithoutUsers() throws {
        let cli = try CLITests().ingested()
        let ticket = try cli.run(["ticket", key, "--format", "github", "--now", CLITests.now])
        #expect(ticket.status == 0, "\(ticket.stderr)")
        let text = ticket.stdout
        #expect(text.hasPrefix("# getMapPins … responseValidationFailed (\(key))\n"))
        #expect(text.contains("NE29  NetworkError.responseValidationFailed  <- root cause"))
        #expect(text.contains("- 1 events, 0 users, 2 complaints"))
        #expect(text.contains("> App says \(key)\n"))
        #expect(!text.contains("u1") && !text.contains("u2"))
        #expect(text.contains("<details>"))
        #expect(text.hasSuffix("```\nerrtriage show \(key)\n```\n"))
        let withUsers = try cli.run(["ticket", key, "--with-users", "--now", CLITests.now]).stdout
        #expect(withUsers.contains("> App says \(key) (u1)\n"))
    }

    @Test func aJiraTicketUsesWikiMarkup() throws {
        let cli = try CLITests().ingested()
        let text = try cli.run(["ticket", "US14-LO43-AP7-NE8", "--format", "jira", "--now", CLITests.now]).stdout
        #expect(text.hasPrefix("h1. connectionIssue … timeout (US14\\-LO43\\-AP7\\-NE8)\n"))
        #expect(text.contains("h2. Top devices\n* iPhone 13 (iPhone14,5) 50.0% (1)\n"))
        #expect(text.contains("{noformat}\nerrtriage show US14-LO43-AP7-NE8\n{noformat}\n"))
    }

    @Test func anUnknownKeyIsAUsageError() throws {
        let cli = try CLITests().ingested()
        let result = try cli.run(["ticket", "US1-NE8"])
        #expect(result.status == 1 && result.stderr == "errtriage: no issue has the key US1-NE8\n")
    }
}
