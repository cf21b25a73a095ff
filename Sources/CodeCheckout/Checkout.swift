import ChildProcess
import Foundation
import TriageModel

/// A local git checkout, read through `git` and never written: its root, its tracked files, its
/// CODEOWNERS, a release's commit, a line's last commit and a file's lines at a commit. Every
/// failure is a sentence (`Checkout.Problem`). What it reads of HEAD is kept until HEAD moves.
public final class Checkout: @unchecked Sendable {  // what it keeps of HEAD is guarded by `lock`
    /// The checkout's root (git's top level).
    public let root: String
    let git: Git
    private let lock = NSLock()
    private var head: String?
    private var mapper: FrameMapper?
    private var mapperMaps: [PathMapping] = []
    private var owners: CodeOwners??
    private var files: [String: [String]] = [:]
    private var fileOrder: [String] = []

    /// A sentence: why something could not be read.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    init(root: String, git: Git) {
        self.root = root
        self.git = git
    }

    /// The checkout holding `directory` (any folder of it; `~` is the home folder).
    public static func open(_ directory: String, git: Git = Git(), deadline: Double? = nil) -> Result<Checkout, Problem> {
        let path = (directory as NSString).expandingTildeInPath
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return .failure(Problem("the checkout \(directory) does not exist"))
        }
        guard isFolder.boolValue else { return .failure(Problem("the checkout \(directory) is a file, not a folder")) }
        switch git.run(["rev-parse", "--show-toplevel"], in: path, deadline: deadline) {
        case .success(let out):
            let root = out.stdout.hasSuffix("\n") ? String(out.stdout.dropLast()) : out.stdout
            guard !root.isEmpty else { return .failure(Problem("\(directory) is not a git checkout (it is inside a repository's .git folder)")) }
            return .success(Checkout(root: root, git: git))
        case .failure(.failed(_, let message)) where message.contains("not a git repository"):
            return .failure(Problem("\(directory) is not a git repository (git rev-parse finds none there or above)"))
        case .failure(let failure):
            return .failure(Problem("cannot read the checkout \(directory): \(failure)"))
        }
    }

    func run(_ arguments: [String], deadline: Double?) -> Result<String, Problem> {
        git.run(arguments, in: root, deadline: deadline).map(\.stdout).mapError { Problem($0.description) }
    }

    /// HEAD's commit; a checkout without a commit says so.
    public func headCommit(deadline: Double? = nil) -> Result<String, Problem> {
        switch git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: root, deadline: deadline) {
        case .success(let out):
            let hash = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            return hash.isEmpty ? .failure(Problem("the checkout \(root) has no commit yet")) : .success(hash)
        case .failure(.failed): return .failure(Problem("the checkout \(root) has no commit yet"))
        case .failure(let failure): return .failure(Problem(failure.description))
        }
    }

    /// A commit that `ref` names (a tag first, then any name git takes); nil where it names none.
    public func commit(named ref: String, deadline: Double? = nil) -> Result<String?, Problem> {
        for name in ["refs/tags/" + ref, ref] where !name.hasPrefix("-") {
            switch git.run(["rev-parse", "--verify", "--quiet", name + "^{commit}"], in: root, deadline: deadline) {
            case .success(let out):
                let hash = out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if !hash.isEmpty { return .success(hash) }
            case .failure(.failed): continue
            case .failure(let failure): return .failure(Problem(failure.description))
            }
        }
        return .success(nil)
    }

    /// The newest commit of HEAD's history made before `time`; nil where every commit is newer.
    public func commit(before time: Timestamp, deadline: Double? = nil) -> Result<String?, Problem> {
        run(["rev-list", "-1", "--before=@\(time.millis / 1000)", "HEAD"], deadline: deadline).map {
            let hash = $0.trimmingCharacters(in: .whitespacesAndNewlines)
            return hash.isEmpty ? nil : hash
        }
    }

    /// The tracked files (`git ls-files`) as a mapper with these path maps, read again when HEAD moves.
    public func mapper(pathMaps: [PathMapping], head: String, deadline: Double? = nil) -> Result<FrameMapper, Problem> {
        lock.lock()
        if self.head == head, let mapper, mapperMaps == pathMaps {
            lock.unlock()
            return .success(mapper)
        }
        lock.unlock()
        return run(["ls-files", "-z"], deadline: deadline).map { out in
            let mapper = FrameMapper(files: out.split(separator: "\0").map(String.init), pathMaps: pathMaps)
            lock.withLock {
                if self.head != head { owners = nil }
                self.head = head
                self.mapper = mapper
                mapperMaps = pathMaps
            }
            return mapper
        }
    }

    /// The CODEOWNERS of HEAD (the first of `CodeOwners.locations` it holds); nil where it has none.
    public func codeOwners(head: String, tracked: Set<String>, deadline: Double? = nil) -> Result<CodeOwners?, Problem> {
        if let cached = lock.withLock({ self.head == head ? owners : nil }) { return .success(cached) }
        guard let location = CodeOwners.locations.first(where: tracked.contains) else {
            lock.withLock { if self.head == head { owners = .some(nil) } }
            return .success(nil)
        }
        return run(["show", "\(head):\(location)"], deadline: deadline).map { text in
            let parsed = CodeOwners.parse(text, file: location)
            lock.withLock { if self.head == head { owners = .some(parsed) } }
            return parsed
        }
    }

    /// The last commit that changed `line` of `path` at `commit`: `git blame --porcelain -L`.
    public func blame(_ path: String, line: Int, at commit: String, revisionName: String, deadline: Double? = nil) -> Result<CodeCommit, Problem> {
        switch git.run(["blame", "--porcelain", "-L", "\(line),\(line)", commit, "--", path], in: root, deadline: deadline) {
        case .success(let out):
            guard let found = Blame.parse(out.stdout) else { return .failure(Problem("git blame gave no commit for \(path):\(line)")) }
            return .success(found)
        case .failure(.failed(_, let message)):
            return .failure(Problem(Checkout.sentence(message, path: path, line: line, revision: revisionName)))
        case .failure(let failure):
            return .failure(Problem(failure.description))
        }
    }

    /// The lines of `path` at `commit` (`git show COMMIT:PATH`), kept for the next ask.
    public func lines(_ path: String, at commit: String, revisionName: String, deadline: Double? = nil) -> Result<[String], Problem> {
        let key = commit + ":" + path
        if let cached = lock.withLock({ files[key] }) { return .success(cached) }
        switch git.run(["show", key], in: root, deadline: deadline) {
        case .success(let out):
            var lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            if lines.last == "" { lines.removeLast() }
            lock.withLock {
                files[key] = lines
                fileOrder.append(key)
                if fileOrder.count > 32 { files[fileOrder.removeFirst()] = nil }
            }
            return .success(lines)
        case .failure(.failed(_, let message)):
            return .failure(Problem(Checkout.sentence(message, path: path, line: nil, revision: revisionName)))
        case .failure(let failure):
            return .failure(Problem(failure.description))
        }
    }

    /// Where `line` of `path` at `commit` stands in the working tree (`git diff -U0 COMMIT -- PATH`);
    /// nil where git cannot tell.
    public func workingLine(_ path: String, line: Int, since commit: String, deadline: Double? = nil) -> (line: Int, changed: Bool)? {
        guard case .success(let out) = git.run(["diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames", commit, "--", path],
                                               in: root, deadline: deadline) else { return nil }
        return LineShift.map(line, diff: out.stdout)
    }

    /// git's message as errtriage's sentence: a file missing at the revision, a line past its end.
    static func sentence(_ message: String, path: String, line: Int?, revision: String) -> String {
        if let range = message.range(of: "has only ") {
            let count = message[range.upperBound...].prefix { $0.isNumber }
            return "line \(line ?? 0) is past the end of \(path) at \(revision) (\(count) lines)"
        }
        if message.contains("no such path") || message.contains("does not exist in") || message.contains("exists on disk, but not in") {
            return "\(path) is not in \(revision)"
        }
        return message
    }
}
