import ArgumentParser
import Foundation
import Presentation
import TriageModel
import TriageStore

/// `errtriage release`: the app's versions, listed and compared; `release V` shows one.
struct ReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release", abstract: "List the app's versions, or show what one version brought (release V is release show V).",
        subcommands: [Release.self, Releases.self], defaultSubcommand: Release.self)
}

/// `errtriage release list`: every app version with what it brought.
struct Releases: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every app version: days seen, users with errors, events, issues, new issues, regressions, error-free users.")

    @OptionGroup var options: StoreOptions

    @Option(help: "text, markdown or json.")
    var format: OutputFormat = .text

    func run() throws {
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        let releases = try store.releases()
        switch format {
        case .json: print(ReleaseJSON.releases(releases).inertSerialized)
        case .text, .markdown: print(ReleaseText.releases(releases, markdown: format == .markdown), terminator: "")
        }
    }
}

/// `errtriage release show V` (or `release V`): a version against the one before it.
struct Release: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "What one version brought against the previous (or --against): new, worse, better and gone issues.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The version, as events name it (e.g. 1.13); latest for the newest.")
    var version: String

    @Option(help: "The version to compare with (default: the one before).")
    var against: String?

    @Option(help: TimeWindow.help)
    var window: TimeWindow = .d7

    @Option(help: "text, markdown or json.")
    var format: OutputFormat = .text

    func run() throws {
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        let versions = try store.versions()
        let name = version == "latest" ? versions.last ?? version : version
        if let against, !versions.contains(against) {
            throw CLIError.usage("no event names version \(against); errtriage release list lists the versions")
        }
        guard let comparison = try store.compareRelease(name, against: against, window: window, now: now) else {
            throw CLIError.usage("no event names version \(name); errtriage release list lists the versions")
        }
        switch format {
        case .json: print(ReleaseJSON.comparison(comparison).inertSerialized)
        case .text, .markdown: print(ReleaseText.comparison(comparison, markdown: format == .markdown), terminator: "")
        }
    }
}
