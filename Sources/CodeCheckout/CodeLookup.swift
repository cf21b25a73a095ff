import ChildProcess
import Foundation
import TriageModel

/// Reads what a checkout says of frames: each frame's file and line there, the line's last commit
/// before the issue began, the file's owners by CODEOWNERS, and the lines around it; at the
/// commit the event's release names where one does. Checkouts are kept open between lookups, so a
/// dashboard reads the tracked files once per HEAD. Every lookup is bounded in time as a whole
/// (twice git's bound): what is left when it runs out says so.
public final class CodeLookup: @unchecked Sendable {  // `checkouts` is guarded by `lock`
    let git: Git
    private let lock = NSLock()
    private var checkouts: [String: Checkout] = [:]

    public init(git: Git = Git()) {
        self.git = git
    }

    /// What to read of each frame.
    public struct Parts: Hashable, Sendable {
        /// The line's last commit (`git blame`), for in-app frames.
        public var suspects: Bool
        /// The file's owners by CODEOWNERS.
        public var owners: Bool
        /// Lines around each frame's line, for the frames whose index is in the set.
        public var sourceFor: Set<Int>
        /// How many lines before and after the frame's line.
        public var sourceRadius: Int

        public init(suspects: Bool = false, owners: Bool = false, sourceFor: Set<Int> = [], sourceRadius: Int = 5) {
            self.suspects = suspects
            self.owners = owners
            self.sourceFor = sourceFor
            self.sourceRadius = sourceRadius
        }
    }

    /// An issue's raise sites (one per link, outermost first): each file, suspect and owners, at the
    /// release's commit where it maps, else at the last commit before the issue's first event.
    public func raiseSites(_ raise: RaiseFrames, firstSeen: Timestamp?, settings: CodeSettings) -> CodeFacts {
        look(raise.frames, release: raise.release, before: firstSeen, settings: settings, parts: Parts(suspects: true, owners: true))
    }

    /// An event's frames (in `EventDetail.allFrames`' order): each file, with the lines around it
    /// for the frames the SDK sent no source for, at the release's commit where it maps, else at HEAD.
    public func eventFrames(_ event: EventDetail, settings: CodeSettings) -> CodeFacts {
        let frames = event.allFrames
        let wanting = Set(frames.indices.filter { frames[$0].contextLine == nil && frames[$0].line != nil && frames[$0].inApp != false })
        return look(frames.map { $0 }, release: event.release, before: nil, settings: settings, parts: Parts(owners: true, sourceFor: wanting))
    }

    /// The lookup: the checkout, its HEAD, the revision, then each frame.
    public func look(_ frames: [EventFrame?], release: String?, before: Timestamp?, settings: CodeSettings, parts: Parts) -> CodeFacts {
        guard let repo = settings.repo else { return .unavailable(CodeSettings.noCheckout) }
        let deadline = ChildProcess.clock() + 2 * git.timeout
        let checkout: Checkout
        switch open(repo, deadline: deadline) {
        case .success(let opened): checkout = opened
        case .failure(let problem): return .unavailable(problem.description)
        }
        let head: String
        switch checkout.headCommit(deadline: deadline) {
        case .success(let hash): head = hash
        case .failure(let problem): return .unavailable(problem.description, checkout: checkout.root)
        }
        let mapper: FrameMapper
        switch checkout.mapper(pathMaps: settings.pathMaps, head: head, deadline: deadline) {
        case .success(let m): mapper = m
        case .failure(let problem): return .unavailable(problem.description, checkout: checkout.root)
        }
        var facts = CodeFacts(checkout: checkout.root)
        let revision = choose(checkout, head: head, release: release, pattern: settings.releaseRef, before: before, deadline: deadline)
        facts.revision = revision
        var owners: CodeOwners?
        var ownersProblem: String?
        if parts.owners {
            switch checkout.codeOwners(head: head, tracked: mapper.files, deadline: deadline) {
            case .success(let found): owners = found
            case .failure(let problem): ownersProblem = "CODEOWNERS: \(problem)"
            }
        }
        facts.sites = frames.enumerated().map { index, frame in
            guard let frame else { return nil }
            var site = CodeSite(line: frame.line)
            switch mapper.map(frame) {
            case .none(let why):
                site.problems.append(why)
                return site
            case .file(let path, let via):
                site.path = path
                site.via = via
                site.absolutePath = checkout.root.hasSuffix("/") ? checkout.root + path : checkout.root + "/" + path
            }
            let path = site.path!
            // The editor opens the working tree, where edits since the revision may have moved the line.
            if let line = frame.line, line > 0, let shifted = checkout.workingLine(path, line: line, since: revision.commit, deadline: deadline),
               shifted.line != line || shifted.changed {
                site.workingLine = shifted.line
                site.changedSince = shifted.changed
            }
            if parts.owners {
                if let owners {
                    let found = owners.owners(of: path)
                    site.owners = found.owners
                    site.ownersRule = owners.describe(found.rules)
                } else if let ownersProblem, !site.problems.contains(ownersProblem) {
                    site.problems.append(ownersProblem)
                }
            }
            let wantsSuspect = parts.suspects && frame.inApp != false
            let wantsSource = parts.sourceFor.contains(index)
            guard wantsSuspect || wantsSource else { return site }
            guard let line = frame.line, line > 0 else {
                site.problems.append("the frame names no line of \(path)")
                return site
            }
            if wantsSuspect {
                switch checkout.blame(path, line: line, at: revision.commit, revisionName: revision.name, deadline: deadline) {
                case .success(let commit): site.suspect = commit
                case .failure(let problem): site.problems.append(problem.description)
                }
            }
            if wantsSource {
                switch checkout.lines(path, at: revision.commit, revisionName: revision.name, deadline: deadline) {
                case .success(let lines):
                    if line > lines.count {
                        let problem = "line \(line) is past the end of \(path) at \(revision.name) (\(lines.count) lines)"
                        if !site.problems.contains(problem) { site.problems.append(problem) }
                    } else {
                        let first = max(1, line - parts.sourceRadius), last = min(lines.count, line + parts.sourceRadius)
                        site.source = SourceExcerpt(firstLine: first, lines: Array(lines[(first - 1)..<last]), line: line, revision: revision.name)
                    }
                case .failure(let problem):
                    if !site.problems.contains(problem.description) { site.problems.append(problem.description) }
                }
            }
            return site
        }
        return facts
    }

    /// The commit to read at: the release's where a name for it is a commit; else HEAD as it stood
    /// before `before` (the issue's first event), else HEAD; saying why.
    func choose(_ checkout: Checkout, head: String, release: String?, pattern: String?, before: Timestamp?, deadline: Double) -> CodeRevision {
        var note: String
        if let release {
            let names = ReleaseRef.candidates(release: release, pattern: pattern)
            for name in names {
                if case .success(let commit?) = checkout.commit(named: name, deadline: deadline) {
                    return CodeRevision(commit: commit, name: name, isRelease: true)
                }
            }
            note = "release \(release) names no commit of the checkout (tried \(names.joined(separator: ", "))\(pattern == nil ? "; --release-ref PATTERN names others" : ""))"
        } else {
            note = "the event names no release"
        }
        if let before, case .success(let commit?) = checkout.commit(before: before, deadline: deadline), commit != head {
            note += ": read at \(commit.prefix(7)), HEAD's last commit before the issue's first event (\(before.dateText))"
            return CodeRevision(commit: commit, name: String(commit.prefix(7)), isRelease: false, note: note)
        }
        note += ": read at HEAD"
        return CodeRevision(commit: head, name: "HEAD", isRelease: false, note: note)
    }

    /// The checkout for a repository as named, opened once.
    func open(_ repo: String, deadline: Double) -> Result<Checkout, Checkout.Problem> {
        if let open = lock.withLock({ checkouts[repo] }) { return .success(open) }
        let opened = Checkout.open(repo, git: git, deadline: deadline)
        if case .success(let checkout) = opened { lock.withLock { checkouts[repo] = checkout } }
        return opened
    }
}
