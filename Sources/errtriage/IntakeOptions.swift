import ArgumentParser
import Foundation
import TriageModel
import TriageStore

/// The options `ingest` and `serve` share: the disk's floor and the store's settings for what it
/// keeps (its retention, its sample of whole events), declared once for both commands.
struct IntakeOptions: ParsableArguments {
    @Option(name: .customLong("min-free"), help: "Stop taking events before the store's disk has less free than this: 1GiB, 500MiB, 0 for no floor (default: $ERRTRIAGE_MIN_FREE, else 1GiB). ingest exits 3 naming the floor, every transaction before it kept; serve answers 503.")
    var minFree: String?

    @Option(help: "Keep this many days of raw events (90d, 12w, 1y): sets the store's retention, as errtriage retention set does. It is applied at most once a day: by ingest after its files (at once when the period is shorter than the last prune's), by serve at start when due and then daily.")
    var retention: RetentionDays?

    @Option(name: .customLong("keep-whole"), help: KeepWholeArgument.help, transform: KeepWholeArgument.parse)
    var keepWhole: KeepWhole?

    /// The free-space floor from `--min-free`, else $ERRTRIAGE_MIN_FREE, else the default.
    func floor() throws -> Int64 {
        let env = ProcessInfo.processInfo.environment["ERRTRIAGE_MIN_FREE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text = minFree ?? env else { return TriageStore.defaultMinFreeBytes }
        guard let bytes = ByteCount.parse(text) else {
            throw CLIError.usage("\(minFree == nil ? "ERRTRIAGE_MIN_FREE" : "--min-free") '\(text)' is not a size (use e.g. 1GiB, 500MiB, or 0 for no floor)")
        }
        return bytes
    }

    /// Whether a store setting is given, which the command writes before it takes events.
    var setsTheStore: Bool { retention != nil || keepWhole != nil }

    /// Writes the settings given to the store: they hold for later ingests and serve too.
    func apply(to store: TriageStore) throws {
        if let retention { try store.setRetention(keepDays: retention.days) }
        if let keepWhole { try store.setKeepWhole(keepWhole) }
    }
}

/// `--keep-whole N|all|none`: the store's setting of how many events it keeps whole.
enum KeepWholeArgument {
    /// The rule; anything but a number, all or none is refused when the command line is parsed.
    static func parse(_ text: String) throws -> KeepWhole {
        guard let rule = KeepWhole(text) else { throw ValidationError("--keep-whole takes a number of events a day, all or none, not '\(text)'") }
        return rule
    }

    static let help = ArgumentHelp(
        "How many events of an issue the store keeps whole beyond its first and latest and each release's and environment's latest: at most N a day (default 20: the 1st, 2nd, 4th, 8th... event of the day), all, or none (no payload at all). A store setting: it holds for later ingests and serve.")
}
