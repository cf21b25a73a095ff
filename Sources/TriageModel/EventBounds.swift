/// The most of what a client controls that one event brings to the store: its chain's links and
/// its tags. Applied to every record on its way to the store (`IngestWriter.Batch.prepare`, for
/// `ingest` and `serve` alike), after the importers read it and before anything is stored,
/// counted or keyed, so that the work and the space one event costs is bounded whatever it holds.
public enum EventBounds {
    /// Links a stored chain keeps at most. Sentry's SDKs send a few dozen at the very most (the
    /// JavaScript SDK 6, Java's and Python's a cause chain as deep as the app's code made it); a
    /// deeper chain keeps its `keptEachEnd` outermost links and its `keptEachEnd` innermost —
    /// where the user's words and the root cause are — and the event says how many it left out
    /// under the custom key `chainLinksLeftOutKey`.
    public static let maxLinks = 100
    public static var keptEachEnd: Int { maxLinks / 2 }
    /// The custom key that says how many of an event's links were left out of its chain.
    public static let chainLinksLeftOutKey = "exception_chain.links_left_out"

    /// Tags (custom keys) an event keeps at most besides errtriage's own (`EventFacets.ownKeys`):
    /// the first `EventFacets.maxTags` it sends with a key of at most `EventFacets.maxKeyLength`
    /// characters and a value — exactly those counted as facets — each value cut to
    /// `EventFacets.maxValueLength` characters (Sentry's own limit); the rest are left out and
    /// the event says how many under `tagsLeftOutKey`. So an event of 1,000 tags costs the store
    /// no more than one of 50.
    public static let tagsLeftOutKey = "tags.left_out"
    /// The custom key that says how many of an event's tags were folded because their keys came
    /// after the first `EventFacets.maxTagKeysPerIssue` of its issue or `maxTagKeysPerProject` of its project (`IngestWriter.foldTags`):
    /// the event keeps their count, not their values, and the issue counts it under `EventFacets.foldedFacet`.
    public static let tagsFoldedKey = "tags.folded"
    /// What errtriage's own keys hold at most (the other branches of an exception group, which
    /// a client may make as many as it likes), in characters.
    public static let maxOwnValueLength = 4_096

    /// `links` within `maxLinks`: itself when it is, else its ends; and how many were left out.
    public static func capped<Link>(_ links: [Link]) -> (links: [Link], leftOut: Int) {
        guard links.count > maxLinks else { return (links, 0) }
        return (Array(links.prefix(keptEachEnd)) + Array(links.suffix(keptEachEnd)), links.count - 2 * keptEachEnd)
    }
}

extension ErrorEvent {
    /// The event within `EventBounds`: a chain past `maxLinks` keeps its ends (its former chain
    /// too), and says how many links it left out.
    public mutating func bound() {
        boundTags()
        let (links, leftOut) = EventBounds.capped(chain.links)
        guard leftOut > 0 else { return }
        chain.links = links
        if let former = formerChain { formerChain = FormerChain(links: EventBounds.capped(former.links).links) }
        customKeys.removeAll { $0.key == EventBounds.chainLinksLeftOutKey }
        customKeys.append((EventBounds.chainLinksLeftOutKey, String(leftOut)))
    }

    /// The custom keys within `EventBounds`' tag bound, in their order: errtriage's own, and the
    /// first tags `EventFacets.pairs` counts, their keys cut to `EventFacets.maxKeyCharacters`
    /// characters (the first of two keys that cut the same is kept) and their values cut as it cuts them.
    mutating func boundTags() {
        guard customKeys.count > EventFacets.maxTags
            || customKeys.contains(where: {
                $0.value.utf8.count > EventFacets.maxValueLength || $0.key.utf8.count > EventFacets.maxKeyCharacters
                    || $0.key == EventBounds.tagsFoldedKey
            }) else {
            return
        }
        var kept: [(key: String, value: String)] = []
        var tags = 0, leftOut = 0
        var seen = Set<String>()
        for (whole, value) in customKeys where whole != EventBounds.tagsLeftOutKey && whole != EventBounds.tagsFoldedKey {
            let key = EventFacets.ownKeys.contains(whole) || whole.count <= EventFacets.maxKeyCharacters
                ? whole : String(whole.prefix(EventFacets.maxKeyCharacters))
            if EventFacets.ownKeys.contains(key) {
                kept.append((key, value.count > EventBounds.maxOwnValueLength ? String(value.prefix(EventBounds.maxOwnValueLength - 1)) + "…" : value))
            } else if tags < EventFacets.maxTags && EventFacets.isCountable(key: key, value: value) && seen.insert(key).inserted {
                kept.append((key, EventFacets.cut(value)))
                tags += 1
            } else {
                leftOut += 1
            }
        }
        if leftOut > 0 { kept.append((EventBounds.tagsLeftOutKey, String(leftOut))) }
        customKeys = kept
    }
}
