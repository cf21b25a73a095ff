import ArgumentParser
import Foundation
import SampleData
import TriageImport
import TriageIngest
import TriageModel

/// `errtriage generate`: realistic native NDJSON for demos, tests and benchmarks.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write realistic native NDJSON events and complaints (deterministic for a seed; streams).")

    @Option(help: "How many events.") var events: Int = 50_000
    @Option(help: "How many distinct issues (chains).") var issues: Int = 160
    @Option(help: "How many days the events span.") var days: Int = 90
    @Option(help: "The random seed.") var seed: UInt64 = 1
    @Option(help: "When the data ends (ISO 8601; default 2026-11-20T18:00:00Z).") var end: String = "2026-11-20T18:00:00Z"
    @Option(help: "The events' order: day (days in order, shuffled within each day, as daily exports arrive), time, or shuffled (random times across the span).")
    var order: EventOrder = .day
    @Option(help: "The output file; - for standard output.") var out: String = "-"
    @Option(help: "Also write the sample's decisions (marks) as NDJSON to this file.") var decisions: String?
    @Flag(name: .customLong("release-story"), help: "Add the latest release's story: a new crash, a worse and a better issue, a chain that gained a layer.")
    var releaseStory = false
    @Option(help: "Also write the versions' daily active users (CSV: date,version,users,sessions) to this file.") var adoption: String?

    func run() throws {
        guard events >= 0, issues >= 1, days >= 1 else { throw CLIError.usage("--events must be 0 or more, --issues and --days 1 or more") }
        guard let endTime = Timestamp.parse(end) else { throw CLIError.usage("--end '\(end)' is not a time") }
        let generator = SampleGenerator(.init(events: events, issues: issues, days: days, seed: seed, end: endTime,
                                              releaseStory: releaseStory, order: order))
        let sink = try LineWriter(path: out)
        try generator.write { line in try sink.write(line) }
        try sink.close()
        if let decisions {
            let file = try LineWriter(path: decisions)
            for d in generator.decisions { try file.write(DecisionFile.line(d)) }
            try file.close()
        }
        if let adoption {
            let file = try LineWriter(path: adoption)
            try generator.writeAdoption { try file.write($0) }
            try file.close()
        }
    }
}

extension EventOrder: ExpressibleByArgument {}
