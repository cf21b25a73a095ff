import ArgumentParser
import Foundation
import Presentation
import TriageImport
import TriageModel
import TriageStore

/// `errtriage merge KEY KEY… [--into KEY]`: issues become one group; `--suggest` lists pairs that may be one problem.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge issues into one group (under the first key, or --into), or suggest pairs that may be one problem (--suggest).")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issues' short keys: the group's head first (unless --into names it).", transform: ShortKeyArgument.parse)
    var keys: [ShortKeyArgument] = []

    @Option(help: "The key the group goes under (one of the keys, or another issue's).", transform: ShortKeyArgument.parse)
    var into: ShortKeyArgument?

    @Flag(help: "List candidate pairs and why: a layer added or removed, a renamed domain, a chain that follows another's last version with the same root cause.")
    var suggest = false

    @Option(help: "text or json (--suggest).")
    var format: OutputFormat = .text

    @Option(help: "Who decided (default: the login name).")
    var by: String?

    func validate() throws {
        if suggest {
            guard keys.isEmpty, into == nil else { throw ValidationError("merge --suggest takes no keys") }
            guard format != .markdown else { throw ValidationError("merge --suggest writes text or json") }
        } else {
            guard keys.count + (into == nil ? 0 : 1) >= 2 else {
                throw ValidationError("merge takes two keys or more (or one key and --into KEY), or --suggest")
            }
        }
    }

    func run() throws {
        let now = try options.nowTimestamp()
        guard suggest else {
            let head = into?.canonical ?? keys[0].canonical
            let all = [head] + keys.map(\.canonical).filter { $0 != head }
            if all.count < 2 { throw CLIError.usage("\(head) cannot be merged into itself; name another key") }
            try options.open(for: .deciding).merge(all, into: head, by: by ?? loginName(), at: now)
            print("\(head): merged \(all.dropFirst().joined(separator: ", ")) into this group")
            return
        }
        let suggestions = try options.open(for: .reading(now: now)).mergeSuggestions()
        switch format {
        case .json: print(MergeText.json(suggestions).inertSerialized)
        case .text, .markdown: print(MergeText.text(suggestions), terminator: "")
        }
    }
}

/// `errtriage unmerge KEY`: takes one member out of its group; its counts are its own again.
struct Unmerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take one member out of its merged group again; every count is as before the merge.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The member's short key.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Option(help: "Who decided (default: the login name).")
    var by: String?

    func run() throws {
        let store = try options.open(for: .deciding)
        let head = try store.groupHead(of: key.canonical)
        try store.unmerge(key.canonical, by: by ?? loginName(), at: try options.nowTimestamp())
        print("\(key.canonical): out of the group of \(head)")
    }
}
