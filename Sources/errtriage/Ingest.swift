import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Presentation
import TriageImport
import TriageIngest
import TriageModel
import TriageStore

/// `errtriage ingest FILE...`: reads events and complaints into the store.
struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read events, complaints and sessions into the store: NDJSON, Sentry envelopes or CSV (plain or .gz; - for stdin).",
        discussion: """
            Prints one summary line. A bad line is reported as FILE:LINE: reason, copied verbatim to a \
            rejects file next to the store, and skipped; every good line is kept (exit code 2).
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: "Read every file as this source: native, crashlytics, sentry, elk, desk, adoption or sessions (default: a CSV file by its header, each JSON line by its own members).")
    var source: SourceKind?

    @Option(help: "The project of every event that names none (letters, digits, '.', '_', '-'); events from files have none otherwise.")
    var project: String?
    @OptionGroup(title: "What the store keeps") var intake: IntakeOptions

    @Argument(help: "Files to read; - reads standard input.")
    var files: [String]

    func run() throws {
        if let project, let problem = Project.problem(withName: project) { throw CLIError.usage("--project: \(problem)") }
        let floor = try intake.floor()
        let store = try options.open(for: .writing)
        try intake.apply(to: store)
        let ingestion = try Ingestion(store: store)
        ingestion.pipeline.minFreeBytes = floor
        var unreadable = 0
        for file in files {
            do {
                try ingestion.ingest(file: file, source: source, project: project)
            } catch let error as InputError {
                Stderr.write("errtriage: \(error.description)\n")
                unreadable += 1
            }
        }
        if ingestion.counts.eventsAdded + ingestion.counts.complaintsAdded > 0 { try store.refreshStatistics() }
        print(ingestion.summary(files: files.count))
        // Due mutes and the store's retention (once a day): after the files, so intake never waits for them.
        PruneText.upkeep(try store.upkeep(now: try options.nowTimestamp())).forEach { print($0) }
        if unreadable > 0 || ingestion.rejected > 0 { throw ExitCode(2) }
    }
}

/// One ingest run: the library's pipeline, with its rejects on stderr and in a rejects file, and its summary line.
struct Ingestion {
    static let maxReportedRejects = 50

    let pipeline: IngestPipeline
    let rejectsPath: String
    let progress: ProgressBox
    var counts: IngestCounts { pipeline.summary.counts }
    var rejected: Int { pipeline.summary.rejected }

    init(store: TriageStore) throws {
        let rejectsPath = store.rejectsPath
        self.rejectsPath = rejectsPath
        let rejects = RejectsFile(path: rejectsPath)
        let progress = ProgressBox()
        self.progress = progress
        do {
            pipeline = try IngestPipeline(store: store, onReject: { rejection in
                rejects.write(rejection)
            }, onProgress: { update in
                progress.update(update)
            })
        } catch { throw CLIError.store(error.message) }
    }

    /// Reads one file into the store.
    func ingest(file: String, source: SourceKind? = nil, project: String? = nil) throws {
        do {
            try pipeline.ingest(file: file, source: source, project: project)
        } catch let failure as IngestStoreFailure {
            throw CLIError.store("\(failure.error.message); the \(failure.committed.counts.eventsAdded) events and \(failure.committed.counts.complaintsAdded) "
                                 + "complaints committed before it are kept, and running the same ingest again adds only what is missing")
        }
        progress.finish()
    }

    func summary(files: Int) -> String { IngestText.summary(pipeline.summary, rejectsPath: rejectsPath) }
}

/// Rejected lines: the first `Ingestion.maxReportedRejects` on stderr as FILE:LINE: reason, every
/// one verbatim in the rejects file (created on the first).
final class RejectsFile {
    let path: String
    private var handle: FileHandle?
    private var count = 0

    init(path: String) { self.path = path }

    func write(_ rejection: Rejection) {
        count += 1
        if count <= Ingestion.maxReportedRejects {
            Stderr.write("\(rejection.input):\(rejection.line): \(rejection.reason)\n")
        } else if count == Ingestion.maxReportedRejects + 1 {
            Stderr.write("errtriage: more rejected lines follow; all are in \(path)\n")
        }
        if handle == nil {
            if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
            handle = FileHandle(forWritingAtPath: path)
            handle?.seekToEndOfFile()
        }
        var data = Data(rejection.raw)
        data.append(0x0A)
        handle?.write(data)
    }
}

extension SourceKind: ExpressibleByArgument {}

/// A one-line progress bar on stderr (bytes, events per second, time left), only when stderr is a
/// terminal, fitted to its width.
final class ProgressBox {
    private var started: Date?
    private var input = ""
    private let enabled = isatty(2) != 0
    private var shown = false

    func update(_ progress: IngestProgress) {
        guard enabled else { return }
        if started == nil || progress.input != input {
            started = Date()
            input = progress.input
        }
        // Asked at each update: the terminal may have been resized.
        let line = IngestText.progress(progress, elapsedSeconds: Date().timeIntervalSince(started!),
                                       width: TerminalWidth.of(STDERR_FILENO) ?? 80)
        Stderr.writeControl("\r\u{1B}[K" + line)
        shown = true
    }

    /// Clears the progress line, where one was drawn.
    func finish() {
        if shown { Stderr.writeControl("\r\u{1B}[K") }
        shown = false
    }
}
