import ArgumentParser

/// `errtriage` with no subcommand: the interactive dashboard.
struct Dashboard: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the dashboard on the store (the default).")

    @OptionGroup var options: StoreOptions

    func run() throws {
        try runReporting {
            throw CLIError.usage("the dashboard is not built yet; use errtriage report")
        }
    }
}
