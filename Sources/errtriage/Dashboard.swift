import ArgumentParser
import Foundation
import TriageStore
import TriageModel

/// `errtriage` with no subcommand: the interactive dashboard.
struct Dashboard: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the dashboard on the store (the default).")

    @OptionGroup var options: StoreOptions

    @OptionGroup(title: "The code") var code: CodeOptions

    func run() throws {
        guard TerminalDashboard.isInteractive else {
            throw CLIError.usage("the dashboard needs a terminal; for scripts use errtriage report (or show) instead")
        }
        let now = try options.nowTimestamp()
        let store = try options.open(for: .dashboard(now: now))
        // The store's own name: a PostgreSQL URI may hold a password, never shown.
        try TerminalDashboard.run(store: store, now: options.now == nil || options.nowIsData ? nil : now, storeName: store.target,
                                  anchorToData: options.nowIsData, code: code.settings)
    }
}
