/// What a backend's event says about where it happened, beside the device, OS and network a
/// mobile app sends: each a facet of the issue's detail, counted in a rollup and queryable
/// (`server:api-host-1`, `runtime:CPython*`), as Sentry's tag sidebar shows them.
public enum ContextFacet: String, CaseIterable, Sendable {
    /// The host that ran the code (Sentry's `server_name`).
    case server
    /// The language runtime and its version (`CPython 3.11.4`, `go go1.22.2`).
    case runtime
    /// The browser and its version.
    case browser
    /// The transaction (a route, a task) or, where none is named, the request's URL without its query.
    case transaction
    /// The logger that wrote a log record.
    case logger

    /// A heading for people.
    public var label: String {
        switch self {
        case .server: "Server"
        case .runtime: "Runtime"
        case .browser: "Browser"
        case .transaction: "Transaction"
        case .logger: "Logger"
        }
    }
}

/// The facets an event is counted under: its context facets, then its tags (`tag:KEY`).
public enum EventFacets {
    /// Tag values longer than this are cut (Sentry's own limit); longer keys are not facets.
    public static let maxValueLength = 200
    /// Tag keys longer than this many bytes are not facets (a stored event's keys are cut to
    /// `maxKeyCharacters` first: `EventBounds`).
    public static let maxKeyLength = 64
    /// Tag keys are cut to this many characters as events reach the store (Sentry's limit for a key).
    public static let maxKeyCharacters = 32
    /// Distinct tag keys one issue's facet rollup counts at most: an event's tags of keys past them
    /// are folded (`IngestWriter.foldTags`), counted under `foldedFacet` and named in the event
    /// by `EventBounds.tagsFoldedKey`, so that a stream of events each with new keys adds no rows.
    public static let maxTagKeysPerIssue = 100
    /// Distinct tag keys one project's events are counted under at most (events without a project
    /// are one project): past them an event's tags of other keys are folded as past its issue's,
    /// so that many issues of a hundred new keys each do not grow the store's keys without end.
    /// Ten issues' worth: Sentry's SDKs set a dozen or two tags and an app a few dozen more.
    public static let maxTagKeysPerProject = 1_000
    /// The facet that counts an issue's events whose tags were folded, all under `foldedValue`.
    /// Not a `tag:` facet, so no key a sender sets can be it.
    public static let foldedFacet = "tags.folded"
    public static let foldedValue = "other"
    /// At most this many tags of one event are counted (the rest are kept in the event, not counted).
    public static let maxTags = 50
    /// Custom keys errtriage adds itself, which are not the sender's tags.
    public static let ownKeys: Set<String> = ["exception_chain", "exception_group.other_branches", EventBounds.chainLinksLeftOutKey,
                                              EventBounds.tagsLeftOutKey, EventBounds.tagsFoldedKey]

    /// The rollup's facet name of a tag.
    public static func tagFacet(_ key: String) -> String { "tag:" + key }

    /// Each (facet, value) the event is counted under, at most once per facet.
    public static func pairs(of event: ErrorEvent) -> [(facet: String, value: String)] {
        pairs(customKeys: event.customKeys, facets: event.facets)
    }

    /// Each (facet, value) of an event's context facets and custom keys, as `pairs(of:)` counts them.
    public static func pairs(customKeys: [(key: String, value: String)], facets: [(key: String, value: String)])
        -> [(facet: String, value: String)] {
        var result: [(facet: String, value: String)] = []
        var seen = Set<String>()
        for (key, value) in facets where !value.isEmpty && seen.insert(key).inserted {
            result.append((key, cut(value)))
        }
        var tags = 0
        for (key, value) in customKeys where tags < maxTags && !ownKeys.contains(key) && isCountable(key: key, value: value) {
            guard seen.insert(tagFacet(key)).inserted else { continue }
            result.append((tagFacet(key), cut(value)))
            tags += 1
        }
        if customKeys.contains(where: { $0.key == EventBounds.tagsFoldedKey && !$0.value.isEmpty }) {
            result.append((foldedFacet, foldedValue))
        }
        return result
    }

    /// Whether a custom key is a tag the rollup counts: a key of 1 to `maxKeyLength` bytes with a value.
    public static func isCountable(key: String, value: String) -> Bool {
        !key.isEmpty && key.utf8.count <= maxKeyLength && !value.isEmpty
    }

    /// A value as the rollup files it: at most `maxValueLength` characters.
    static func cut(_ value: String) -> String {
        value.count <= maxValueLength ? value : String(value.prefix(maxValueLength))
    }

    /// A facet's heading: a context facet's label, or a tag's key.
    public static func label(_ facet: String) -> String {
        if let context = ContextFacet(rawValue: facet) { return context.label }
        if facet == foldedFacet { return "Tags folded (keys past \(maxTagKeysPerIssue) an issue, \(maxTagKeysPerProject) a project)" }
        return facet.hasPrefix("tag:") ? String(facet.dropFirst(4)) : facet
    }
}

/// One facet of an issue over a window: its most frequent values, each with its share of the
/// issue's events (events without the facet are the rest, not a value).
public struct FacetBreakdown: Hashable, Sendable {
    /// A context facet's name (`server`) or a tag's (`tag:shard`).
    public var facet: String
    /// The most frequent values, most first.
    public var rows: [BreakdownRow]
    /// Events with a value of this facet not among `rows`.
    public var otherEvents: Int
    /// How many distinct values the facet has in the window.
    public var distinctValues: Int

    public init(facet: String, rows: [BreakdownRow], otherEvents: Int = 0, distinctValues: Int) {
        self.facet = facet
        self.rows = rows
        self.otherEvents = otherEvents
        self.distinctValues = distinctValues
    }

    /// A heading for people: `Server`, or the tag's key.
    public var label: String { EventFacets.label(facet) }
    /// Whether the facet is a tag the sender set (not a context errtriage reads).
    public var isTag: Bool { facet.hasPrefix("tag:") }
    /// A heading for people: `Server`, or `Tag shard`.
    public var heading: String { isTag ? "Tag " + label : label }
    /// What the values not among `rows` add up to, as a line reads it (nil when there are none).
    public var othersText: String? {
        let others = distinctValues - rows.count
        guard others > 0 else { return nil }
        return "\(others) other value\(others == 1 ? "" : "s"): \(otherEvents) event\(otherEvents == 1 ? "" : "s")"
    }
}
