import Foundation

/// Tests/Fixtures/chain-vectors.json: chains with the key, full form and `error_codes_stack` both
/// sides must give them (ErrorChainKit building them, errtriage's importers reading them).
public struct ChainVectors: Decodable, Sendable {
    /// One chain.
    public struct Vector: Decodable, Sendable, CustomStringConvertible {
        public var about: String
        public var links: [Link]
        public var key: String
        public var full: String
        public var stack: String
        /// False where a Sentry event cannot carry the chain (an app's own short name).
        public var sentry: Bool?
        /// A logicError at this place.
        public var logic: Place?
        /// The key as a user may quote it (lower case): a complaint citing it cites `key`.
        public var cited: String?
        public var description: String { about }
    }

    /// One link, outermost first.
    public struct Link: Decodable, Sendable {
        public var domain: String
        public var code: Int
        /// Nil where the library knows no name for a foreign code.
        public var name: String?
        /// The app's own short name.
        public var short: String?
        /// A foreign NSError rather than a layer of the app.
        public var nserror: Bool?
        /// A case of a plain Swift enum (no raw values): its code derived from the type and the case's name.
        public var swiftEnum: Bool?
    }

    /// Where a logicError was called.
    public struct Place: Decodable, Sendable {
        public var fileID: String
        public var line: Int
        public var function: String
    }

    public var chains: [Vector]

    /// The vectors, read from the fixture.
    public static let all: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/chain-vectors.json")
        do {
            return try JSONDecoder().decode(ChainVectors.self, from: Data(contentsOf: url)).chains
        } catch {
            fatalError("Tests/Fixtures/chain-vectors.json: \(error)")
        }
    }()
}
