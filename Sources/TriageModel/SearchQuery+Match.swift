/// What a query's issue terms are decided on: one issue with its counts inside the window.
public struct IssueFacts: Sendable {
    public var key: String
    public var chain: ErrorChain
    public var status: IssueStatus
    public var signals: [Signal]
    public var assignee: String?
    public var owner: String?
    public var firstVersion: String?
    public var trackerURL: String?
    /// Counts inside the window, restricted by the query's dimension terms.
    public var events: Int
    public var users: Int
    public var complaints: Int
    /// The issue's notes (read only when the query has bare words or `has:note`).
    public var notes: [String]

    public init(key: String, chain: ErrorChain, status: IssueStatus, signals: [Signal] = [], assignee: String? = nil,
                owner: String? = nil, firstVersion: String? = nil, trackerURL: String? = nil, events: Int = 0,
                users: Int = 0, complaints: Int = 0, notes: [String] = []) {
        self.key = key
        self.chain = chain
        self.status = status
        self.signals = signals
        self.assignee = assignee
        self.owner = owner
        self.firstVersion = firstVersion
        self.trackerURL = trackerURL
        self.events = events
        self.users = users
        self.complaints = complaints
        self.notes = notes
    }
}

extension SearchQuery {
    /// Whether an issue passes every term that is not a dimension term.
    public func admits(_ facts: IssueFacts) -> Bool {
        terms.allSatisfy { term in
            guard term.field?.isDimension != true else { return true }
            return term.holds(for: facts) != term.negated
        }
    }

    /// Whether an issue's chain passes the chain terms (`key:`, `domain:`, `root:`, `outer:`, words
    /// on keys and names): what owner rules match at ingest, before any count exists.
    public func admits(chain: ErrorChain, key: String) -> Bool {
        admits(IssueFacts(key: key, chain: chain, status: .open))
    }
}

extension SearchTerm {
    /// Whether the un-negated term holds for the issue (dimension terms hold for every issue).
    func holds(for facts: IssueFacts) -> Bool {
        guard let field else {
            let word = values.first?.text.lowercased() ?? ""
            let texts = [facts.key, facts.chain.fullForm, facts.assignee ?? ""] + facts.notes
            return texts.contains { $0.lowercased().contains(word) }
        }
        // A breakdown's, a facet's or user: restricts the counted events, not the issues.
        if field.isDimension { return true }
        return values.contains { value in
            switch field {
            case .status: value.matchesText(facts.status.rawValue)
            case .is: SearchTerm.flag(value.text.lowercased(), facts)
            case .key: value.matchesText(facts.key)
            case .domain: facts.chain.links.contains { $0.matches(value, domainOnly: true) }
            case .root: facts.chain.links.last.map { $0.matches(value, domainOnly: false) } ?? false
            case .outer: facts.chain.links.first.map { $0.matches(value, domainOnly: false) } ?? false
            case .message: facts.chain.links.contains { link in link.name.map(value.matchesWords) ?? false }
            case .firstSeen: value.matchesVersion(facts.firstVersion)
            case .assignee: facts.assignee.map(value.matchesText) ?? false
            case .owner: facts.owner.map(value.matchesText) ?? false
            case .has: SearchTerm.has(value.text.lowercased(), facts)
            case .events: value.matchesCount(facts.events)
            case .users: value.matchesCount(facts.users)
            case .complaints: value.matchesCount(facts.complaints)
            default: true
            }
        }
    }

    static func flag(_ word: String, _ facts: IssueFacts) -> Bool {
        switch word {
        case "new": facts.signals.contains(.new)
        case "spike": facts.signals.contains(.spike)
        case "regressed": facts.status == .regressed
        case "assigned": facts.assignee != nil
        case "unassigned": facts.assignee == nil
        default: false
        }
    }

    static func has(_ word: String, _ facts: IssueFacts) -> Bool {
        switch word {
        case "complaints": facts.complaints > 0
        case "note": !facts.notes.isEmpty
        case "link": facts.trackerURL != nil
        default: false
        }
    }

    /// Whether a dimension's value (as the breakdowns file it; `unknown` when missing) passes the
    /// un-negated term. `os:` matches the whole label (`iOS 17.2`) or its version (`17*`).
    public func admitsDimension(_ value: String) -> Bool {
        values.contains { v in
            switch field {
            case .version: v.matchesVersion(value)
            case .os: v.matchesText(value) || value.split(separator: " ").last.map { v.matchesText(String($0)) } ?? false
            default: v.matchesText(value)
            }
        }
    }
}

extension SearchValue {
    /// Whether a text (a link's words) is what the value says, ignoring ASCII case: each `*` in
    /// it stands for any run of characters (`"load coupon * not found"`), and a trailing one
    /// (`load*`) makes it a prefix. The whole text must match.
    public func matchesWords(_ candidate: String) -> Bool {
        let parts = text.lowercased().split(separator: "*", omittingEmptySubsequences: false).map(Array.init)
        let words = Array(candidate.lowercased())
        guard parts.count > 1 || isPrefix else { return words == parts[0] }
        var at = 0
        for (i, part) in parts.enumerated() {
            if i == 0 {
                guard words.starts(with: part) else { return false }
                at = part.count
            } else if i == parts.count - 1, !isPrefix {
                guard words.count - at >= part.count, words.suffix(part.count).elementsEqual(part) else { return false }
                at = words.count
            } else if !part.isEmpty {
                guard let found = SearchValue.find(part, in: words, from: at) else { return false }
                at = found + part.count
            }
        }
        return isPrefix || at == words.count
    }

    /// The first place at or after `from` where `part` stands in `words`.
    static func find(_ part: [Character], in words: [Character], from: Int) -> Int? {
        guard part.count <= words.count - from else { return nil }
        for i in from...(words.count - part.count) where words[i..<(i + part.count)].elementsEqual(part) { return i }
        return nil
    }

    /// A count against the value: `>=10`, `<5`, `3`.
    func matchesCount(_ count: Int) -> Bool {
        guard let n = Int(text) else { return false }
        return comparison.holds(count < n ? -1 : (count > n ? 1 : 0))
    }

    /// A version against the value: as text (`1.12*`), or ordered as the store orders versions.
    func matchesVersion(_ version: String?) -> Bool {
        guard let version else { return false }
        guard comparison != .equal else {
            if matchesText(version) { return true }
            guard !isPrefix, let a = AppVersion(version), let b = AppVersion(text) else { return false }
            return a == b
        }
        guard let a = AppVersion(version), let b = AppVersion(text) else { return false }
        return comparison.holds(a < b ? -1 : (b < a ? 1 : 0))
    }
}

extension ChainLink {
    /// Whether the link is what a value names: its domain or short name, or (unless `domainOnly`)
    /// its code (`NE8`) or `Domain.name` (`NetworkError.timeout`).
    func matches(_ value: SearchValue, domainOnly: Bool) -> Bool {
        if let domain, value.matchesText(domain) { return true }
        if value.matchesText(short) { return true }
        if domainOnly { return false }
        return value.matchesText(shortCode) || (isNamed && value.matchesText(fullName))
    }
}
