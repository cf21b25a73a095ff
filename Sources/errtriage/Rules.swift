import ArgumentParser
import Presentation
import TriageModel
import TriageStore

/// `errtriage rule`: grouping rules, a team's fingerprint rules for chains.
struct RuleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rule",
        abstract: "Grouping rules: a query over the chain (key:, domain:, root:, outer:, message:, words) whose issues are one issue.",
        discussion: """
            rule add merges every issue the query matches into the first seen of them (with the groups they head) and \
            keeps doing it for new issues at ingest, whatever codes and words they bring; rule rm takes out again what \
            the rule merged. Rules are tried in order; the first that matches a new issue takes it.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    /// `rule add QUERY --as NAME [--dry-run]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a rule after the others and merge what it matches now (--dry-run: only say what it would take).")

        @OptionGroup var options: StoreOptions

        @Argument(help: "A query over the chain, e.g. 'message:\"load coupon *\"' or 'key:AP63478-* root:ES56620'.")
        var query: String

        @Option(name: .customLong("as"), help: "The rule's name (what rule rm takes).")
        var name: String

        @Flag(help: "List the issues and events the rule would take, and change nothing.")
        var dryRun = false

        @Option(help: "text or json.")
        var format: OutputFormat = .text

        @Option(help: "Who decided (default: the login name).")
        var by: String?

        func validate() throws {
            guard format != .markdown else { throw ValidationError("rule add writes text or json") }
        }

        func run() throws {
            try CLIError.requireName(name, "a rule needs a name (--as NAME)")
            let preview: GroupingPreview
            if dryRun {
                preview = try options.open(for: .reading(now: try options.nowTimestamp())).groupingPreview(query: query, name: name)
            } else {
                preview = try options.open(for: .writing).addGroupingRule(query: query, name: name, by: by ?? loginName(),
                                                                            at: try options.nowTimestamp())
            }
            switch format {
            case .json: print(GroupingRuleText.json(preview).inertSerialized)
            case .text, .markdown: print(GroupingRuleText.preview(preview, dryRun: dryRun), terminator: "")
            }
        }
    }

    /// `rule list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules in the order they are tried, each with its issue.")

        @OptionGroup var options: StoreOptions

        @Option(help: "text or json.")
        var format: OutputFormat = .text

        func validate() throws {
            guard format != .markdown else { throw ValidationError("rule list writes text or json") }
        }

        func run() throws {
            let rules = try options.open(for: .reading(now: try options.nowTimestamp())).groupingRules()
            switch format {
            case .json: print(GroupingRuleText.json(rules).inertSerialized)
            case .text, .markdown: print(GroupingRuleText.list(rules), terminator: "")
            }
        }
    }

    /// `rule rm NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a rule: each issue it merged goes back to where it was before.")

        @OptionGroup var options: StoreOptions

        @Argument(help: "The rule's name.")
        var name: String

        @Option(help: "Who decided (default: the login name).")
        var by: String?

        func run() throws {
            let restored = try options.open(for: .writing).removeGroupingRule(name, by: by ?? loginName(),
                                                                                at: try options.nowTimestamp())
            print(GroupingRuleText.removed(name, restored: restored), terminator: "")
        }
    }
}
