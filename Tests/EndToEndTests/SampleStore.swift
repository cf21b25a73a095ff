import ChildProcess
import Foundation
import TestSupport

/// The demo store built once from sample-data/ for every test that needs it, as `errtriage demo` builds it.
enum SampleStore {
    static let end = "2026-11-20T18:00:00Z"

    /// Why the demo store could not be built.
    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    private static let built: Swift.Result<String, BuildFailure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-sample-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("sample.sqlite").path
        do {
            let demo = try ChildProcess.run([CLI.binary, "demo", "--report", "--store", store,
                                             "--sample-data", CLI.packageRoot.appendingPathComponent("sample-data").path])
            guard demo.status == 0 else {
                return .failure(BuildFailure(description: "errtriage demo exited \(demo.status): \(demo.stderr)"))
            }
        } catch {
            return .failure(BuildFailure(description: "\(error)"))
        }
        return .success(store)
    }()

    /// The store's path; built on first use, and a failure to build it fails every test that needs it.
    static var path: String {
        get throws { try built.get() }
    }

    /// A private copy, for tests that write. Other tests open the shared store at the same time (a
    /// dashboard's session takes a write lock for a moment), so the backup waits for a lock
    /// rather than failing at once.
    static func copy(to folder: URL) throws -> String {
        let target = folder.appendingPathComponent("sample-copy.sqlite").path
        let backup = try tool("sqlite3", "-cmd", ".timeout 30000", try path, ".backup '\(target)'")
        guard backup.status == 0 else { throw BuildFailure(description: "sqlite3 .backup exited \(backup.status): \(backup.stderr)") }
        return target
    }
}
