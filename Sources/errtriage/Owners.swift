import ArgumentParser
import Presentation
import TriageModel
import TriageStore

/// `errtriage owner`: owner rules, CODEOWNERS for chains, tried in order.
struct OwnerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owner",
        abstract: "Owner rules: queries over the chain (key:, domain:, root:, outer:, message:, words) that route issues to an owner, tried in order.",
        discussion: "A new issue gets the owner of the first rule its chain matches at ingest, and that owner as assignee; owner apply does the same for the issues already stored.",
        subcommands: [Add.self, List.self, Remove.self, Apply.self])

    /// `owner add QUERY OWNER`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a rule after the others.")

        @OptionGroup var options: StoreOnlyOptions

        @Argument(help: "A query over the chain, e.g. 'domain:TolokaBackendError'.")
        var query: String

        @Argument(help: "The owner (a team or a person).")
        var owner: String

        func run() throws {
            try CLIError.requireName(owner, "a rule needs an owner")
            let rule = try options.open(for: .writing).addOwnerRule(query: query, owner: owner)
            print("owner rule \(rule.number) added: " + OwnerRuleText.line(rule))
        }
    }

    /// `owner list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules in the order they are tried.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open(for: .reading(now: try options.nowTimestamp()))
            print(OwnerRuleText.list(try store.ownerRules()), terminator: "")
        }
    }

    /// `owner rm N`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove rule number N (as owner list numbers them).")

        @OptionGroup var options: StoreOnlyOptions

        @Argument(help: "The rule's number.")
        var number: Int64

        func run() throws {
            try options.open(for: .writing).removeOwnerRule(number)
            print("owner rule \(number) removed")
        }
    }

    /// `owner apply`.
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the rules to every stored issue: the first matching rule's owner (and assignee where nobody is).")

        @OptionGroup var options: StoreOnlyOptions

        func run() throws {
            let changed = try options.open(for: .writing).applyOwnerRules()
            print("owner apply: \(changed) issues changed owner")
        }
    }
}
