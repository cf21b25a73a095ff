import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TriageModel
import TriageStore

/// Where the store is and what "now" is: shared by every command.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store file (default: $ERRTRIAGE_STORE, else ./errtriage.sqlite).")
    var store: String?

    @Option(help: "The time windows end at (ISO 8601; default: the current time).")
    var now: String?

    /// The store path after the environment and the default.
    var storePath: String {
        store ?? ProcessInfo.processInfo.environment["ERRTRIAGE_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? "errtriage.sqlite"
    }

    /// The parsed `--now`, or the current time.
    func nowTimestamp() throws -> Timestamp {
        guard let now else { return Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) }
        guard let t = Timestamp.parse(now) else { throw CLIError.usage("--now '\(now)' is not a time (use ISO 8601, e.g. 2026-10-04T22:33:00Z)") }
        return t
    }

    /// Opens an existing store for a command that reads. It opens read-only, so that reading never
    /// writes the file, unless a mute condition has come due and the file may be written: then it
    /// opens read-write and brings those issues back first. `forMarks` (the dashboard, the meeting)
    /// opens read-write whenever the file allows, and read-only otherwise, which the screen says.
    /// A store of an older schema is opened read-write once when the file allows, to upgrade it.
    func openForReading(now: Timestamp, forMarks: Bool = false) throws -> TriageStore {
        let path = storePath
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

    /// Opens the store, turning failures into exit code 3. A command that writes is refused on a
    /// read-only file, before SQLite is asked.
    func open(readOnly: Bool = false) throws -> TriageStore {
        if !readOnly, FileManager.default.fileExists(atPath: storePath), !StoreOptions.isWritable(storePath) {
            throw CLIError.store("\(storePath) is read-only; nothing can be written (ingest, marks and notes need write permission)")
        }
        do {
            return try TriageStore(path: storePath, readOnly: readOnly, maxPages: StoreOptions.maxPages)
        } catch {
            throw CLIError.store(error.message)
        }
    }
}

/// A failure the CLI reports as one sentence on stderr with its documented exit code.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case store(String)
    case input(String)

    var description: String {
        switch self {
        case .usage(let m), .store(let m), .input(let m): m
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: 1
        case .input: 2
        case .store: 3
        }
    }
}

/// Runs a command body, printing a failure as `errtriage: sentence` with its exit code.
func runReporting(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError {
        Stderr.write("errtriage: \(error.description)\n")
        throw ExitCode(error.exitCode)
    } catch let error as StoreError {
        Stderr.write("errtriage: \(error.message)\n")
        throw ExitCode(error.isUnknownKey ? 1 : 3)
    }
}

/// Writes to standard error without buffering.
enum Stderr {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Who is making a mark: the login name, else the account's name.
func loginName() -> String {
    let env = ProcessInfo.processInfo.environment
    if let name = env["USER"] ?? env["LOGNAME"], !name.isEmpty { return name }
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { return String(cString: name) }
    return "unknown"
}
