import TriageImport
import TriageModel

/// Grouping rules as lines (`export --rules`, `rule import`), one rule a line in the order they
/// are tried: `{"name","query","by","at"}` (by and at optional when read). A rule is a decision
/// that travels with its query alone: the store it is imported into merges what the query
/// matches there, as `rule add` does.
public enum RuleFile {
    public struct Entry: Hashable, Sendable {
        public var name: String
        public var query: String
        public var by: String?
        public var at: Timestamp?
    }

    public static func line(_ rule: GroupingRule) -> String {
        JSONValue.object([("name", .string(rule.name)), ("query", .string(rule.query)), ("by", .string(rule.by)),
                          ("at", .string(rule.at.iso8601))]).serialized
    }

    /// A rule line read; nil where it is no JSON object with a name and a query.
    public static func parse(_ bytes: [UInt8]) -> Entry? {
        guard let v = try? JSONParser.parse(bytes), let name = v["name"]?.text, let query = v["query"]?.text,
              !name.trimmingASCIIWhitespace().isEmpty else { return nil }
        let at = v["at"]?.text.flatMap(Timestamp.parse)
        if v["at"] != nil, at == nil { return nil }
        return Entry(name: name, query: query, by: v["by"]?.text, at: at)
    }
}
