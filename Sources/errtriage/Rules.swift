import ArgumentParser
import Presentation
import TriageImport
import TriageIngest
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
        subcommands: [Add.self, List.self, Remove.self, Import.self])

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

    /// `rule import FILE`: the rules another store exported (`export --rules`).
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the rules of a file errtriage export --rules wrote, in its order, each as rule add makes it.",
            discussion: """
                A rule already here under its name with the same query is left as it is; a line that is no rule, whose                 query a rule cannot hold to, or whose name a rule with another query has here is named on stderr, and                 every other rule is added (exit 2 then).
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: "The file (- for standard input).")
        var file: String

        @Option(help: "Who decided, for lines that do not say (default: the login name).")
        var by: String?

        /// Why a query cannot be a rule's, as `rule add` says it; nil when it can.
        static func refusal(_ query: String) -> String? {
            do {
                return GroupingRule.refusal(of: try SearchQuery.parse(query))
            } catch {
                return error.description
            }
        }

        func run() throws {
            let store = try options.open(for: .writing)
            let now = try options.nowTimestamp()
            var existing = Dictionary(try store.groupingRules().map { ($0.name, $0.query) }, uniquingKeysWith: { a, _ in a })
            let reader: LineReader
            do { reader = try LineReader(path: file) } catch { throw CLIError.input("\(error)") }
            var added = 0, kept = 0, refused = 0
            while let line = try reader.next() {
                guard line.bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) else { continue }
                guard let entry = RuleFile.parse(line.bytes) else {
                    Stderr.write("errtriage: \(file):\(line.number): not a rule line ({\"name\", \"query\", \"by\", \"at\"})\n")
                    refused += 1
                    continue
                }
                if let query = existing[entry.name] {
                    if query == entry.query { kept += 1; continue }
                    Stderr.write("errtriage: \(file):\(line.number): a rule is named \(entry.name) here already with another query (\(query)); rule rm it first, or rename the line's\n")
                    refused += 1
                    continue
                }
                if let why = Self.refusal(entry.query) {
                    Stderr.write("errtriage: \(file):\(line.number): \(why)\n")
                    refused += 1
                    continue
                }
                let preview = try store.addGroupingRule(query: entry.query, name: entry.name, by: entry.by ?? by ?? loginName(),
                                                        at: entry.at ?? now)
                print(GroupingRuleText.preview(preview, dryRun: false), terminator: "")
                existing[entry.name] = entry.query
                added += 1
            }
            print("rule import: \(added) added, \(kept) already here" + (refused > 0 ? ", \(refused) refused" : ""))
            if refused > 0 { throw CLIError.input("\(refused) line\(refused == 1 ? "" : "s") of \(file) refused, named above; the others are added") }
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
