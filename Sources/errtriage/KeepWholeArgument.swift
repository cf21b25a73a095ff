import ArgumentParser
import TriageStore

/// `--keep-whole N|all|none` of `ingest` and `serve`: the store's setting of how many events it keeps whole.
enum KeepWholeArgument {
    /// The rule; anything but a number, all or none is refused when the command line is parsed.
    static func parse(_ text: String) throws -> KeepWhole {
        guard let rule = KeepWhole(text) else { throw ValidationError("--keep-whole takes a number of events a day, all or none, not '\(text)'") }
        return rule
    }

    /// The option's help, the same for both commands.
    static let help = ArgumentHelp(
        "How many events of an issue the store keeps whole beyond its first and latest and each release's and environment's latest: at most N a day (default 20: the 1st, 2nd, 4th, 8th... event of the day), all, or none (no payload at all). A store setting: it holds for later ingests and serve.")
}
