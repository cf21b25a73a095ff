import ArgumentParser
import Presentation
import TriageModel
import TriageStore

/// `errtriage view`: saved views, named queries the team shares through the store.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view", abstract: "Save, list and remove views: named queries with a ranking and a window, kept in the store.",
        subcommands: [Save.self, List.self, Remove.self])

    /// `view save NAME --query Q`.
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save a view (replacing one of the same name).")

        @OptionGroup var options: StoreOptions

        @Argument(help: "The view's name.")
        var name: String

        @Option(help: QueryArgument.help, transform: QueryArgument.parse)
        var query: QueryArgument

        @Option(help: "Rank by events, users or complaints when the view opens.")
        var by: RankMode?

        @Option(help: "The window the view opens with.")
        var window: TimeWindow?

        func run() throws {
            try CLIError.requireName(name, "a view needs a name")
            let now = try options.nowTimestamp()
            let store = try options.open(for: .writing)
            try store.saveView(SavedView(name: name, query: query.query.description, mode: by, window: window), at: now)
            print("view \(TextSanitizer.sanitize(name)) saved: \(TextSanitizer.sanitize(query.query.description))")
        }
    }

    /// `view list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the saved views.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let store = try options.open(for: .reading(now: try options.nowTimestamp()))
            print(SavedViewText.list(try store.savedViews()), terminator: "")
        }
    }

    /// `view rm NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a saved view.")

        @OptionGroup var options: StoreOnlyOptions

        @Argument(help: "The view's name.")
        var name: String

        func run() throws {
            try options.open(for: .writing).removeView(named: name)
            print("view \(TextSanitizer.sanitize(name)) removed")
        }
    }
}
