import Foundation

/// A fresh folder under the system's temporary folder, removed with everything in it when it goes.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder.
    public let url: URL
    /// The folder's path.
    public var path: String { url.path }

    /// Creates `PREFIX-UUID` in the temporary folder.
    public init(_ prefix: String = "errtriage-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a file in the folder and returns its path.
    @discardableResult
    public func file(_ name: String, _ contents: String) throws -> String {
        let path = path(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
