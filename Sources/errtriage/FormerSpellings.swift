import ArgumentParser

/// The spellings of commands before they were grouped (`releases`, `prune`, `alerts`), kept for
/// one release: each runs its new command after a line on stderr that names it, and none is
/// listed in the help.
protocol FormerSpelling: ParsableCommand {
    associatedtype Current: ParsableCommand
    /// The command as parsed from the same arguments.
    var current: Current { get }
    /// How it is spelled now (`release list`).
    static var now: String { get }
}

extension FormerSpelling {
    func run() throws {
        Stderr.write("errtriage: '\(Self.configuration.commandName ?? "")' is now 'errtriage \(Self.now)'; the old spelling goes in a later release\n")
        var command = current
        try command.run()
    }
}

/// `errtriage releases`: `release list` before the grouping.
struct FormerReleases: FormerSpelling {
    static let configuration = CommandConfiguration(commandName: "releases", abstract: "Former spelling of release list.", shouldDisplay: false)
    static let now = "release list"
    @OptionGroup var current: Releases
}

/// `errtriage prune`: `retention prune` before the grouping.
struct FormerPrune: FormerSpelling {
    static let configuration = CommandConfiguration(commandName: "prune", abstract: "Former spelling of retention prune.", shouldDisplay: false)
    static let now = "retention prune"
    @OptionGroup var current: Prune
}

/// `errtriage alerts`: `alert run` before the grouping.
struct FormerAlerts: FormerSpelling {
    static let configuration = CommandConfiguration(commandName: "alerts", abstract: "Former spelling of alert run.", shouldDisplay: false)
    static let now = "alert run"
    @OptionGroup var current: Alerts
}
