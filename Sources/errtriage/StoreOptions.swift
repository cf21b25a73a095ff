import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TriageModel
import TriageStore

/// Where the store is and what "now" is: shared by every command.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store: an SQLite file, or a postgres:// URI for a team store (default: $ERRTRIAGE_STORE, else ./errtriage.sqlite).")
    var store: String?

    @Option(help: "The time windows end at (ISO 8601, or 'data' for the store's newest event; default: the current time).")
    var now: String?

    init() {}

    /// Options naming one store (for commands that open two, as `copy`).
    init(store: String) {
        self.init()
        self.store = store
    }

    /// The store path after the environment and the default.
    var storePath: String {
        store ?? ProcessInfo.processInfo.environment["ERRTRIAGE_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? "errtriage.sqlite"
    }

    /// Whether `--now data` anchors the windows to the store's newest event.
    var nowIsData: Bool { now == "data" }

    /// The parsed `--now`, the store's newest event for `--now data` (the clock for an empty
    /// store), or the current time.
    func nowTimestamp() throws -> Timestamp {
        let clock = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
        guard let now else { return clock }
        if nowIsData {
            let store = try openForReading(now: clock)
            do { return try store.latestEventTime() ?? clock } catch { throw CLIError.store(error.message) }
        }
        guard let t = Timestamp.parse(now) else {
            throw CLIError.usage("--now '\(now)' is not a time (use ISO 8601, e.g. 2026-10-04T22:33:00Z, or data for the newest event)")
        }
        return t
    }

    /// Opens an existing store for a command that reads. It opens read-only, so that reading never
    /// writes the file, unless a mute condition has come due and the file may be written: then it
    /// opens read-write and brings those issues back first. `forMarks` (the dashboard, the meeting)
    /// opens read-write whenever the file allows, and read-only otherwise, which the screen says.
    /// A store of an older schema is opened read-write once when the file allows, to upgrade it.
    func openForReading(now: Timestamp, forMarks: Bool = false) throws -> TriageStore {
        let path = storePath
        if TriageStore.isPostgres(path) {
            // One connection: the role decides what may be written (a read-only role gets a
            // read-only store), and nothing is written unless a mute has come due.
            let store = try open(create: false)
            do { try store.applyDueMutes(now: now) } catch { throw CLIError.store(error.message) }
            return store
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.store("no store at \(path): add events with errtriage ingest FILE, or try errtriage demo")
        }
        let writable = StoreOptions.isWritable(path)
        if (!forMarks || !writable) && !(writable && TriageStore.needsUpgrade(path)) {
            let reader = try open(readOnly: true)
            do {
                guard writable, try reader.hasDueMutes(now: now) else { return reader }
            } catch { throw CLIError.store(error.message) }
        }
        let store = try open()
        do { try store.applyDueMutes(now: now) } catch { throw CLIError.store(error.message) }
        return store
    }

    /// Whether errtriage may write the file: the system allows it, and its permissions leave a
    /// write bit (so that `chmod a-w` protects a store even from root, who may write anything).
    static func isWritable(_ path: String) -> Bool {
        guard access(path, W_OK) == 0 else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        return info.st_mode & 0o222 != 0
    }

    /// ERRTRIAGE_MAX_PAGES caps the store's size in 4 KiB pages: writes beyond fail as on a full disk.
    static var maxPages: Int? {
        ProcessInfo.processInfo.environment["ERRTRIAGE_MAX_PAGES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Opens a store that must already hold data, for a decision on an issue (`mark`, `assign`).
    func openExisting() throws -> TriageStore {
        if TriageStore.isPostgres(storePath) { return try open(create: false) }
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw CLIError.store("no store at \(storePath): add events with errtriage ingest FILE first")
        }
        return try open()
    }

    /// Opens the store, turning failures into exit code 3. A command that writes is refused on a
    /// read-only file, before SQLite is asked.
    func open(readOnly: Bool = false, create: Bool = true) throws -> TriageStore {
        if !readOnly, !TriageStore.isPostgres(storePath), FileManager.default.fileExists(atPath: storePath),
           !StoreOptions.isWritable(storePath) {
            throw CLIError.store("\(storePath) is read-only; nothing can be written (ingest, marks and notes need write permission)")
        }
        do {
            return try TriageStore(path: storePath, readOnly: readOnly, maxPages: StoreOptions.maxPages, create: create)
        } catch {
            throw CLIError.store(error.message)
        }
    }
}

/// Who is making a mark: the login name, else the account's name.
func loginName() -> String {
    let env = ProcessInfo.processInfo.environment
    if let name = env["USER"] ?? env["LOGNAME"], !name.isEmpty { return name }
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
    return "unknown"
}
