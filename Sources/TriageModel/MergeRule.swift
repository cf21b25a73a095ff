/// An issue as merge suggestions see it: its chain and the versions it was seen in.
public struct MergeCandidate: Hashable, Sendable {
    public var key: String
    public var chain: ErrorChain
    public var firstVersion: String?
    public var lastVersion: String?
    public var events: Int

    public init(key: String, chain: ErrorChain, firstVersion: String?, lastVersion: String?, events: Int) {
        self.key = key
        self.chain = chain
        self.firstVersion = firstVersion
        self.lastVersion = lastVersion
        self.events = events
    }
}

/// Two issues that may be one problem under two chains, and why.
public struct MergeSuggestion: Hashable, Sendable {
    /// Why two chains may be one problem.
    public enum Reason: Hashable, Sendable {
        /// The same outer and root links, one layer more in `newer` (or less).
        case layerAdded(ChainLink)
        case layerRemoved(ChainLink)
        /// The same codes, one domain under another name.
        case domainRenamed(from: String, to: String)
        /// `newer` was first seen in the version right after `older`'s last, with the same root cause
        /// and the same user-facing error.
        case succeeds(lastVersion: String, firstVersion: String)
    }

    /// The issue seen earlier (merge into it keeps the long-term key) and the later one.
    public var older: MergeCandidate
    public var newer: MergeCandidate
    public var reasons: [Reason]

    public init(older: MergeCandidate, newer: MergeCandidate, reasons: [Reason]) {
        self.older = older
        self.newer = newer
        self.reasons = reasons
    }
}

/// Which pairs of issues look like one problem under two chains. Suggestions only: nothing is
/// merged without a user's word.
public enum MergeRule {
    /// Whether `longer` is `shorter` with one link inserted between its outer and root links; that link.
    public static func insertedLayer(_ shorter: ErrorChain, _ longer: ErrorChain) -> ChainLink? {
        let a = shorter.links.map(identity), b = longer.links.map(identity)
        guard a.count >= 2, b.count == a.count + 1, a.first == b.first, a.last == b.last else { return nil }
        for i in 1..<(b.count - 1) {
            var without = b
            without.remove(at: i)
            if without == a { return longer.links[i] }
        }
        return nil
    }

    /// Whether two chains of one length differ only in one link's domain, with the same code: the two domains.
    public static func renamedDomain(_ a: ErrorChain, _ b: ErrorChain) -> (from: String, to: String)? {
        guard a.links.count == b.links.count, a.links.count >= 1 else { return nil }
        var renamed: (String, String)?
        for (x, y) in zip(a.links, b.links) where identity(x) != identity(y) {
            guard renamed == nil, x.code == y.code, x.domain != y.domain, (x.name == nil || y.name == nil || x.name == y.name)
            else { return nil }
            renamed = (x.domain ?? x.short, y.domain ?? y.short)
        }
        return renamed
    }

    /// Every pair with at least one reason, the strongest (structural) first, then by events.
    /// Chains that only follow one another must also share the user-facing (outer) link: the root
    /// cause alone pairs too many unrelated chains.
    public static func suggest(_ issues: [MergeCandidate], versions: [String]) -> [MergeSuggestion] {
        let order = ReleaseRule.ordered(versions)
        func position(_ v: String?) -> Int? { v.flatMap { order.firstIndex(of: $0) } }
        var result: [MergeSuggestion] = []
        // Every rule keeps the root cause's code (a renamed root keeps its code too): only those pairs are compared.
        let byRootCode = Dictionary(grouping: issues) { $0.chain.rootCause?.code }
        for bucket in byRootCode.values {
          for (i, a) in bucket.enumerated() {
            for b in bucket[(i + 1)...] {
                let (older, newer) = (position(a.firstVersion) ?? 0) <= (position(b.firstVersion) ?? 0) ? (a, b) : (b, a)
                var reasons: [MergeSuggestion.Reason] = []
                if let link = insertedLayer(older.chain, newer.chain) { reasons.append(.layerAdded(link)) }
                if let link = insertedLayer(newer.chain, older.chain) { reasons.append(.layerRemoved(link)) }
                if let names = renamedDomain(older.chain, newer.chain) { reasons.append(.domainRenamed(from: names.from, to: names.to)) }
                if let last = position(older.lastVersion), let first = position(newer.firstVersion), first == last + 1,
                   let r1 = older.chain.rootCause, let r2 = newer.chain.rootCause, identity(r1) == identity(r2),
                   let o1 = older.chain.links.first, let o2 = newer.chain.links.first, identity(o1) == identity(o2) {
                    reasons.append(.succeeds(lastVersion: order[last], firstVersion: order[first]))
                }
                if !reasons.isEmpty { result.append(MergeSuggestion(older: older, newer: newer, reasons: reasons)) }
            }
          }
        }
        func structural(_ s: MergeSuggestion) -> Bool {
            s.reasons.contains { if case .succeeds = $0 { false } else { true } }
        }
        return result.sorted { x, y in
            if structural(x) != structural(y) { return structural(x) }
            if x.reasons.count != y.reasons.count { return x.reasons.count > y.reasons.count }
            let (ex, ey) = (x.older.events + x.newer.events, y.older.events + y.newer.events)
            return ex != ey ? ex > ey : (x.older.key, x.newer.key) < (y.older.key, y.newer.key)
        }
    }

    /// A link as chains compare it: its domain (or short name where the domain is unknown) and code.
    static func identity(_ link: ChainLink) -> String { "\(link.domain ?? link.short)#\(link.code)" }
}
