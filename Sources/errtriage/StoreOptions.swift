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
            let store = try open(for: .reading(now: clock))
            do { return try store.latestEventTime() ?? clock } catch { throw CLIError.store(error.message) }
        }
        guard let t = Timestamp.parse(now) else {
            throw CLIError.usage("--now '\(now)' is not a time (use ISO 8601, e.g. 2026-10-04T22:33:00Z, or data for the newest event)")
        }
        return t
    }

    /// ERRTRIAGE_MAX_PAGES caps the store's size in 4 KiB pages: writes beyond fail as on a full disk.
    static var maxPages: Int? {
        ProcessInfo.processInfo.environment["ERRTRIAGE_MAX_PAGES"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Opens the store as a command needs it (`TriageStore.open`: the opening rules live in the
    /// store): `.reading(now:)` for a command that reads, `.deciding` for a decision on an issue
    /// (the store must hold data), `.writing` to write (created where missing), `.checking`.
    func open(for access: StoreAccess) throws -> TriageStore {
        try TriageStore.open(storePath, for: access, maxPages: StoreOptions.maxPages)
    }
}

/// Where the store is, for commands to which "now" means nothing (`key`, `serve`, `check`, adding
/// and removing alerts, owners and views, setting retention): `--store` alone.
struct StoreOnlyOptions: ParsableArguments {
    @Option(help: "The store: an SQLite file, or a postgres:// URI for a team store (default: $ERRTRIAGE_STORE, else ./errtriage.sqlite).")
    var store: String?

    /// The store's options, with the clock's time as now.
    var options: StoreOptions {
        var options = StoreOptions()
        options.store = store
        return options
    }

    /// The store path after the environment and the default.
    var storePath: String { options.storePath }

    /// Opens the store as the command needs it (`StoreOptions.open(for:)`).
    func open(for access: StoreAccess) throws -> TriageStore { try options.open(for: access) }
}

/// `--at`: when a change is stamped (ISO 8601), the clock's time when not given.
func stamp(_ at: String?) throws -> Timestamp {
    guard let at else { return Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) }
    guard let t = Timestamp.parse(at) else { throw CLIError.usage("--at '\(at)' is not a time (use ISO 8601, e.g. 2026-10-04T22:33:00Z)") }
    return t
}

/// Who is making a mark: the login name, else the account's name.
func loginName() -> String {
    let env = ProcessInfo.processInfo.environment
    if let name = env["USER"] ?? env["LOGNAME"], !name.isEmpty { return name }
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
    return "unknown"
}
