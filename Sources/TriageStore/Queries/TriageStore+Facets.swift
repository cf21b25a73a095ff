import TriageModel

extension TriageStore {
    /// How many values of each facet the detail carries (the rest are summed as others).
    public static let facetValueLimit = 5

    /// The facets of an issue's (or a group's) events in the window, their shares of `total`:
    /// from the daily facet rollup over days; over 24 hours from the events of those hours.
    /// At most `IssueDetail.maxTagFacets` tags, those on the most events; how many more is the second.
    static func facets(_ db: SQLDatabase, issueIDs ids: [Int64], buckets: Buckets, total: Int) throws -> ([FacetBreakdown], Int) {
        var counts: [String: [String: Int]] = [:]
        if buckets.hourly {
            var stored = StoredFacets()
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT custom_keys_term, facets_term, COUNT(*) FROM event_row
                WHERE \(issueMatch(ids)) AND ts BETWEEN ? AND ? AND (custom_keys_term IS NOT NULL OR facets_term IS NOT NULL)
                GROUP BY 1, 2
                """, arguments: SQLArguments(ids) + [buckets.millis.lowerBound, buckets.millis.upperBound]) {
                let n: Int = try row.decode(2)
                for pair in try stored.pairs(db, customKeys: try row.decode(0), facets: try row.decode(1)) { counts[pair.facet, default: [:]][pair.value, default: 0] += n }
            }
        } else {
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT facet, value, SUM(events) FROM issue_day_facet WHERE \(issueMatch(ids)) AND day BETWEEN ? AND ?
                GROUP BY facet, value
                """, arguments: SQLArguments(ids) + [buckets.range.lowerBound, buckets.range.upperBound]) {
                counts[try row.decode(0), default: [:]][try row.decode(1), default: 0] += try row.decode(2) as Int
            }
        }
        // Every context facet; of the tags, those on the most events (a sender sets as many keys as it likes).
        let tags = counts.keys.filter { $0.hasPrefix("tag:") }
        var moreTags = 0
        if tags.count > IssueDetail.maxTagFacets {
            let events = Dictionary(uniqueKeysWithValues: tags.map { ($0, counts[$0]!.values.reduce(0, +)) })
            let ranked = tags.sorted { events[$0]! != events[$1]! ? events[$0]! > events[$1]! : $0 < $1 }
            for tag in ranked.dropFirst(IssueDetail.maxTagFacets) where events[tag]! > 0 {
                counts[tag] = nil
                moreTags += 1
            }
        }
        return (facetBreakdowns(counts, total: total), moreTags)
    }

    /// Each facet's top values with their shares of `total`: context facets in `ContextFacet`'s
    /// order, then tags by key.
    static func facetBreakdowns(_ counts: [String: [String: Int]], total: Int) -> [FacetBreakdown] {
        let order = Dictionary(uniqueKeysWithValues: ContextFacet.allCases.enumerated().map { ($1.rawValue, $0) })
        let names = counts.keys.filter { counts[$0]!.values.contains { $0 > 0 } }.sorted { a, b in
            switch (order[a], order[b]) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a < b
            }
        }
        return names.map { name in
            let values = counts[name]!.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let top = values.prefix(facetValueLimit)
            let rows = top.map { BreakdownRow(value: $0.key, count: $0.value, percent: total == 0 ? 0 : Double($0.value) * 100 / Double(total)) }
            return FacetBreakdown(facet: name, rows: rows, otherEvents: values.dropFirst(facetValueLimit).reduce(0) { $0 + $1.value },
                                  distinctValues: values.count)
        }
    }
}

/// The facet pairs of stored events by the term ids of their two texts (custom keys, context
/// facets), each text read and decoded once: events grouped by those ids share them.
struct StoredFacets {
    private var texts: [Int64: [(key: String, value: String)]] = [:]

    mutating func pairs(_ db: SQLDatabase, customKeys: Int64?, facets: Int64?) throws -> [(facet: String, value: String)] {
        EventFacets.pairs(customKeys: try text(db, customKeys), facets: try text(db, facets))
    }

    private mutating func text(_ db: SQLDatabase, _ id: Int64?) throws -> [(key: String, value: String)] {
        guard let id else { return [] }
        if let known = texts[id] { return known }
        let decoded = CustomKeys.decode(try String.fetchOne(db, sql: "SELECT value FROM term WHERE id = ?", arguments: [id]))
        texts[id] = decoded
        return decoded
    }
}

extension TriageStore {
    /// The (facet, value) pairs the store holds that a facet term names, whether or not it is
    /// negated: `server:api*` gives each `server` value starting with `api`; `tag:shard=7` the
    /// tag `shard`'s value `7` (a tag term's value is matched as `KEY=VALUE`).
    static func matchingFacets(_ db: SQLDatabase, _ term: SearchTerm) throws -> [(facet: String, value: String)] {
        guard let field = term.field, field.isFacet else { return [] }
        let rows: [SQLRow]
        if field == .tag {
            rows = try SQLRow.fetchAll(db, sql: "SELECT DISTINCT facet, value FROM issue_day_facet WHERE facet >= 'tag:' AND facet < 'tag;'")
        } else {
            rows = try SQLRow.fetchAll(db, sql: "SELECT DISTINCT facet, value FROM issue_day_facet WHERE facet = ?", arguments: [field.rawValue])
        }
        return try rows.compactMap { row in
            let facet: String = try row.decode(0), value: String = try row.decode(1)
            let shown = field == .tag ? String(facet.dropFirst(4)) + "=" + value : value
            return term.values.contains { $0.matchesText(shown) } ? (facet, value) : nil
        }
    }

    /// The values a facet term's field holds in the store, as a term names them (`KEY=VALUE` for tags).
    static func facetValues(_ db: SQLDatabase, _ term: SearchTerm) throws -> [String] {
        try matchingFacets(db, term).map { term.field == .tag ? String($0.facet.dropFirst(4)) + "=" + $0.value : $0.value }
    }

    /// SQL over the `event` view for the events a facet term lets through, with its arguments:
    /// the event's stored facets (or custom keys, for a tag) hold one of the matching pairs.
    static func facetCondition(_ pairs: [(facet: String, value: String)], negated: Bool) -> (String, SQLArguments) {
        guard !pairs.isEmpty else { return (negated ? "1 = 1" : "1 = 0", []) }
        var clauses: [String] = [], arguments = SQLArguments()
        for pair in pairs {
            let isTag = pair.facet.hasPrefix("tag:")
            let key = isTag ? String(pair.facet.dropFirst(4)) : pair.facet
            // As `CustomKeys.encode` writes a pair; a value cut to the rollup's length matches by its start.
            var encoded = ""
            JSONString.write(key, to: &encoded)
            encoded += ":"
            JSONString.write(pair.value, to: &encoded)
            if pair.value.count >= EventFacets.maxValueLength { encoded.removeLast() }
            clauses.append("COALESCE(\(isTag ? "custom_keys" : "facets"), '') LIKE ? ESCAPE '\\'")
            arguments += [likeEscaped(encoded)]
        }
        let any = "(" + clauses.joined(separator: " OR ") + ")"
        return (negated ? "NOT " + any : any, arguments)
    }

    /// A LIKE pattern that finds `text` anywhere, its `\`, `%` and `_` taken as themselves.
    static func likeEscaped(_ text: String) -> String {
        var out = "%"
        for ch in text {
            if ch == "\\" || ch == "%" || ch == "_" { out.append("\\") }
            out.append(ch)
        }
        return out + "%"
    }
}
