import ArgumentParser
import Foundation
import Presentation
import TriageModel
import TriageStore

/// `errtriage project`: what errtriage knows of each project beyond its keys: where its code is
/// checked out (issue 48).
struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project", abstract: "Set and list where each project's code is checked out, for suspect commits, owners, source lines and e.",
        subcommands: [Set.self, List.self])

    /// `project set NAME [--repo DIR] [--path-map FROM=TO]… [--release-ref PATTERN]`.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name a project's checkout, path map and release pattern (the project is made when new).",
            discussion: """
                Each option given replaces what is stored; an empty --repo or --release-ref, or --no-path-map, clears it. \
                The dashboard, show, event, ticket, meeting and owner apply read the checkout of the project an issue's \
                events came from, unless --repo or ERRTRIAGE_REPO names another.
                """)

        @OptionGroup var location: StoreOnlyOptions

        @Argument(help: "The project's name (as key add names it).")
        var name: String

        @Option(help: ArgumentHelp("A local git checkout of the project's code (made absolute).", valueName: "dir"))
        var repo: String?

        @Option(name: .customLong("path-map"), help: ArgumentHelp("FROM=TO: a prefix of the SDK's paths and the checkout's folder for it (repeatable).",
                                                                  valueName: "from=to"), transform: CodeOptions.pathMap)
        var pathMaps: [PathMapping] = []

        @Flag(name: .customLong("no-path-map"), help: "Clear the project's path maps.")
        var noPathMap = false

        @Option(name: .customLong("release-ref"), help: ArgumentHelp("How a release names its commit, e.g. release-{version}.", valueName: "pattern"))
        var releaseRef: String?

        @Option(help: "When the project is made, if new (ISO 8601; default: now).")
        var at: String?

        func run() throws {
            guard repo != nil || !pathMaps.isEmpty || noPathMap || releaseRef != nil else {
                throw CLIError.usage("project set \(name): nothing to set (--repo DIR, --path-map FROM=TO, --no-path-map or --release-ref PATTERN)")
            }
            guard !(noPathMap && !pathMaps.isEmpty) else { throw CLIError.usage("--path-map and --no-path-map cannot go together") }
            let store = try location.options.open(for: .writing)
            let folder = repo.map { $0.isEmpty ? "" : CodeOptions.absolute($0) }
            let (settings, made) = try store.setProjectCode(project: name, repo: folder, pathMaps: noPathMap ? [] : pathMaps.isEmpty ? nil : pathMaps,
                                                            releaseRef: releaseRef, at: try stamp(at))
            if made { print("project \(name) made") }
            print(ProjectText.line(name: name, settings))
            if let folder, !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                Stderr.write("note: \(folder) does not exist on this machine (yet)\n")
            }
        }
    }

    /// `project list [--format json]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the projects with their checkouts, path maps and release patterns.")

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

        @OptionGroup var location: StoreOnlyOptions

        @Option(help: "text or json.")
        var format: Format = .text

        func run() throws {
            let projects = try location.options.open(for: .reading(now: try stamp(nil))).projectCodeSettings()
            switch format {
            case .text:
                if projects.isEmpty { print("no projects (errtriage key add NAME, or project set NAME --repo DIR, makes one)") }
                for (project, code) in projects { print(ProjectText.line(name: project.name, code)) }
            case .json:
                print(JSONValue.array(projects.map { ProjectText.json(name: $0.project.name, $0.code) }).inertSerialized)
            }
        }
    }
}
