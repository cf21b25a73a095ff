import ArgumentParser
import TriageIngest
import Presentation
import TriageModel
import TriageStore

extension TicketText.Style: ExpressibleByArgument {}

/// `errtriage ticket KEY`: a ready ticket for a tracker, made from the issue.
struct Ticket: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a ready ticket for an issue: title, chain, counts, top devices and versions, recent events, complaint quotes.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issue's short key.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Option(help: TimeWindow.help)
    var window: TimeWindow = .d7

    @Option(help: "markdown, github or jira.")
    var format: TicketText.Style = .markdown

    @Flag(name: .customLong("with-users"), help: "Name the users who complained (left out by default).")
    var withUsers = false

    @OptionGroup(title: "The code") var code: CodeOptions

    func run() throws {
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        var detail = try store.issueDetail(key: key.canonical, window: window, now: now)
        var facts: CodeFacts?
        if try code.anyCheckout(store) {
            facts = try code.facts(store, issueKey: detail.summary.key, firstSeen: detail.summary.firstSeen)
            detail.raisedAt = try store.raiseSites(issueKey: detail.summary.key)
        }
        print(TicketText.render(detail, style: format, withUsers: withUsers, code: facts), terminator: "")
    }
}
