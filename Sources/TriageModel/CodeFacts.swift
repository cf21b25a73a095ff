/// Where errtriage reads a project's code: a local git checkout (`--repo DIR`, `ERRTRIAGE_REPO`,
/// `errtriage project set NAME --repo DIR`), how the frames' paths map into it (`--path-map`), and
/// how a release names a commit (`--release-ref`).
public struct CodeSettings: Hashable, Sendable {
    /// The checkout's folder (any folder inside it), as given.
    public var repo: String?
    /// Prefixes of the paths the SDKs wrote, each replaced by a folder of the checkout, tried in order.
    public var pathMaps: [PathMapping]
    /// How a release names its commit, e.g. `release-{version}` (nil: `v{version}`, `{version}`, `{release}`).
    public var releaseRef: String?
    /// Where `repo` was named, for sentences: `--repo`, `ERRTRIAGE_REPO`, `project shop`.
    public var origin: String?

    public init(repo: String? = nil, pathMaps: [PathMapping] = [], releaseRef: String? = nil, origin: String? = nil) {
        self.repo = repo
        self.pathMaps = pathMaps
        self.releaseRef = releaseRef
        self.origin = origin
    }

    /// Whether it says anything.
    public var isEmpty: Bool { repo == nil && pathMaps.isEmpty && releaseRef == nil }

    /// The settings for one lookup, each part from the first that gives it: the command line's
    /// (`--repo`, `--path-map`, `--release-ref`), then `ERRTRIAGE_REPO` (a checkout only), then
    /// the project's own (`project set`), as options beat the environment and both beat what is stored.
    public static func resolve(commandLine: CodeSettings, environmentRepo: String?, project: (name: String, settings: CodeSettings)?) -> CodeSettings {
        var resolved = commandLine
        if resolved.repo != nil {
            resolved.origin = resolved.origin ?? "--repo"
        } else if let env = environmentRepo, !env.isEmpty {
            resolved.repo = env
            resolved.origin = "ERRTRIAGE_REPO"
        } else if let project, let repo = project.settings.repo {
            resolved.repo = repo
            resolved.origin = "project \(project.name)"
        }
        if let project {
            if resolved.pathMaps.isEmpty { resolved.pathMaps = project.settings.pathMaps }
            if resolved.releaseRef == nil { resolved.releaseRef = project.settings.releaseRef }
        }
        return resolved
    }

    /// The settings for an issue whose events came from `projects` (by name): `resolve` with the
    /// first of those projects `project set` gave a checkout, else the first it said anything of;
    /// an issue whose events name no project (read from files) takes the store's one project with a
    /// checkout, where there is exactly one.
    public static func forIssue(projects: [String], stored: [String: CodeSettings], commandLine: CodeSettings,
                                environmentRepo: String?) -> CodeSettings {
        var named = projects.compactMap { name in stored[name].map { (name: name, settings: $0) } }
        if projects.isEmpty {
            let withCheckout = stored.filter { $0.value.repo != nil }
            if withCheckout.count == 1, let only = withCheckout.first { named = [(only.key, only.value)] }
        }
        let project = named.first { $0.settings.repo != nil } ?? named.first { !$0.settings.isEmpty }
        return resolve(commandLine: commandLine, environmentRepo: environmentRepo, project: project)
    }

    /// The sentence for a lookup without a checkout: how to name one.
    public static let noCheckout = "No checkout of the code: start with --repo DIR (or set ERRTRIAGE_REPO, or errtriage project set NAME --repo DIR)."
}

/// One `--path-map FROM=TO`: a path that starts with `FROM` (as the SDK wrote it: `/srv/app/`)
/// names the checkout's file `TO` + the rest (`src/`).
public struct PathMapping: Hashable, Sendable, CustomStringConvertible {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    /// `FROM=TO`, split at the last `=` (a path may hold one; a checkout's folder rarely does);
    /// nil with why for a text that is not one.
    public static func parse(_ text: String) -> Result<PathMapping, PathMappingError> {
        guard let equals = text.lastIndex(of: "=") else {
            return .failure(PathMappingError(description: "--path-map '\(text)' is not FROM=TO (e.g. /srv/app/=src/)"))
        }
        let from = String(text[..<equals]), to = String(text[text.index(after: equals)...])
        guard !from.isEmpty else { return .failure(PathMappingError(description: "--path-map '\(text)' maps an empty prefix (e.g. /srv/app/=src/)")) }
        guard !text.contains("\n"), !text.contains("\0") else {
            return .failure(PathMappingError(description: "a --path-map holds no line breaks or NUL characters"))
        }
        let parts = to.split(separator: "/")
        guard !to.hasPrefix("/"), !parts.contains("..") else {
            return .failure(PathMappingError(description: "--path-map '\(text)': TO is a folder inside the checkout (relative, no '..')"))
        }
        return .success(PathMapping(from: from, to: to))
    }

    public var description: String { "\(from)=\(to)" }

    /// The checkout's path for `path`, when it starts with `from`.
    public func apply(_ path: String) -> String? {
        guard path.hasPrefix(from) else { return nil }
        var rest = String(path.dropFirst(from.count))
        if !to.isEmpty, !to.hasSuffix("/"), !rest.hasPrefix("/") { rest = "/" + rest }
        var mapped = to + rest
        while mapped.hasPrefix("/") { mapped.removeFirst() }
        while mapped.hasPrefix("./") { mapped.removeFirst(2) }
        return mapped.isEmpty ? nil : mapped
    }

    /// Several mappings as one stored text, one a line; and back (bad lines left out).
    public static func joined(_ maps: [PathMapping]) -> String? {
        maps.isEmpty ? nil : maps.map(\.description).joined(separator: "\n")
    }

    public static func split(_ text: String?) -> [PathMapping] {
        (text ?? "").split(separator: "\n").compactMap { try? parse(String($0)).get() }
    }
}

/// Why a `--path-map` is refused.
public struct PathMappingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
}

/// A commit as a suspect: the last change to a raising line.
public struct CodeCommit: Hashable, Sendable {
    /// The full hash.
    public var hash: String
    public var author: String
    public var email: String?
    /// When it was authored.
    public var date: Timestamp
    public var subject: String

    public init(hash: String, author: String, email: String? = nil, date: Timestamp, subject: String) {
        self.hash = hash
        self.author = author
        self.email = email
        self.date = date
        self.subject = subject
    }

    /// The first 7 digits, as git abbreviates.
    public var shortHash: String { String(hash.prefix(7)) }
}

/// The commit a checkout was read at, and why that one.
public struct CodeRevision: Hashable, Sendable {
    /// The full hash.
    public var commit: String
    /// What names it: the release's tag (`v2.1.0`), or `HEAD`.
    public var name: String
    /// Whether it is the release's own commit (else HEAD, or HEAD as it stood before the issue began).
    public var isRelease: Bool
    /// Why not the release's, where it is not: `release 2.1.0 names no tag (tried v2.1.0, 2.1.0)`.
    public var note: String?

    public init(commit: String, name: String, isRelease: Bool, note: String? = nil) {
        self.commit = commit
        self.name = name
        self.isRelease = isRelease
        self.note = note
    }

    /// `v2.1.0 (a1b2c3d)`; a commit named by its hash alone, `a1b2c3d`.
    public var label: String { name == String(commit.prefix(7)) ? name : "\(name) (\(commit.prefix(7)))" }
}

/// Lines of a file around a frame's line, read from the checkout.
public struct SourceExcerpt: Hashable, Sendable {
    /// The number of the first line given.
    public var firstLine: Int
    public var lines: [String]
    /// The frame's line.
    public var line: Int
    /// The revision they were read at.
    public var revision: String

    public init(firstLine: Int, lines: [String], line: Int, revision: String) {
        self.firstLine = firstLine
        self.lines = lines
        self.line = line
        self.revision = revision
    }

    /// The lines within `radius` of the frame's.
    public func around(radius: Int) -> SourceExcerpt {
        let first = max(firstLine, line - radius), last = min(firstLine + lines.count - 1, line + radius)
        guard first <= last else { return self }
        return SourceExcerpt(firstLine: first, lines: Array(lines[(first - firstLine)...(last - firstLine)]), line: line, revision: revision)
    }

    /// Each line with its number, the frame's marked.
    public var numbered: [(number: Int, text: String, isFrameLine: Bool)] {
        lines.enumerated().map { (firstLine + $0.offset, $0.element, firstLine + $0.offset == line) }
    }
}

/// One frame looked up in a checkout: its file there, the line's last commit, its owners, and
/// the lines around it. What could not be told says why in `problems`, a sentence each.
public struct CodeSite: Hashable, Sendable {
    /// The checkout's file, relative to its root; nil when the frame maps to none.
    public var path: String?
    /// The same as an absolute path, for an editor.
    public var absolutePath: String?
    public var line: Int?
    /// How the path was found (`filename`, `abs_path`, `module`, `--path-map`).
    public var via: String?
    /// The last commit that changed the line, at the revision the lookup read.
    public var suspect: CodeCommit?
    /// The owners CODEOWNERS gives the file (its last matching rule; one per GitLab section).
    public var owners: [String]
    /// Where they come from: `.github/CODEOWNERS:4 /billing/`.
    public var ownersRule: String?
    /// The lines around the frame's line, where asked for.
    public var source: SourceExcerpt?
    /// A sentence for each part that could not be told.
    public var problems: [String]
    /// Where the line stands in the working tree now, where edits since the revision moved it
    /// (nil: where it was); what the editor opens.
    public var workingLine: Int?
    /// Whether the line itself was changed since the revision.
    public var changedSince = false

    public init(path: String? = nil, absolutePath: String? = nil, line: Int? = nil, via: String? = nil, suspect: CodeCommit? = nil,
                owners: [String] = [], ownersRule: String? = nil, source: SourceExcerpt? = nil, problems: [String] = []) {
        self.path = path
        self.absolutePath = absolutePath
        self.line = line
        self.via = via
        self.suspect = suspect
        self.owners = owners
        self.ownersRule = ownersRule
        self.source = source
        self.problems = problems
    }

    /// `billing/amounts.py:41`.
    public var place: String? { path.map { p in line.map { "\(p):\($0)" } ?? p } }
}

/// What a checkout tells of some frames (an issue's raise sites, outermost first; or every frame
/// of an event), read at one revision; or the sentence why it tells nothing.
public struct CodeFacts: Hashable, Sendable {
    /// The checkout's root.
    public var checkout: String?
    /// Why nothing could be read: no checkout named, not a git repository, git missing or too slow.
    public var problem: String?
    /// The revision suspects and source lines were read at.
    public var revision: CodeRevision?
    /// One per frame asked about, in the order asked (nil where there was no frame).
    public var sites: [CodeSite?]

    public init(checkout: String? = nil, problem: String? = nil, revision: CodeRevision? = nil, sites: [CodeSite?] = []) {
        self.checkout = checkout
        self.problem = problem
        self.revision = revision
        self.sites = sites
    }

    /// Facts that say only why there are none.
    public static func unavailable(_ problem: String, checkout: String? = nil) -> CodeFacts {
        CodeFacts(checkout: checkout, problem: problem)
    }

    /// The owners suggested for the issue: the first raise site's that has any, innermost first
    /// (the root cause's file), as owner rules and assignees take one name.
    public var suggestedOwners: [String] {
        sites.reversed().lazy.compactMap { $0 }.first { !$0.owners.isEmpty }?.owners ?? []
    }
}

/// Where an issue's links were raised, as its latest kept event says: the event, its release,
/// and each link's raising frame, outermost first (nil where its stack names none).
public struct RaiseFrames: Hashable, Sendable {
    public var eventID: String
    public var release: String?
    public var frames: [EventFrame?]

    public init(eventID: String, release: String?, frames: [EventFrame?]) {
        self.eventID = eventID
        self.release = release
        self.frames = frames
    }

    /// Each link's place, as the detail shows it.
    public var locations: [FrameLocation?] { frames.map { $0?.location } }
}
