import ArgumentParser
import Presentation
import TriageModel
import TriageStore

/// `--url`: where `errtriage serve` is reached, the base of the DSNs printed.
struct DSNBaseArgument: ExpressibleByArgument {
    var base: DSNBase

    init?(argument: String) {
        guard case .success(let base) = DSNBase.parse(argument) else { return nil }
        self.base = base
    }

    init(base: DSNBase) { self.base = base }

    static func parse(_ text: String) throws -> DSNBaseArgument {
        switch DSNBase.parse(text) {
        case .success(let base): return DSNBaseArgument(base: base)
        case .failure(let error): throw ValidationError(error.description)
        }
    }
}

/// `errtriage key`: projects and their public keys, which apps put in their DSN to send errors to `serve`.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Add, list and revoke projects' keys: the DSNs apps send errors to errtriage serve with.",
        subcommands: [Add.self, List.self, Revoke.self])

    /// `key add NAME [--url URL]`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a key to a project (made when new) and print its DSN.",
            discussion: "The key is 32 hex digits from the system's secure random source. A project name is letters, digits, '.', '_' and '-'.")

        @OptionGroup var location: StoreOnlyOptions

        @Argument(help: "The project's name (ios, android, web …).")
        var name: String

        @Option(help: ArgumentHelp("Where errtriage serve is reached (http://HOST:PORT, or https behind a proxy), the base of the DSN; kept with the key for key list (default: http://127.0.0.1:8000).",
                                   valueName: "url"), transform: DSNBaseArgument.parse)
        var url: DSNBaseArgument?

        @Option(help: "When the key is made (ISO 8601; default: now).")
        var at: String?

        func run() throws {
            let store = try location.options.open(for: .writing)
            let key = try store.addProjectKey(project: name, base: url?.base, at: try stamp(at))
            print(ProjectKeyText.added(key, store: store.target), terminator: "")
        }
    }

    /// `key list [--format json] [--url URL]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the projects with their keys, active and revoked, and DSNs.")

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

        @OptionGroup var location: StoreOnlyOptions

        @Option(help: "text or json.")
        var format: Format = .text

        @Option(help: ArgumentHelp("Print every DSN on this URL (http://HOST:PORT) instead of the one each key was added with.", valueName: "url"),
                transform: DSNBaseArgument.parse)
        var url: DSNBaseArgument?

        func run() throws {
            let options = location.options
            let projects = try options.open(for: .reading(now: try stamp(nil))).projects()
            switch format {
            case .text: print(ProjectKeyText.list(projects, base: url?.base), terminator: "")
            case .json: print(ProjectKeyText.json(projects, base: url?.base).inertSerialized)
            }
        }
    }

    /// `key revoke KEY|NAME`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key, or every key of a project; revoked keys are kept and refused by serve.")

        @OptionGroup var location: StoreOnlyOptions

        @Argument(help: "A key, or a project's name to revoke all of its keys.")
        var keyOrProject: String

        @Option(help: "When the key is revoked (ISO 8601; default: now).")
        var at: String?

        func run() throws {
            let now = try stamp(at)
            let revoked = try location.options.open(for: .deciding).revokeKeys(matching: keyOrProject, at: now)
            print(ProjectKeyText.revoked(revoked, asked: keyOrProject), terminator: "")
        }
    }
}
