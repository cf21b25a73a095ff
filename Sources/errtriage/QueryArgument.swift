import ArgumentParser
import TriageModel

/// A query given on the command line (`--query 'os:17* has:complaints'`), read when the command
/// line is parsed; a bad term is refused there in one sentence, with the exit code of every usage error.
struct QueryArgument: ExpressibleByArgument {
    /// The parsed query.
    let query: SearchQuery

    /// The query, or nil when the text does not parse.
    init?(argument: String) {
        guard let query = try? SearchQuery.parse(argument) else { return nil }
        self.query = query
    }

    /// The query; a text that does not parse is refused with the sentence naming the bad term.
    static func parse(_ text: String) throws -> QueryArgument {
        do {
            return QueryArgument(query: try SearchQuery.parse(text))
        } catch {
            throw ValidationError(error.description)
        }
    }

    private init(query: SearchQuery) { self.query = query }

    /// The `--query` option's help, the same for every command that takes one.
    static let help = ArgumentHelp(
        "Only the issues a query lets through, e.g. 'domain:TolokaBackendError os:17* has:complaints' (docs/guide/queries.md).")
}
