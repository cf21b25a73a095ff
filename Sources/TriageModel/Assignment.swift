/// How an assignment is recorded in an issue's history.
public enum Assignment {
    /// The history row's text: `assigned to ana (was bob)`, `unassigned (was ana)`.
    public static func historyText(to assignee: String?, from previous: String?) -> String {
        let was = previous.map { " (was \($0))" } ?? ""
        return assignee.map { "assigned to \($0)" + was } ?? "unassigned" + was
    }
}

/// A rule like a CODEOWNERS line, for chains: issues whose chain a query admits belong to an owner.
public struct OwnerRule: Hashable, Sendable {
    /// The rule's number, for `owner rm N`; rules are tried in this order.
    public var number: Int64
    public var query: String
    public var owner: String

    public init(number: Int64, query: String, owner: String) {
        self.number = number
        self.query = query
        self.owner = owner
    }

    /// The fields a rule may use: what is known of an issue when its first event arrives.
    public static let fields: [SearchField] = [.key, .domain, .root, .outer, .message]

    /// Reads a rule's query; one sentence when it does not parse or uses a field beyond the chain.
    public static func parse(_ text: String) throws(SearchQueryError) -> SearchQuery {
        let query = try SearchQuery.parse(text)
        if let term = query.terms.first(where: { $0.field.map { !fields.contains($0) } ?? false }) {
            throw SearchQueryError(term: term.description,
                                   reason: "is not about the chain: owner rules use \(fields.map(\.rawValue).joined(separator: ", ")) and bare words")
        }
        return query
    }

    /// The first rule whose query admits the chain.
    public static func firstMatch(_ rules: [OwnerRule], chain: ErrorChain, key: String) -> OwnerRule? {
        rules.first { rule in (try? parse(rule.query))?.admits(chain: chain, key: key) ?? false }
    }
}

extension Agenda {
    /// The agenda's items grouped by owner (owners by name, then the issues without one), each
    /// group in the agenda's order: for `meeting --by-owner`.
    public var byOwner: [(owner: String?, items: [Item])] {
        var groups: [String?: [Item]] = [:]
        for item in items { groups[item.issue.owner, default: []].append(item) }
        let owners = groups.keys.compactMap { $0 }.sorted()
        return owners.map { ($0, groups[$0]!) } + (groups[nil].map { [(nil, $0)] } ?? [])
    }

    /// The same items walked owner by owner (`meeting --by-owner` in the dashboard).
    public var orderedByOwner: Agenda { Agenda(items: byOwner.flatMap(\.items)) }
}
