import ChildProcess
import Foundation

/// A git repository made in a test's temporary folder: files written, committed by a named author
/// at a given time, tagged; the code a checkout lookup reads. git runs with no global or system
/// configuration, so the machine's settings change nothing.
public final class ThrowawayRepo: @unchecked Sendable {
    public let folder: TemporaryFolder
    /// The repository's folder (its name may hold spaces).
    public let root: String

    /// An author and committer.
    public struct Person: Sendable {
        public var name: String
        public var email: String

        public init(_ name: String, _ email: String) {
            self.name = name
            self.email = email
        }
    }

    public init(name: String = "shop repo") throws {
        folder = try TemporaryFolder("errtriage-repo")
        root = folder.path(name)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"])
    }

    /// Writes a file of the repository (its folders made).
    public func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Commits everything written, as `author` at `date` (ISO 8601); the commit's hash.
    @discardableResult
    public func commit(_ message: String, by author: Person, at date: String) throws -> String {
        try git(["add", "-A"])
        let env = ["GIT_AUTHOR_NAME": author.name, "GIT_AUTHOR_EMAIL": author.email, "GIT_AUTHOR_DATE": date,
                   "GIT_COMMITTER_NAME": author.name, "GIT_COMMITTER_EMAIL": author.email, "GIT_COMMITTER_DATE": date]
        try git(["commit", "-q", "-m", message], environment: env)
        return try git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Tags HEAD (a lightweight tag).
    public func tag(_ name: String) throws {
        try git(["tag", name])
    }

    /// Runs git in the repository; its standard output. A failure throws with what git said.
    @discardableResult
    public func git(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let env = ["GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": folder.path, "LC_ALL": "C"]
            .merging(environment) { $1 }
        let run = try ChildProcess.run(["git", "-C", root] + arguments, environment: env)
        guard run.status == 0 else { throw Failure(description: "git \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.stdout
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }
}
