import ArgumentParser
import Foundation
import TriageStore

/// The `errtriage` command: the dashboard by default, and the scriptable subcommands.
@main
struct Errtriage: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errtriage",
        abstract: "Triage app error chains: ingest, rank, drill down, decide.",
        discussion: """
            With no subcommand, opens the dashboard on the store.
            Exit codes: 0 done; 1 usage error or unknown key; 2 some input rejected (the rest kept); \
            3 the store cannot be opened or written, or check finds it unsound.
            """,
        subcommands: [Dashboard.self, Ingest.self, Report.self, Show.self, EventCommand.self, History.self, Mark.self, Decode.self, Export.self, Meeting.self, Backup.self, Copy.self, Check.self, RetentionCommand.self,
                      ReleaseCommand.self, Merge.self, Unmerge.self, RuleCommand.self, ViewCommand.self, Assign.self, OwnerCommand.self, Ticket.self, AlertCommand.self,
                      ServeCommand.self, KeyCommand.self, ProjectCommand.self, Generate.self, Demo.self,
                      FormerReleases.self, FormerPrune.self, FormerAlerts.self],
        defaultSubcommand: Dashboard.self)

    /// Runs the command (`serve` is async; the others run on this thread) and turns what it throws
    /// into its exit code here, once (`reported`); a command line the parser refuses exits 1 like
    /// every other usage error (swift-argument-parser's own code would be 64).
    static func main() async {
        do {
            var command = try parseAsRoot()
            // Another errtriage waiting for a store this one writes names it so; this one says
            // on standard error when it waits (the dashboard keeps its screen clean of it).
            TriageStore.setWriterName((["errtriage"] + commandPath(type(of: command))).joined(separator: " "))
            TriageStore.onWait { Stderr.write("errtriage: \($0)\n") }
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if let code = reported(error) { Foundation.exit(code) }
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            Stderr.write(fullMessage(for: error) + "\n")
            Foundation.exit(1)
        }
    }
}

extension Errtriage {
    /// The names of the subcommands that lead to `command` (`["retention", "prune"]`).
    static func commandPath(_ command: any ParsableCommand.Type, from root: any ParsableCommand.Type = Errtriage.self) -> [String] {
        for sub in root.configuration.subcommands {
            let name = sub._commandName
            if ObjectIdentifier(sub) == ObjectIdentifier(command) { return [name] }
            let below = commandPath(command, from: sub)
            if !below.isEmpty { return [name] + below }
        }
        return []
    }
}
