import ArgumentParser
import Foundation
import Presentation
import TriageStore

/// `errtriage copy --from STORE --to STORE`: moves a whole store between engines.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy everything one store holds into another, empty one: SQLite to PostgreSQL and back.",
        discussion: """
            Events, complaints, issues and chains, the code dictionary, statuses and their history, notes, \
            links, mutes, meetings, views, owners, alerts, adoption and merges are copied with their ids, \
            from one snapshot of the source (which may be in use). The target is created if missing and \
            must be empty; it is written in one transaction, so a failed copy leaves it empty. Both stores \
            are then checked, and their checks must agree. Each store is a file or a postgres:// URI.
            """)

    @Option(help: "The store to copy (a file or a postgres:// URI).")
    var from: String

    @Option(help: "The empty store to fill (a file or a postgres:// URI; created if missing).")
    var to: String

    func run() throws {
        // The source is only read, after an upgrade where it is older and may be written.
        let source = try TriageStore.open(from, for: .checking, maxPages: StoreOptions.maxPages)
        let target = try TriageStore.open(to, for: .writing, maxPages: StoreOptions.maxPages)
        let counts = try source.copy(to: target)
        let before = try source.verify(), after = try target.verify()
        guard after.isSound else {
            for problem in after.problems { print("problem: \(TextSanitizer.sanitize(problem))") }
            throw CLIError.store("the copy in \(target.target) failed its check")
        }
        guard before.events == after.events, before.issues == after.issues, before.complaints == after.complaints else {
            throw CLIError.store("""
                the copy in \(target.target) holds \(after.events) events, \(after.issues) issues and \(after.complaints) complaints; \
                the source \(source.target) \(before.events), \(before.issues) and \(before.complaints)
                """)
        }
        print("copy: \(source.target) copied to \(target.target): \(after.events) events, \(after.issues) issues, "
              + "\(after.complaints) complaints, \(counts.total) rows in all; check: sound on both")
    }
}
