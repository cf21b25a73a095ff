import ArgumentParser
import Foundation
import TriageStore

/// `errtriage backup PATH`: a consistent copy of the store, taken while it is in use.
struct Backup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the store to a new SQLite file while it is in use (SQLite's online backup; a team store is copied).",
        discussion: """
            The copy holds every committed event, mark and note, even while an ingest or the dashboard \
            is writing; it is a plain store that errtriage opens with --store. PATH must not exist.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The file to write; it must not exist.")
    var path: String

    func run() throws {
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CLIError.usage("\(path) exists already; a backup never overwrites a file")
        }
        do throws(StoreError) {
            try store.backup(to: path)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw CLIError.store(error.message)
        }
        print("backup: \(store.target) copied to \(path)")
    }
}
