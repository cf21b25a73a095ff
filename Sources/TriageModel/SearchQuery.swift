/// A field a search term can name: `os:17*`, `events:>100`, `is:spike`.
public enum SearchField: String, CaseIterable, Hashable, Sendable {
    case status, `is`, key, domain, root, outer, message, version, firstSeen = "first-seen", device, os, network,
         orientation, state, env, kind, level, platform, project, server, runtime, browser, transaction, logger, tag, user,
         assignee, owner, has, events, users, complaints

    /// The fields that restrict the counted events instead of the issues.
    /// A breakdown's term (`Dimension.declaration`), `user:`, or a facet's.
    public var isDimension: Bool {
        self == .user || isFacet || Dimension(term: self) != nil
    }

    /// The fields that read an event's facets (`EventFacets`): its context facets, and `tag:KEY=VALUE`.
    public var isFacet: Bool {
        switch self {
        case .server, .runtime, .browser, .transaction, .logger, .tag: true
        default: false
        }
    }

    /// Whether values may carry `>`, `>=`, `<`, `<=`, `=`.
    var takesComparison: Bool {
        switch self {
        case .version, .firstSeen, .events, .users, .complaints: true
        default: false
        }
    }

    /// The values a closed field accepts, or nil when any text goes.
    var allowedValues: [String]? {
        switch self {
        case .status: IssueStatus.allCases.map(\.rawValue)
        case .is: ["new", "spike", "regressed", "assigned", "unassigned"]
        case .has: ["complaints", "note", "link"]
        case .kind: EventKind.allCases.map(\.rawValue)
        default: nil
        }
    }

    /// Every field's name, for error messages and help.
    public static let list = allCases.map(\.rawValue).joined(separator: " ")
}

/// How a value compares: equal (or a prefix, with `*`) or an order.
public enum SearchComparison: String, CaseIterable, Hashable, Sendable {
    case equal = "", greaterOrEqual = ">=", lessOrEqual = "<=", greater = ">", less = "<"

    /// Whether `order` (the sign of value − operand) satisfies the comparison.
    public func holds(_ order: Int) -> Bool {
        switch self {
        case .equal: order == 0
        case .greaterOrEqual: order >= 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .less: order < 0
        }
    }
}

/// One alternative of a term: `17*`, `>=1.12`, `"slow network"`.
public struct SearchValue: Hashable, Sendable {
    public var comparison: SearchComparison
    public var text: String
    /// A trailing unquoted `*`: the value matches by prefix.
    public var isPrefix: Bool

    public init(_ text: String, comparison: SearchComparison = .equal, isPrefix: Bool = false) {
        self.text = text
        self.comparison = comparison
        self.isPrefix = isPrefix
    }

    /// Whether a text equals the value (or starts with it), ignoring ASCII case.
    public func matchesText(_ candidate: String) -> Bool {
        let a = candidate.lowercased(), b = text.lowercased()
        return isPrefix ? a.hasPrefix(b) : a == b
    }
}

/// One term of a query: a field with alternatives, or a bare word; either may be negated.
public struct SearchTerm: Hashable, Sendable {
    public var negated: Bool
    /// nil for a bare word, which searches keys, chain names, notes and assignees.
    public var field: SearchField?
    /// The alternatives (`a|b`); a bare word has one.
    public var values: [SearchValue]

    public init(field: SearchField?, values: [SearchValue], negated: Bool = false) {
        self.field = field
        self.values = values
        self.negated = negated
    }
}

/// A parsed query: every term must hold. `SearchQuery.parse` reads one; `description` prints it back.
public struct SearchQuery: Hashable, Sendable {
    public var terms: [SearchTerm]

    public init(terms: [SearchTerm] = []) { self.terms = terms }

    /// Whether the query lets every issue through.
    public var isEmpty: Bool { terms.isEmpty }

    /// The terms that restrict counted events (`device:`, `os:`, `version:` …).
    public var dimensionTerms: [SearchTerm] { terms.filter { $0.field?.isDimension ?? false } }

    /// The bare words.
    public var words: [String] { terms.filter { $0.field == nil }.flatMap { $0.values.map(\.text) } }

    /// Whether some term names the field.
    public func uses(_ field: SearchField) -> Bool { terms.contains { $0.field == field } }
}

/// Why a query could not be read: one sentence naming the bad term and listing the fields.
public struct SearchQueryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var term: String
    public var reason: String

    public init(term: String, reason: String) {
        self.term = term
        self.reason = reason
    }

    public var description: String {
        "the query term \"\(term)\" \(reason) (fields: \(SearchField.list))"
    }
}

extension IssueQuery {
    /// The list's text read as a query; text that does not parse searches as one bare word, as
    /// the filter did before the query language (the dashboard and the commands refuse it first).
    public var search: SearchQuery {
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        if trimmed.isEmpty { return SearchQuery() }
        return (try? SearchQuery.parse(trimmed)) ?? SearchQuery(terms: [SearchTerm(field: nil, values: [SearchValue(trimmed)])])
    }
}

extension SearchQuery {
    /// A query's text with `env:NAME` added unless it names an environment itself (`--env`).
    public static func withDefaultEnvironment(_ text: String, _ environment: String?) -> String {
        guard let environment, !((try? parse(text))?.uses(.env) ?? false) else { return text }
        let term = SearchTerm(field: .env, values: [SearchValue(environment)]).description
        return text.isEmpty ? term : text + " " + term
    }
}
