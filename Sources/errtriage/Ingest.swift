import ArgumentParser
import Foundation
import TriageImport
import TriageModel
import TriageStore

/// `errtriage ingest FILE...`: reads events and complaints into the store.
struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read events and complaints from NDJSON files (plain or .gz; - for stdin) into the store.",
        discussion: """
            Prints one summary line. A bad line is reported as FILE:LINE: reason, copied verbatim to a \
            rejects file next to the store, and skipped; every good line is kept (exit code 2).
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "Files to read; - reads standard input.")
    var files: [String]

    func run() throws {
        try runReporting {
            let store = try options.open()
            var ingestion = try Ingestion(store: store)
            var unreadable = 0
            for file in files {
                do {
                    try ingestion.ingest(file: file)
                } catch let error as InputError {
                    Stderr.write("errtriage: \(error.description)\n")
                    unreadable += 1
                }
            }
            print(ingestion.summary(files: files.count))
            if unreadable > 0 || ingestion.rejected > 0 { throw ExitCode(2) }
        }
    }
}

/// One ingest run: streams files through the decoder into the store in batches.
struct Ingestion {
    static let batchSize = 2_000
    static let maxReportedRejects = 50

    let writer: IngestWriter
    let rejectsPath: String
    var counts = IngestCounts()
    var rejected = 0
    private var rejectsFile: FileHandle?

    init(store: TriageStore) throws {
        do { writer = try IngestWriter(store: store) } catch { throw CLIError.store(error.message) }
        rejectsPath = store.path + ".rejects"
    }

    mutating func ingest(file: String) throws {
        let reader = try LineReader(path: file)
        let decoder = NativeDecoder()
        var events: [ErrorEvent] = []
        var complaints: [Complaint] = []
        while let line = try reader.next() {
            if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) && !line.tooLong { continue }
            do {
                if line.tooLong { throw LineRejection("line longer than \(LineReader.maxLineBytes / (1 << 20)) MiB") }
                switch try decoder.decode(line: line.bytes) {
                case .event(let e): events.append(e)
                case .complaint(let c): complaints.append(c)
                }
            } catch {
                try reject(file: file, line: line, reason: error.reason)
            }
            if events.count + complaints.count >= Ingestion.batchSize {
                try flush(&events, &complaints)
            }
        }
        try flush(&events, &complaints)
    }

    private mutating func flush(_ events: inout [ErrorEvent], _ complaints: inout [Complaint]) throws {
        guard !events.isEmpty || !complaints.isEmpty else { return }
        do {
            counts += try writer.write(events: events, complaints: complaints)
        } catch {
            throw CLIError.store(error.message)
        }
        events.removeAll(keepingCapacity: true)
        complaints.removeAll(keepingCapacity: true)
    }

    private mutating func reject(file: String, line: InputLine, reason: String) throws {
        rejected += 1
        if rejected <= Ingestion.maxReportedRejects {
            Stderr.write("\(file):\(line.number): \(reason)\n")
        } else if rejected == Ingestion.maxReportedRejects + 1 {
            Stderr.write("errtriage: more rejected lines follow; all are in \(rejectsPath)\n")
        }
        if rejectsFile == nil {
            if !FileManager.default.fileExists(atPath: rejectsPath) {
                FileManager.default.createFile(atPath: rejectsPath, contents: nil)
            }
            rejectsFile = FileHandle(forWritingAtPath: rejectsPath)
            rejectsFile?.seekToEndOfFile()
        }
        var data = Data(line.bytes)
        data.append(0x0A)
        rejectsFile?.write(data)
    }

    func summary(files: Int) -> String {
        var parts = ["\(counts.eventsAdded) events added", "\(counts.duplicates) duplicates",
                     "\(counts.complaintsAdded) complaints added", "\(counts.issuesCreated) new issues"]
        if counts.complaintDuplicates > 0 { parts.append("\(counts.complaintDuplicates) duplicate complaints") }
        if counts.regressions > 0 { parts.append("\(counts.regressions) issues regressed") }
        parts.append("\(rejected) rejected lines" + (rejected > 0 ? " (copied to \(rejectsPath))" : ""))
        return "ingest: " + parts.joined(separator: ", ")
    }
}

extension Error {
    /// The reason of a line rejection, or the error's description.
    var reason: String { (self as? LineRejection)?.reason ?? "\(self)" }
}
