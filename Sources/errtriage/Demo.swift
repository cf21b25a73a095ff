import ArgumentParser
import Foundation
import SampleData
import TriageImport
import TriageModel
import TriageStore

/// `errtriage demo`: the dashboard on the sample data, building its store once.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the dashboard on the sample data (builds sample-data/demo.sqlite once, then reuses it).")

    @Option(help: "The folder holding events.ndjson.gz and decisions.ndjson (default: ./sample-data).")
    var sampleData: String?

    @Option(help: "The demo store (default: demo.sqlite in the sample-data folder).")
    var store: String?

    @Flag(help: "Print the report instead of opening the dashboard.")
    var report = false

    func run() throws {
        try runReporting {
            let folder = try SampleFolder.locate(sampleData)
            let storePath = store ?? folder + "/demo.sqlite"
            let store = try DemoStore.prepare(folder: folder, storePath: storePath)
            guard let now = try store.latestEventTime() else { throw CLIError.input("the sample data holds no events") }
            if report || !TerminalDashboard.isInteractive {
                let list = try store.issueList(IssueQuery(top: 20), now: now)
                print(ReportText.list(list), terminator: "")
                return
            }
            try TerminalDashboard.run(store: store, now: now, storeName: storePath)
        }
    }
}

/// Where the sample data is: the option, ./sample-data, or beside the built binary's package.
enum SampleFolder {
    static func locate(_ explicit: String?) throws -> String {
        let fm = FileManager.default
        if let explicit {
            guard fm.fileExists(atPath: explicit + "/events.ndjson.gz") else { throw CLIError.usage("\(explicit) holds no events.ndjson.gz") }
            return explicit
        }
        var candidates = ["sample-data"]
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = binary.deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("sample-data").path)
            dir = dir.deletingLastPathComponent()
        }
        guard let found = candidates.first(where: { fm.fileExists(atPath: $0 + "/events.ndjson.gz") }) else {
            throw CLIError.usage("cannot find sample-data/events.ndjson.gz; run from the errtriage folder or pass --sample-data")
        }
        return found
    }
}

/// Builds the demo store from the sample files when it is missing or older than they are.
enum DemoStore {
    static func prepare(folder: String, storePath: String) throws -> TriageStore {
        let fm = FileManager.default
        let sources = [folder + "/events.ndjson.gz", folder + "/decisions.ndjson", folder + "/adoption.csv"]
        func modified(_ path: String) -> Date? { (try? fm.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        let newestSource = sources.compactMap(modified).max() ?? .distantPast
        if let built = modified(storePath), built >= newestSource, let store = try? TriageStore(path: storePath),
           (try? store.latestEventTime()) ?? nil != nil {
            return store
        }
        for suffix in ["", "-wal", "-shm", ".rejects"] { try? fm.removeItem(atPath: storePath + suffix) }
        Stderr.write("errtriage: building the demo store \(storePath) from \(folder) (once)…\n")
        let store: TriageStore
        do { store = try TriageStore(path: storePath) } catch { throw CLIError.store(error.message) }
        let ingestion = try Ingestion(store: store)
        try ingestion.ingest(file: sources[0])
        if fm.fileExists(atPath: sources[2]) { try ingestion.ingest(file: sources[2]) }
        if fm.fileExists(atPath: sources[1]) {
            let reader = try LineReader(path: sources[1])
            while let line = try reader.next() {
                guard let decision = DecisionFile.parse(line.bytes) else {
                    throw CLIError.input("\(sources[1]):\(line.number): not a decision line")
                }
                try DecisionFile.apply(decision, to: store)
            }
        }
        Stderr.write("errtriage: \(ingestion.summary(files: fm.fileExists(atPath: sources[2]) ? 2 : 1))\n")
        return store
    }
}

/// The sample's decisions file: one decision per line,
/// `{"key","status","version","at","by","note","tracker","mute_events"}` (status, version, tracker and mute_events optional).
enum DecisionFile {
    static func line(_ d: SampleGenerator.Decision) -> String {
        var members: [(String, JSONValue)] = [("key", .string(d.key))]
        if let status = d.status { members.append(("status", .string(status.rawValue))) }
        if let version = d.version { members.append(("version", .string(version))) }
        members += [("at", .string(d.at.iso8601)), ("by", .string(d.by)), ("note", .string(d.note))]
        if let tracker = d.tracker { members.append(("tracker", .string(tracker))) }
        if let n = d.muteEvents { members.append(("mute_events", .number(String(n)))) }
        return JSONValue.object(members).serialized
    }

    static func parse(_ bytes: [UInt8]) -> SampleGenerator.Decision? {
        guard let v = try? JSONParser.parse(bytes), let key = v["key"]?.text.flatMap(ShortKey.canonical),
              let at = v["at"]?.text.flatMap(Timestamp.parse) else { return nil }
        let status = v["status"]?.text.flatMap(IssueStatus.init(rawValue:))
        if v["status"] != nil, status == nil { return nil }
        return SampleGenerator.Decision(key: key, status: status, version: v["version"]?.text, at: at,
                                        by: v["by"]?.text ?? "demo", note: v["note"]?.text ?? "",
                                        tracker: v["tracker"]?.text, muteEvents: v["mute_events"]?.int64.map { Int($0) })
    }

    /// Records a decision through the same store calls as `mark` and the dashboard.
    static func apply(_ d: SampleGenerator.Decision, to store: TriageStore) throws {
        let note = d.note.isEmpty ? nil : d.note
        switch (d.status, d.muteEvents) {
        case (.muted?, let n?):
            _ = try store.mute(d.key, until: .events(n), by: d.by, at: d.at, note: note)
        case (let status?, _):
            _ = try store.mark(d.key, .status(status, version: d.version), by: d.by, at: d.at, note: note)
        case (nil, _):
            if let note { _ = try store.mark(d.key, .note(note), by: d.by, at: d.at) }
        }
        if let tracker = d.tracker { _ = try store.mark(d.key, .tracker(tracker), by: d.by, at: d.at) }
    }
}
