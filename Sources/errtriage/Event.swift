import ArgumentParser
import CodeCheckout
import Foundation
import Presentation
import TriageIngest
import TriageModel
import TriageStore

/// `errtriage event ID`: one event the store keeps whole, read from its payload.
struct EventCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event",
        abstract: "Show one event kept whole: its exceptions and frames, breadcrumbs, tags, contexts, request, user and extra.",
        discussion: """
            The store keeps a sample of events whole (each issue's first and latest, the latest of each \
            release and environment, and up to 20 a day; errtriage ingest --keep-whole), their secrets \
            filtered. show KEY --format json lists an issue's kept events. --raw prints the payload as \
            stored: as it came, secrets aside.
            """)

    @OptionGroup var options: StoreOptions

    @Argument(help: "The event's id (show KEY --format json lists them).")
    var id: String

    @Option(help: "text or json.")
    var format: DetailFormat = .text

    @Flag(help: "Print the payload as the store keeps it (the JSON the source sent, secrets filtered).")
    var raw = false

    @OptionGroup(title: "The code") var code: CodeOptions

    func run() throws {
        let store = try options.open(for: .reading(now: options.nowTimestamp()))
        guard let (kept, detail) = try store.keptEventDetail(id: id) else {
            throw CLIError.usage("no event \(id) is kept whole in this store; only a sample of events is (show KEY --format json lists an issue's)")
        }
        if raw {
            // Byte for byte into a file or a pipe; made inert on a terminal, as exports are.
            let text = String(decoding: kept.payload, as: UTF8.self)
            if Stdout.isTerminal { print(text) } else { FileHandle.standardOutput.write(Data(kept.payload + [0x0A])) }
            return
        }
        // Source lines from the checkout where the SDK sent none, where one is named.
        let facts = try code.anyCheckout(store)
            ? CodeLookup().eventFrames(detail, settings: try code.settings(store, issueKey: kept.issueKey)) : nil
        switch format {
        case .json: print(EventDetailText.json(detail, issueKey: kept.issueKey, kept: kept.roles.names, code: facts).inertSerialized)
        case .text: print(EventDetailText.render(detail, issueKey: kept.issueKey, kept: kept.roles.names, code: facts), terminator: "")
        }
    }
}
