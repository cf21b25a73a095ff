/// Which link of each chain the root-cause pivot groups by.
public enum Layer: Hashable, Sendable {
    /// The innermost link: the root cause.
    case root
    /// The outermost link: what the user saw.
    case outer
    /// The link at this position, 0 being the outermost.
    case position(Int)
    /// The link of this domain, wherever it stands in the chain.
    case domain(String)

    /// Reads `root`, `outer`, a position, or `domain:NAME`.
    public init?(_ text: String) {
        switch text {
        case "root": self = .root
        case "outer": self = .outer
        default:
            if text.hasPrefix("domain:"), text.count > 7 { self = .domain(String(text.dropFirst(7))) }
            else if let n = Int(text), n >= 0 { self = .position(n) }
            else { return nil }
        }
    }

    /// The link of a chain this layer picks, if the chain has one there.
    public func link(of chain: ErrorChain) -> ChainLink? {
        switch self {
        case .root: chain.links.last
        case .outer: chain.links.first
        case .position(let n): n < chain.links.count ? chain.links[n] : nil
        case .domain(let name): chain.links.first { $0.domain == name || $0.short == name }
        }
    }

    /// How headings name the layer.
    public var label: String {
        switch self {
        case .root: "root cause"
        case .outer: "user-facing error"
        case .position(let n): "layer \(n)"
        case .domain(let name): "domain \(name)"
        }
    }
}

/// Issues grouped by one link instead of the whole chain.
public struct LayerGroup: Hashable, Sendable {
    public var link: ChainLink
    public var events: Int
    public var complaints: Int
    /// The issues (short keys) in the group, most events first.
    public var issues: [String]
    /// The user-facing links these issues surface as, with their events, most first.
    public var surfacesAs: [SurfaceCount]
    /// The root causes (innermost links) behind these issues, with their events, most first.
    public var rootCauses: [SurfaceCount]

    public struct SurfaceCount: Hashable, Sendable {
        public var link: ChainLink
        public var events: Int
        public init(link: ChainLink, events: Int) {
            self.link = link
            self.events = events
        }

        /// Adds events to a link's count in a list, appending the link if it is new.
        static func add(_ link: ChainLink, _ events: Int, to counts: inout [SurfaceCount]) {
            if let i = counts.firstIndex(where: { $0.link.short == link.short && $0.link.code == link.code }) {
                counts[i].events += events
            } else {
                counts.append(SurfaceCount(link: link, events: events))
            }
        }
    }

    public init(link: ChainLink, events: Int, complaints: Int, issues: [String], surfacesAs: [SurfaceCount],
                rootCauses: [SurfaceCount] = []) {
        self.link = link
        self.events = events
        self.complaints = complaints
        self.issues = issues
        self.surfacesAs = surfacesAs
        self.rootCauses = rootCauses
    }

    /// The links on the other side of the chain from this layer: the root causes when grouping by
    /// what the user saw, else what the user saw.
    public func related(for layer: Layer) -> [SurfaceCount] { layer == .outer ? rootCauses : surfacesAs }

    /// Groups list rows by the link a layer picks; rows without such a link are left out.
    public static func pivot(_ rows: [IssueSummary], by layer: Layer, mode: RankMode) -> [LayerGroup] {
        struct Key: Hashable { var short: String; var code: Int }
        var groups: [Key: LayerGroup] = [:]
        var order: [Key] = []
        for row in rows.sorted(by: { $0.events > $1.events }) {
            guard let link = layer.link(of: row.chain) else { continue }
            let key = Key(short: link.short, code: link.code)
            if groups[key] == nil {
                groups[key] = LayerGroup(link: link, events: 0, complaints: 0, issues: [], surfacesAs: [])
                order.append(key)
            }
            groups[key]!.events += row.events
            groups[key]!.complaints += row.complaints
            groups[key]!.issues.append(row.key)
            if let outer = row.chain.links.first { SurfaceCount.add(outer, row.events, to: &groups[key]!.surfacesAs) }
            if let root = row.chain.links.last { SurfaceCount.add(root, row.events, to: &groups[key]!.rootCauses) }
        }
        return order.compactMap { groups[$0] }.map { group in
            var g = group
            g.surfacesAs.sort { $0.events > $1.events }
            g.rootCauses.sort { $0.events > $1.events }
            return g
        }.sorted { a, b in
            let x = mode == .complaints ? a.complaints : a.events, y = mode == .complaints ? b.complaints : b.events
            if x != y { return x > y }
            return a.events != b.events ? a.events > b.events : a.link.shortCode < b.link.shortCode
        }
    }
}
