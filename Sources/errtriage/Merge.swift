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
        try runReporting {
            let now = try options.nowTimestamp()
            guard suggest else {
                let head = into?.canonical ?? keys[0].canonical
                let all = [head] + keys.map(\.canonical).filter { $0 != head }
                if all.count < 2 { throw CLIError.usage("\(head) cannot be merged into itself; name another key") }
                try options.openExisting().merge(all, into: head, by: by ?? loginName(), at: now)
                print("\(head): merged \(all.dropFirst().joined(separator: ", ")) into this group")
                return
            }
            let suggestions = try options.openForReading(now: now).mergeSuggestions()
            switch format {
            case .json: print(Self.json(suggestions).serialized)
            case .text, .markdown: print(Self.text(suggestions), terminator: "")
            }
        }
    }

    static func text(_ suggestions: [MergeSuggestion]) -> String {
        guard !suggestions.isEmpty else { return "No two issues look like one problem under two chains.\n" }
        var out = "errtriage merge --suggest — \(suggestions.count) candidate pair\(suggestions.count == 1 ? "" : "s"), strongest first; nothing is merged\n"
        let keyWidth = suggestions.flatMap { [$0.older.key, $0.newer.key] }.map { TextSanitizer.width($0) }.max() ?? 3
        func line(_ c: MergeCandidate) -> String {
            Format.fit(TextSanitizer.sanitize(c.key), keyWidth) + "  " + Format.right(String(c.events), 7) + " events  "
                + Format.fit(Format.versionRange(c.firstVersion, c.lastVersion), 10) + "  " + TextSanitizer.sanitize(Format.title(c.chain)) + "\n"
        }
        for s in suggestions {
            out += "\n" + line(s.older) + line(s.newer)
            for reason in s.reasons { out += "  why: " + TextSanitizer.sanitize(Format.mergeReason(reason)) + "\n" }
        }
        return out
    }

    static func json(_ suggestions: [MergeSuggestion]) -> JSONValue {
        func issue(_ c: MergeCandidate) -> JSONValue {
            .object([("key", .string(c.key)), ("chain", .string(c.chain.fullForm)), ("events", ReportJSON.int(c.events)),
                     ("first_version", c.firstVersion.map(JSONValue.string) ?? .null),
                     ("last_version", c.lastVersion.map(JSONValue.string) ?? .null)])
        }
        return .object([("suggestions", .array(suggestions.map { s in
            .object([("older", issue(s.older)), ("newer", issue(s.newer)),
                     ("reasons", .array(s.reasons.map { .string(Format.mergeReason($0)) }))])
        }))])
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
        try runReporting {
            let store = try options.openExisting()
            let head = try store.groupHead(of: key.canonical)
            try store.unmerge(key.canonical, by: by ?? loginName(), at: try options.nowTimestamp())
            print("\(key.canonical): out of the group of \(head)")
        }
    }
}
