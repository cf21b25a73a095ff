import ArgumentParser
import Presentation
import TriageImport
import TriageModel
import TriageStore

extension AlertRule.Span: ExpressibleByArgument {}

/// `errtriage alert`: alerts for a cron job, kept in the store.
struct AlertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert", abstract: "Add, list, remove and run alerts (alert run, for cron).",
        subcommands: [Add.self, List.self, Remove.self, Alerts.self])

    /// `alert add NAME --query Q (--events N | --users N) --within SPAN`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an alert (replacing one of the same name).")

        @OptionGroup var options: StoreOnlyOptions

        @Argument(help: "The alert's name.")
        var name: String

        @Option(help: QueryArgument.help, transform: QueryArgument.parse)
        var query: QueryArgument

        @Option(help: "Fire when an issue has this many events within the span.")
        var events: Int?

        @Option(help: "Fire when an issue has this many distinct users within the span.")
        var users: Int?

        @Option(help: "The span counted: 1h (the current hour), 24h or 7d.")
        var within: AlertRule.Span = .h24

        func run() throws {
            try CLIError.requireName(name, "an alert needs a name")
            guard name != AlertReport.spikeCondition else { throw CLIError.usage("\(name) is the name spikes are recorded under; choose another") }
            guard (events == nil) != (users == nil) else { throw CLIError.usage("give one of --events N and --users N") }
            let threshold = events ?? users ?? 0
            guard threshold > 0 else { throw CLIError.usage("the threshold must be 1 or more") }
            let alert = AlertRule(name: name, query: query.query.description, measure: events != nil ? .events : .users,
                                  threshold: threshold, within: within)
            try options.open(for: .writing).addAlert(alert)
            print("alert added: " + AlertText.rule(alert))
        }
    }

    /// `alert list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the alerts.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            print(AlertText.rules(try options.open(for: .reading(now: try options.nowTimestamp())).alerts()), terminator: "")
        }
    }

    /// `alert rm NAME`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an alert.")

        @OptionGroup var options: StoreOnlyOptions

        @Argument(help: "The alert's name.")
        var name: String

        func run() throws {
            try options.open(for: .writing).removeAlert(named: name)
            print("alert \(TextSanitizer.sanitize(name)) removed")
        }
    }
}

/// `errtriage alert run`: what fires now and never fired before, new issues and regressions since the last run.
struct Alerts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Print the alerts that fire now (once per issue), and the new issues and regressions since the last run; for cron.",
        discussion: "Prints nothing in text when there is nothing new; exits 0 either way. errtriage opens no network connection: pipe the output to curl (docs/guide/queries.md, Alerts).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var options: StoreOptions

    @Option(help: "text or json.")
    var format: Format = .text

    @Flag(name: .customLong("dry-run"), help: "Show what would fire without recording it.")
    var dryRun = false

    func run() throws {
        let now = try options.nowTimestamp()
        let store = dryRun ? try options.open(for: .reading(now: now)) : try options.open(for: .writing)
        let report = try store.runAlerts(now: now, dryRun: dryRun)
        switch format {
        case .text: print(AlertText.report(report), terminator: "")
        case .json: print(AlertJSON.report(report).inertSerialized)
        }
    }
}

