import ArgumentParser
import Foundation
import Presentation
import SampleData
import TriageImport
import TriageIngest
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
        if let built = modified(storePath), built >= newestSource, let store = try? TriageStore.open(storePath, for: .writing),
           (try? store.latestEventTime()) ?? nil != nil {
            return store
        }
        Stderr.write("errtriage: building the demo store \(storePath) from \(folder) (once)…\n")
        let store: TriageStore
        do { store = try TriageStore.open(storePath, for: .rebuilding) } catch { throw CLIError.store(error.message) }
        let ingestion = try Ingestion(store: store)
        try ingestion.ingest(file: sources[0])
        if fm.fileExists(atPath: sources[2]) { try ingestion.ingest(file: sources[2]) }
        if fm.fileExists(atPath: sources[1]) { try DecisionFile.applyAll(path: sources[1], to: store) }
        Stderr.write("errtriage: \(ingestion.summary(files: fm.fileExists(atPath: sources[2]) ? 2 : 1))\n")
        return store
    }
}

