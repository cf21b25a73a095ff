/// A team's grouping rule, as Sentry's fingerprint rules: every issue whose chain a query matches
/// is one issue, the rule's, under the key of the first it took. Issues the rule matches when it is
/// made are merged into that issue with their history; a later event whose chain opens a new
/// issue that matches goes there too, whatever codes and words it brings; removing the rule takes
/// out again what it merged.
public struct GroupingRule: Hashable, Sendable {
    /// The rule's number (`rule list`), and the order rules are tried in.
    public var number: Int64
    /// The name it was given (`--as`): what `rule rm` takes, and what the history says merged.
    public var name: String
    public var query: String
    /// The key of the issue the rule's issues go under; nil until an issue matches.
    public var headKey: String?
    public var by: String
    public var at: Timestamp

    public init(number: Int64, name: String, query: String, headKey: String?, by: String, at: Timestamp) {
        self.number = number
        self.name = name
        self.query = query
        self.headKey = headKey
        self.by = by
        self.at = at
    }

    /// The fields a rule may use: what an event's chain says, known before any count exists and
    /// the same for every event of an issue.
    public static let fields: [SearchField] = [.key, .domain, .root, .outer, .message]

    /// Reads a rule's query: one sentence when it does not parse, uses a field a rule cannot
    /// hold to, or has no term that matches by itself.
    public static func parse(_ text: String) throws(SearchQueryError) -> SearchQuery {
        let query = try SearchQuery.parse(text)
        if let why = refusal(of: query) { throw SearchQueryError(term: text, reason: why) }
        return query
    }

    /// Why a parsed query cannot be a rule's, as one sentence naming the term; nil when it can.
    public static func refusal(of query: SearchQuery) -> String? {
        for term in query.terms {
            guard let field = term.field, !fields.contains(field) else { continue }
            return "the term \"\(term.description)\" \(refusal(field))"
        }
        guard query.terms.contains(where: { !$0.negated }) else {
            return "the query \"\(query.description)\" matches no issue by itself: a rule needs a term that is not negated"
        }
        return nil
    }

    /// Why a field cannot be a rule's: counts and decisions change after an event arrives, and
    /// an event's own facts differ among the events of one issue, which a rule moves whole.
    static func refusal(_ field: SearchField) -> String {
        let usable = "a rule uses \(fields.map { $0.rawValue + ":" }.joined(separator: " ")) and bare words"
        switch field {
        case .events, .users, .complaints, .is, .firstSeen:
            return "counts over issues, which change as events come: a rule decides each event as it arrives, before any count; \(usable)"
        case .status, .assignee, .owner, .has:
            return "is a decision about an issue, which changes after its events arrived: \(usable)"
        default:
            return "is a fact of each event, not of an issue, and a rule moves whole issues (their events differ in it); use it in a query instead; \(usable)"
        }
    }

    /// Whether the rule takes an issue (or a new event's) chain under its key.
    public func matches(chain: ErrorChain, key: String) -> Bool {
        (try? GroupingRule.parse(query))?.admits(chain: chain, key: key) ?? false
    }

    /// The first rule, in number order, that takes a chain.
    public static func firstMatch(_ rules: [GroupingRule], chain: ErrorChain, key: String) -> GroupingRule? {
        rules.first { $0.matches(chain: chain, key: key) }
    }

    /// A rule's query for issues merged by hand: the terms their chains share (the outermost link,
    /// the root cause, the key's prefix before the links that differ), the narrowest first; nil
    /// when they share nothing a rule could hold to.
    public static func suggestion(for chains: [(key: String, chain: ErrorChain)]) -> String? {
        guard chains.count >= 2 else { return nil }
        var terms: [SearchTerm] = []
        func shared(_ link: (ErrorChain) -> ChainLink?) -> ChainLink? {
            let links = chains.map { link($0.chain) }
            guard let first = links[0], links.allSatisfy({ $0.map(MergeRule.identity) == MergeRule.identity(first) }) else { return nil }
            return first
        }
        func sharedDomain(_ link: (ErrorChain) -> ChainLink?) -> String? {
            let domains = chains.map { link($0.chain)?.domain }
            guard let first = domains[0], domains.allSatisfy({ $0 == first }) else { return nil }
            return first
        }
        // The key's links the chains share from the outermost one, as a prefix (it names the outer link too).
        let keys = chains.map { $0.key.split(separator: "-").map(String.init) }
        var common: [String] = []
        for (i, part) in keys[0].enumerated() where keys.allSatisfy({ $0.count > i && $0[i] == part }) && common.count == i {
            common.append(part)
        }
        if !common.isEmpty, common.count < keys.map(\.count).min()! {
            terms.append(SearchTerm(field: .key, values: [SearchValue(common.joined(separator: "-") + "-", isPrefix: true)]))
        } else if let outer = shared({ $0.links.first }) {
            terms.append(SearchTerm(field: .outer, values: [SearchValue(outer.shortCode)]))
        } else if let domain = sharedDomain({ $0.links.first }) {
            terms.append(SearchTerm(field: .outer, values: [SearchValue(domain)]))
        }
        if let root = shared({ $0.links.last }) {
            terms.append(SearchTerm(field: .root, values: [SearchValue(root.shortCode)]))
        } else if let domain = sharedDomain({ $0.links.last }) {
            terms.append(SearchTerm(field: .root, values: [SearchValue(domain)]))
        }
        // Where one link's words differ (a coupon code in a wrapper's message), what they share around it.
        if let words = sharedWords(chains.map(\.chain)) {
            terms.append(SearchTerm(field: .message, values: [SearchValue(words)]))
        }
        guard !terms.isEmpty else { return nil }
        let query = SearchQuery(terms: terms)
        // A suggestion must take every issue merged.
        guard chains.allSatisfy({ query.admits(chain: $0.chain, key: $0.key) }) else { return nil }
        return query.description
    }
}

extension GroupingRule {
    /// `prefix*suffix` of the names of the first link whose names differ among chains of one
    /// length, where what they share is at least eight characters; nil otherwise.
    static func sharedWords(_ chains: [ErrorChain]) -> String? {
        guard let count = chains.first?.links.count, chains.allSatisfy({ $0.links.count == count }) else { return nil }
        for i in 0..<count {
            let names = chains.map { $0.links[i].name }
            guard Set(names).count > 1 else { continue }
            let texts = names.compactMap { $0.map(Array.init) }
            guard texts.count == names.count, let first = texts.first else { return nil }
            var prefix = first.count, suffix = first.count
            for text in texts {
                prefix = min(prefix, zip(first, text).prefix { $0 == $1 }.count)
                suffix = min(suffix, zip(first.reversed(), text.reversed()).prefix { $0 == $1 }.count)
            }
            let shortest = texts.map(\.count).min()!
            suffix = min(suffix, shortest - prefix)
            guard prefix + suffix >= 8 else { return nil }
            return String(first.prefix(prefix)) + "*" + String(first.suffix(suffix))
        }
        return nil
    }
}

/// What a rule would take if it were made now (`rule add --dry-run`), or took when it was made.
public struct GroupingPreview: Hashable, Sendable {
    /// One issue the query matches.
    public struct Issue: Hashable, Sendable {
        public enum Role: String, Hashable, Sendable {
            /// The rule's issue: the first seen of those it takes.
            case head
            /// Merged into the head (a group it headed comes along, each member listed).
            case joins
            /// A member of a group another issue heads: left there (`unmerge` it first).
            case inOtherGroup
        }

        public var key: String
        public var chain: ErrorChain
        /// Its own events, all time.
        public var events: Int
        public var role: Role
        /// The head of the other group, for `inOtherGroup`.
        public var otherHead: String?

        public init(key: String, chain: ErrorChain, events: Int, role: Role, otherHead: String? = nil) {
            self.key = key
            self.chain = chain
            self.events = events
            self.role = role
            self.otherHead = otherHead
        }
    }

    public var name: String
    public var query: String
    /// The head first, then the others by first seen.
    public var issues: [Issue]

    public init(name: String, query: String, issues: [Issue]) {
        self.name = name
        self.query = query
        self.issues = issues
    }

    /// The issues the rule takes (head, joining, already there), not those left in other groups.
    public var taken: [Issue] { issues.filter { $0.role != .inOtherGroup } }
    /// Their events.
    public var events: Int { taken.reduce(0) { $0 + $1.events } }
}
