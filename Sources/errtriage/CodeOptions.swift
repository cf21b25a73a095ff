import ArgumentParser
import CodeCheckout
import DashboardRuntime
import Foundation
import TriageIngest
import TriageModel
import TriageStore

/// `--repo`, `--path-map` and `--release-ref`: where the code of the store's projects is checked
/// out, for the suspect commits, owners, source lines and `e` (issue 48). Without them,
/// `ERRTRIAGE_REPO`, then each project's `errtriage project set`.
struct CodeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A local git checkout of the code (any folder of it), read and never written: suspect commits, CODEOWNERS, source lines, e in the dashboard (default: $ERRTRIAGE_REPO, else the project's, errtriage project set).",
                               valueName: "dir"))
    var repo: String?

    @Option(name: .customLong("path-map"),
            help: ArgumentHelp("A prefix of the paths the SDK wrote and the checkout's folder it stands for, e.g. /srv/app/=src/ (repeatable).", valueName: "from=to"),
            transform: CodeOptions.pathMap)
    var pathMaps: [PathMapping] = []

    @Option(name: .customLong("release-ref"),
            help: ArgumentHelp("How a release names its commit: a tag or ref with {release}, {version} or {package} (default: v{version}, {version}, {release}).",
                               valueName: "pattern"))
    var releaseRef: String?

    static func pathMap(_ text: String) throws -> PathMapping {
        switch PathMapping.parse(text) {
        case .success(let map): return map
        case .failure(let error): throw ValidationError(error.description)
        }
    }

    /// What the command line says, the checkout made absolute.
    var settings: CodeSettings {
        CodeSettings(repo: repo.map(CodeOptions.absolute), pathMaps: pathMaps, releaseRef: releaseRef, origin: repo == nil ? nil : "--repo")
    }

    /// `ERRTRIAGE_REPO`, made absolute.
    static var environmentRepo: String? {
        ProcessInfo.processInfo.environment["ERRTRIAGE_REPO"].flatMap { $0.isEmpty ? nil : absolute($0) }
    }

    /// A folder as an absolute path: `~` expanded, a relative one from the current folder.
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        guard !expanded.hasPrefix("/") else { return expanded }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// The settings for one issue: these options over `ERRTRIAGE_REPO` over its project's.
    func settings(_ store: TriageStore, issueKey: String) throws -> CodeSettings {
        try CodeEffects.settings(store, issueKey: issueKey, commandLine: settings, environmentRepo: CodeOptions.environmentRepo)
    }

    /// What the checkout says of an issue's raise sites (nil where no kept event names them).
    func facts(_ store: TriageStore, issueKey: String, firstSeen: Timestamp, lookup: CodeLookup = CodeLookup()) throws -> CodeFacts? {
        guard let raise = try store.raiseFrames(issueKey: issueKey), raise.frames.contains(where: { $0 != nil }) else { return nil }
        return lookup.raiseSites(raise, firstSeen: firstSeen, settings: try settings(store, issueKey: issueKey))
    }

    /// Whether any checkout is named anywhere: these options, the environment, a project.
    func anyCheckout(_ store: TriageStore) throws -> Bool {
        if repo != nil || CodeOptions.environmentRepo != nil { return true }
        return try store.projectCodeSettings().contains { $0.code.repo != nil }
    }
}
