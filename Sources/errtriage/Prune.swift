import ArgumentParser
import Presentation
import TriageModel
import TriageStore

/// A period of days given as `90d`, `12w` or `1y`.
struct RetentionDays: ExpressibleByArgument {
    var days: Int
    init?(argument: String) {
        guard let days = RetentionPeriod.days(argument) else { return nil }
        self.days = days
    }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// `errtriage retention prune`: deletes raw events and complaints older than a period, keeping every issue's history.
struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete raw events and complaints older than a period; every issue, its history and every daily rollup stay.",
        discussion: """
            Whole calendar months go: the month holding the day --keep before now and everything \
            after it stay, so the store keeps between the period and a month more of raw events. \
            Lists, details, releases and history for older windows are answered from the rollups. \
            Deletes in short transactions, so an ingest and the dashboard go on meanwhile. \
            Without --keep, the store's retention setting (errtriage retention set 90d) applies. \
            Exit 1 when no period is given or set, 3 when the store cannot be written.
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: "Keep this many days of raw events: 90d, 12w, 1y (default: the store's retention setting).")
    var keep: RetentionDays?

    @Flag(help: "Afterwards rewrite an SQLite file made before retention existed, so that it gives free pages back (takes the writer for the whole rewrite).")
    var vacuum = false

    func run() throws {
        let now = try options.nowTimestamp()
        let store = try options.open(for: .deciding)
        let setting = try store.retention().keepDays
        guard let days = keep?.days ?? setting else {
            throw CLIError.usage("say how much to keep (errtriage retention prune --keep 90d), or set the store's retention (errtriage retention set 90d)")
        }
        let result = try store.prune(keepDays: days, now: now)
        print(PruneText.summary(result, keepDays: days))
        if vacuum { print("prune: \(try store.compact())") }
    }
}

/// `errtriage retention`: the store's retention setting, which `ingest` (and `serve`) apply once a day.
struct RetentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "Show or set how long the store keeps raw events (ingest prunes by it on its own, at most once a day), or prune now.",
        subcommands: [Show.self, Set.self, Off.self, Prune.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the setting and where raw events begin.")
        @OptionGroup var options: StoreOptions
        func run() throws {
            let store = try options.open(for: .reading(now: try options.nowTimestamp()))
            print(PruneText.setting(try store.retention()))
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Keep this many days of raw events (90d, 12w, 1y); applied by the next ingest.")
        @OptionGroup var options: StoreOnlyOptions
        @Argument(help: "The period: 90d, 12w or 1y.") var period: RetentionDays
        func run() throws {
            let store = try options.open(for: .deciding)
            try store.setRetention(keepDays: period.days)
            print(PruneText.setting(try store.retention()))
        }
    }

    struct Off: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Keep raw events for ever (what was pruned stays pruned).")
        @OptionGroup var options: StoreOnlyOptions
        func run() throws {
            let store = try options.open(for: .deciding)
            try store.setRetention(keepDays: nil)
            print(PruneText.setting(try store.retention()))
        }
    }
}

extension PruneText {
    static func setting(_ r: Retention) -> String { setting(keepDays: r.keepDays, eventsSince: r.eventsSince, prunedAt: r.prunedAt) }
}
