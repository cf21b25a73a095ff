import ArgumentParser
import Foundation
import Presentation
import TriageStore

/// `errtriage check`: is the store sound? SQLite's integrity check, then every rollup recounted.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the store: SQLite's integrity check, and every rollup against a recount of the events.",
        discussion: """
            Reads one consistent snapshot, so it can run while an ingest or the dashboard writes. \
            It scans every event: seconds on millions. Exit 0 when sound, 3 when not (each problem on \
            its own line) or when the store cannot be opened.
            """)

    @OptionGroup var options: StoreOnlyOptions

    func run() throws {
        // An older schema (a store of an older errtriage, or one whose creation was killed between
        // two migrations or before the first) is brought up to date first where it may be written,
        // as every reading command upgrades an older store.
        let store = try options.open(for: .checking)
        let check = try store.verify()
        guard check.isSound else {
            for problem in check.problems { print("problem: \(TextSanitizer.sanitize(problem))") }
            throw CLIError.store("\(store.target) failed its check (\(check.problems.count) problem\(check.problems.count == 1 ? "" : "s") above)")
        }
        print("check: \(store.target) is sound: \(store.integrityNote)\(check.events) events in \(check.issues) issues and \(check.complaints) complaints match every rollup")
        let retention = try store.retention()
        if let since = retention.eventsSince {
            print("check: \(PruneText.rawEventsNote(since: since))")
        }
        let size = try store.storeSize()
        for line in PruneText.sizeLines(tables: size.tables, total: size.total, eventsPerDay: size.eventsPerDay,
                                        bytesPerEvent: size.bytesPerEvent, keepDays: size.keepDays) {
            print(line)
        }
    }
}
