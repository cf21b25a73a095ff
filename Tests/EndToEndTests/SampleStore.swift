import Foundation

/// The demo store built once from sample-data/ for every test that needs it, as `errtriage demo` builds it.
enum SampleStore {
    static let end = "2026-11-20T18:00:00Z"

    /// The store's path; built on first use.
    static let path: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-sample-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("sample.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["demo", "--report", "--store", store,
                             "--sample-data", CLI.packageRoot.appendingPathComponent("sample-data").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        return store
    }()

    /// A private copy, for tests that write.
    static func copy(to folder: URL) throws -> String {
        let target = folder.appendingPathComponent("sample-copy.sqlite").path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["sqlite3", path, ".backup '\(target)'"]
        try sqlite.run()
        sqlite.waitUntilExit()
        return target
    }
}
