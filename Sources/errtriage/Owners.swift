import ArgumentParser
import CodeCheckout
import Foundation
import TriageIngest
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

    /// `owner apply [--from-codeowners]`.
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the rules to every stored issue: the first matching rule's owner (and assignee where nobody is).",
            discussion: """
                With --from-codeowners, the checkout's CODEOWNERS instead: each open issue without an owner gets the \
                owners of the file it was raised in (its raise sites, innermost first, as its latest kept event names \
                them), and the first of them as assignee where nobody is.
                """)

        @OptionGroup var options: StoreOnlyOptions

        @Flag(name: .customLong("from-codeowners"), help: "Owners from the checkout's CODEOWNERS for open issues without one (needs --repo, ERRTRIAGE_REPO or project set).")
        var fromCodeOwners = false

        @OptionGroup(title: "The code") var code: CodeOptions

        func run() throws {
            let store = try options.open(for: .writing)
            guard fromCodeOwners else {
                let changed = try store.applyOwnerRules()
                print("owner apply: \(changed) issues changed owner")
                return
            }
            guard try code.anyCheckout(store) else {
                throw CLIError.usage("owner apply --from-codeowners needs a checkout: --repo DIR, ERRTRIAGE_REPO, or errtriage project set NAME --repo DIR")
            }
            let lookup = CodeLookup()
            var given = 0, unknown = 0, unowned = 0
            var problems: [String] = []
            for issue in try store.unownedOpenIssues() {
                guard let raise = try store.raiseFrames(issueKey: issue.key), raise.frames.contains(where: { $0 != nil }) else {
                    unknown += 1
                    continue
                }
                let facts = lookup.look(raise.frames, release: raise.release, before: nil,
                                        settings: try code.settings(store, issueKey: issue.key), parts: .init(owners: true))
                if let problem = facts.problem {
                    if !problems.contains(problem) { problems.append(problem) }
                    continue
                }
                let owners = facts.suggestedOwners
                guard let first = owners.first else {
                    unowned += 1
                    continue
                }
                guard try store.setOwnerIfNone(issue.key, owner: owners.joined(separator: " "), assignee: first) else { continue }
                given += 1
                let rule = facts.sites.reversed().lazy.compactMap { $0 }.first { !$0.owners.isEmpty }?.ownersRule ?? "CODEOWNERS"
                print("\(issue.key)  \(TextSanitizer.sanitize(owners.joined(separator: " ")))  (\(TextSanitizer.sanitize(rule)))")
            }
            for problem in problems { Stderr.write("owner apply: \(problem)\n") }
            print("owner apply --from-codeowners: \(given) issues given owners; \(unowned) raised in files CODEOWNERS gives no owner; "
                  + "\(unknown) with no kept event naming where they were raised")
        }
    }
}
