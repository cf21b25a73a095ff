import ArgumentParser
import Foundation
import Presentation
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// `errtriage export`: the raw events of a period, for analysis elsewhere.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the raw events of a window as NDJSON (the native format, so it can be ingested again) or CSV with a header row.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case ndjson, csv }

    @OptionGroup var options: StoreOptions

    @Option(help: TimeWindow.help)
    var window: TimeWindow = .d7

    @Option(help: "ndjson or csv.")
    var format: Format = .ndjson

    @Option(help: "Only the events of this issue (its short key).", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument?

    @Option(help: QueryArgument.help, transform: QueryArgument.parse)
    var query: QueryArgument?

    @Option(help: "The output file; - for standard output.")
    var out: String = "-"

    @Flag(help: "Write the events kept whole instead, one JSON object a line: event_id, issue, timestamp, source, release, environment, kept_as and payload (the event as its source sent it, secrets filtered).")
    var whole = false

    @Flag(help: "Write the grouping rules instead, one JSON object a line in the order they are tried: name, query, by, at (errtriage rule import reads them into another store).")
    var rules = false

    func run() throws {
        let canonical = key?.canonical
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        // Days the store no longer has as raw events: said on stderr, so the output stays data.
        if let since = try store.retention().eventsSince, window.start(now: now).map({ $0 < since }) ?? true {
            let from = window.start(now: now).map { "from \($0.dateText) " } ?? ""
            Stderr.write("export: the days \(from)before \(since.dateText) are not in this export: their raw events were pruned (errtriage retention); their counts stay in report and history\n")
        }
        // Data goes to a file or a pipe exactly; to a terminal, made inert (as every text output is).
        let toTerminal = out == "-" && Stdout.isTerminal
        if rules {
            guard !whole, format == .ndjson, query == nil, key == nil else {
                throw CLIError.usage("--rules writes NDJSON of every rule; no --whole, --format csv, --query or --key")
            }
            let sink = try LineWriter(path: out)
            for rule in try store.groupingRules() {
                try sink.write(toTerminal ? TextSanitizer.inert(RuleFile.line(rule)) : RuleFile.line(rule))
            }
            try sink.close()
            return
        }
        if whole {
            guard format == .ndjson, query == nil else { throw CLIError.usage("--whole writes NDJSON of a window or of one --key; no --format csv or --query") }
            let sink = try LineWriter(path: out)
            try store.exportKeptEvents(window: window, now: now, key: canonical) { kept in
                // The payload as one JSON value on the line (an SDK may have sent it over several lines).
                let payload = (try? JSONParser.parse(kept.payload)) ?? .string(String(decoding: kept.payload, as: UTF8.self))
                let line = ReportJSON.keptEventLine(kept, payload: payload)
                try sink.write(toTerminal ? line.inertSerialized : line.serialized)
            }
            try sink.close()
            return
        }
        switch format {
        case .ndjson:
            let sink = try LineWriter(path: out)
            try store.exportEvents(window: window, now: now, key: canonical, search: query?.query ?? SearchQuery()) {
                try sink.write(NativeEncoder.line($0, inert: toTerminal))
            }
            try sink.close()
        case .csv:
            let writer: CSVFileWriter
            do { writer = try CSVFileWriter(path: out) } catch { throw CLIError.usage(error.description) }
            try writer.write(row: ExportCSV.header)
            try store.exportEvents(window: window, now: now, key: canonical, search: query?.query ?? SearchQuery()) {
                try writer.write(row: toTerminal ? ExportCSV.row($0).map(TextSanitizer.inert) : ExportCSV.row($0))
            }
            writer.close()
        }
    }
}
