import ArgumentParser
import CSV
import Foundation
import TriageImport
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

    static let csvHeader = ["event_id", "timestamp", "key", "chain", "app_version", "app_build", "platform", "os_name", "os_version",
                            "device_model", "network", "orientation", "app_state", "free_ram", "free_disk", "jailbroken", "user_id",
                            "session_id", "environment", "message", "source", "keys", "kind"]

    func run() throws {
        try runReporting {
            let canonical = key?.canonical
            let now = try options.nowTimestamp()
            let store = try options.openForReading(now: now)
            switch format {
            case .ndjson:
                let sink = try LineWriter(path: out)
                try store.exportEvents(window: window, now: now, key: canonical, search: query?.query ?? SearchQuery()) { try sink.write(NativeEncoder.line($0)) }
                try sink.close()
            case .csv:
                guard let stream = OutputStream(toFileAtPath: out == "-" ? "/dev/stdout" : out, append: false) else {
                    throw CLIError.usage("cannot write \(out)")
                }
                let writer = try CSVWriter(stream: stream)
                try writer.write(row: Export.csvHeader)
                try store.exportEvents(window: window, now: now, key: canonical, search: query?.query ?? SearchQuery()) { try writer.write(row: Export.csvRow($0)) }
                writer.stream.close()
            }
        }
    }

    static func csvRow(_ e: ErrorEvent) -> [String] {
        [e.eventID, e.timestamp.iso8601, e.chain.shortKey, e.chain.fullForm, e.appVersion ?? "", e.appBuild ?? "", e.platform ?? "",
         e.osName ?? "", e.osVersion ?? "", e.deviceModel ?? "", e.network ?? "", e.orientation ?? "", e.appState ?? "",
         e.freeRAM.map(String.init) ?? "", e.freeDisk.map(String.init) ?? "", e.jailbroken.map { $0 ? "true" : "false" } ?? "",
         e.userID ?? "", e.sessionID ?? "", e.environment ?? "", e.message ?? "", e.source,
         JSONValue.object(e.customKeys.map { ($0.key, .string($0.value)) }).serialized, e.kind?.rawValue ?? ""]
    }
}
