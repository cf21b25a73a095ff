import ArgumentParser
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

    func run() throws {
        let now = try options.nowTimestamp()
        let detail = try options.open(for: .reading(now: now)).issueDetail(key: key.canonical, window: window, now: now)
        print(TicketText.render(detail, style: format, withUsers: withUsers), terminator: "")
    }
}
