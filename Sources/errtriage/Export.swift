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

    @Option(help: "24h, 7d, 30d, 90d or all.")
    var window: TimeWindow = .d7

    @Option(help: "ndjson or csv.")
    var format: Format = .ndjson

    @Option(help: "Only the events of this issue.")
    var key: String?

    @Option(help: "The output file; - for standard output.")
    var out: String = "-"

    static let csvHeader = ["event_id", "timestamp", "key", "chain", "app_version", "app_build", "platform", "os_name", "os_version",
                            "device_model", "network", "orientation", "app_state", "free_ram", "free_disk", "jailbroken", "user_id",
                            "session_id", "environment", "message", "source", "keys", "kind"]

    func run() throws {
        try runReporting {
            var canonical: String?
            if let key {
                guard let k = ShortKey.canonical(key) else { throw CLIError.usage("'\(key)' is not a short key (e.g. US14-LO43-AP7-NE8)") }
                canonical = k
            }
            let now = try options.nowTimestamp()
            let store = try options.openForReading(now: now)
            switch format {
            case .ndjson:
                let sink = try OutputSink(path: out)
                try store.exportEvents(window: window, now: now, key: canonical) { try sink.write(Export.native($0)) }
                try sink.close()
            case .csv:
                guard let stream = OutputStream(toFileAtPath: out == "-" ? "/dev/stdout" : out, append: false) else {
                    throw CLIError.usage("cannot write \(out)")
                }
                let writer = try CSVWriter(stream: stream)
                try writer.write(row: Export.csvHeader)
                try store.exportEvents(window: window, now: now, key: canonical) { try writer.write(row: Export.csvRow($0)) }
                writer.stream.close()
            }
        }
    }

    /// An event as one native NDJSON line.
    static func native(_ e: ErrorEvent) -> String {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var device: [(String, JSONValue)] = [("model", text(e.deviceModel)), ("orientation", text(e.orientation)), ("app_state", text(e.appState))]
        if let v = e.freeRAM { device.append(("free_ram", .number(String(v)))) }
        if let v = e.freeDisk { device.append(("free_disk", .number(String(v)))) }
        if let v = e.jailbroken { device.append(("jailbroken", .bool(v))) }
        return JSONValue.object([
            ("event_id", .string(e.eventID)), ("timestamp", .string(e.timestamp.iso8601)),
            ("codes", .string(e.chain.shortKey)),
            ("chain", .array(e.chain.links.map { l in
                .object([("domain", text(l.domain)), ("short", .string(l.short)), ("code", .number(String(l.code))), ("name", text(l.name))])
            })),
            ("app", .object([("version", text(e.appVersion)), ("build", text(e.appBuild))])),
            ("os", .object([("name", text(e.osName)), ("version", text(e.osVersion))])),
            ("device", .object(device)), ("platform", text(e.platform)), ("network", text(e.network)),
            ("user_id", text(e.userID)), ("session_id", text(e.sessionID)), ("environment", text(e.environment)),
            ("message", text(e.message)), ("keys", .object(e.customKeys.map { ($0.key, .string($0.value)) })),
        ] + (e.kind.map { [("kind", JSONValue.string($0.rawValue))] } ?? [])).serialized
    }

    static func csvRow(_ e: ErrorEvent) -> [String] {
        [e.eventID, e.timestamp.iso8601, e.chain.shortKey, e.chain.fullForm, e.appVersion ?? "", e.appBuild ?? "", e.platform ?? "",
         e.osName ?? "", e.osVersion ?? "", e.deviceModel ?? "", e.network ?? "", e.orientation ?? "", e.appState ?? "",
         e.freeRAM.map(String.init) ?? "", e.freeDisk.map(String.init) ?? "", e.jailbroken.map { $0 ? "true" : "false" } ?? "",
         e.userID ?? "", e.sessionID ?? "", e.environment ?? "", e.message ?? "", e.source,
         JSONValue.object(e.customKeys.map { ($0.key, .string($0.value)) }).serialized, e.kind?.rawValue ?? ""]
    }
}
