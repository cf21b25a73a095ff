import ArgumentParser
import Foundation
import Presentation
import TriageModel
import TriageStore

/// `errtriage assign KEY NAME`: who works on an issue, with a history row.
struct Assign: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Assign an issue to a person (--none clears), in one transaction with a history row.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issue's short key.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Argument(help: "Who works on it.")
    var name: String?

    @Flag(help: "Clear the assignee.")
    var none = false

    @Option(help: "Who decided (default: the login name).")
    var by: String?

    func run() throws {
        let assignee = name.map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
        guard none != (assignee != nil), assignee?.isEmpty != true else {
            throw CLIError.usage("give a name to assign, or --none to clear the assignee")
        }
        let now = try options.nowTimestamp()
        let previous = try options.open(for: .deciding).assign(key.canonical, to: assignee, by: by ?? loginName(), at: now)
        print("\(key.canonical): " + TextSanitizer.sanitize(Assignment.historyText(to: assignee, from: previous)))
    }
}
