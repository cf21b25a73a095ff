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

    static let help = ArgumentHelp("Where errtriage serve is reached (http://HOST:PORT, or https behind a proxy), the base of each DSN.",
                                   valueName: "url")

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

        @OptionGroup var options: StoreOptions

        @Argument(help: "The project's name (ios, android, web …).")
        var name: String

        @Option(help: DSNBaseArgument.help, transform: DSNBaseArgument.parse)
        var url = DSNBaseArgument(base: .default)

        func run() throws {
            try runReporting {
                let now = try options.nowTimestamp()
                let key = try options.open().addProjectKey(project: name, at: now)
                print(ProjectKeyText.added(key, base: url.base), terminator: "")
            }
        }
    }

    /// `key list [--format json] [--url URL]`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the projects with their keys, active and revoked, and DSNs.")

        enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

        @OptionGroup var options: StoreOptions

        @Option(help: "text or json.")
        var format: Format = .text

        @Option(help: DSNBaseArgument.help, transform: DSNBaseArgument.parse)
        var url = DSNBaseArgument(base: .default)

        func run() throws {
            try runReporting {
                let projects = try options.openForReading(now: try options.nowTimestamp()).projects()
                switch format {
                case .text: print(ProjectKeyText.list(projects, base: url.base), terminator: "")
                case .json: print(ProjectKeyText.json(projects, base: url.base).inertSerialized)
                }
            }
        }
    }

    /// `key revoke KEY|NAME`.
    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key, or every key of a project; revoked keys are kept and refused by serve.")

        @OptionGroup var options: StoreOptions

        @Argument(help: "A key, or a project's name to revoke all of its keys.")
        var keyOrProject: String

        func run() throws {
            try runReporting {
                let now = try options.nowTimestamp()
                let revoked = try options.openExisting().revokeKeys(matching: keyOrProject, at: now)
                print(ProjectKeyText.revoked(revoked, asked: keyOrProject), terminator: "")
            }
        }
    }
}
