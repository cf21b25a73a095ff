import TriageModel

extension TriageStore {
    /// Counts restricted by a query's dimension terms: the events they let through, as SQL over
    /// the event table, with each issue's series in the window's buckets.
    struct Restriction {
        var condition: String
        var arguments: SQLArguments
        var series: [Int64: [Int]]
    }

    /// Applies a query to counted candidates: dimension terms recount events, users and series
    /// over the matching events (nil when there are none); the other terms drop issues.
    static func applySearch(_ db: SQLDatabase, _ search: SearchQuery, to candidates: inout [Candidate],
                            buckets: Buckets, now: Timestamp) throws -> Restriction? {
        guard !search.isEmpty else { return nil }
        var restriction: Restriction?
        if !search.dimensionTerms.isEmpty {
            let r = try restrict(db, search.dimensionTerms, &candidates, buckets: buckets)
            restriction = r
        }
        // Facts are a group's (its counts, its head's marks and notes); a key or chain term admits the
        // group when any member's key or chain matches.
        try foldGroups(db, &candidates, buckets: buckets, restriction: restriction)
        let chains = try chains(db, issueIDs: candidates.flatMap(\.issues).map(\.id))
        let notes = search.words.isEmpty && !search.uses(.has) ? [:] : try notesByIssue(db)
        let hourly = search.uses(.is) ? try lastHours(db, issueIDs: candidates.map(\.id), now: now) : [:]
        candidates = candidates.filter { c in
            c.issues.contains { member in
                search.admits(IssueFacts(
                    key: member.key, chain: chains[member.id] ?? ErrorChain(links: []), status: c.status,
                    signals: signals(c, hourly: hourly[c.id] ?? [], now: now), assignee: c.assignee, owner: c.owner,
                    firstVersion: c.firstVersion, trackerURL: c.trackerURL, events: c.events, users: c.users,
                    complaints: c.complaints, notes: notes[c.id] ?? []))
            }
        }
        return restriction
    }

    /// Every note's text by issue, for bare words and `has:note`.
    static func notesByIssue(_ db: SQLDatabase) throws -> [Int64: [String]] {
        var notes: [Int64: [String]] = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT issue_id, text FROM note") {
            notes[(try row.decode(0)), default: []].append((try row.decode(1)))
        }
        return notes
    }

    /// The event expression a dimension term reads; missing values read `unknown`, as the
    /// breakdown rollup files them.
    static func column(_ field: SearchField) -> String {
        "COALESCE(\(expression(dimension(field)!)), 'unknown')"
    }

    /// The breakdown rollup's dimension for a field (every dimension field's but `user:`'s).
    static func dimension(_ field: SearchField) -> Dimension? { Dimension(term: field) }

    /// The stored values of a dimension that a term lets through. Versions compare as the store
    /// orders them, so each known value is decided here rather than in SQL.
    static func matchingValues(_ db: SQLDatabase, _ term: SearchTerm) throws -> [String] {
        guard let field = term.field else { return [] }
        if field.isFacet {
            // A negated facet term is an event condition of its own (`facetCondition`), not a complement of values.
            return try facetValues(db, term)
        }
        guard let dimension = dimension(field) else { return [] }
        let known = try String.fetchAll(db, sql: "SELECT DISTINCT value FROM issue_day_dim WHERE dim = ?",
                                        arguments: [dimension.rawValue])
        return known.filter { term.admitsDimension($0) != term.negated }
    }

    /// A sentence for each term that lets no stored value through, with a prefix it may have meant
    /// (`os:17` where the store holds `iOS 17.4`: `os:17*`) or a few values the store does hold.
    static func unmatched(_ db: SQLDatabase, _ terms: [SearchTerm]) throws -> [String] {
        var sentences: [String] = []
        for term in terms where !term.negated {
            if term.field == .user {
                let (condition, arguments) = userCondition(term)
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM event WHERE \(condition))", arguments: arguments) != true {
                    sentences.append("no event's user is \"\(term.values.map(\.text).joined(separator: "|"))\" (an id, e-mail, user name or IP address as the sender gave it).")
                }
                continue
            }
            guard let field = term.field, try matchingValues(db, term).isEmpty else { continue }
            let asked = term.values.map(\.text).joined(separator: "|")
            var prefixed = term
            prefixed.values = term.values.map { SearchValue($0.text, comparison: $0.comparison, isPrefix: true) }
            if !term.values.contains(where: \.isPrefix), term.values.allSatisfy({ $0.comparison == .equal }),
               !(try matchingValues(db, prefixed)).isEmpty {
                sentences.append("no \(field.rawValue) is \"\(asked)\"; did you mean \(prefixed.description)?")
                continue
            }
            let known = try matchingValues(db, SearchTerm(field: field, values: [SearchValue("", isPrefix: true)])).sorted()
            let some = known.prefix(3).joined(separator: ", ") + (known.count > 3 ? ", …" : "")
            sentences.append("no \(field.rawValue) is \"\(asked)\"" + (known.isEmpty ? " (the store holds none)." : " (the store holds \(some))."))
        }
        return sentences
    }

    /// SQL over the event table for the events dimension terms let through, with its arguments
    /// and each term's matching values.
    static func eventCondition(_ db: SQLDatabase, _ terms: [SearchTerm]) throws -> (String, SQLArguments, [[String]]) {
        var clauses: [String] = ["1 = 1"], arguments = SQLArguments()
        var values: [[String]] = []
        for term in terms {
            if term.field == .user {
                let (clause, more) = userCondition(term)
                values.append([])
                clauses.append(clause)
                arguments += more
                continue
            }
            if term.field?.isFacet == true {
                let (clause, more) = facetCondition(try matchingFacets(db, term), negated: term.negated)
                values.append([])
                clauses.append(clause)
                arguments += more
                continue
            }
            let matched = try matchingValues(db, term)
            values.append(matched)
            clauses.append(matched.isEmpty ? "1 = 0" : "\(column(term.field!)) IN (\(databaseQuestionMarks(count: matched.count)))")
            arguments += SQLArguments(matched)
        }
        return (clauses.joined(separator: " AND "), arguments, values)
    }

    /// `user:` over the event table: the user as the sender gave it (`UserIdentity`): an id as
    /// given, an e-mail, user name or IP address by its hash; `user:u07*` by the id's prefix. Read
    /// from the events alone: the store lists no users, so a value that matches none is not told
    /// what it may have meant. A negated term keeps the events without a user.
    static func userCondition(_ term: SearchTerm) -> (String, SQLArguments) {
        var alternatives: [String] = [], arguments = SQLArguments()
        for value in term.values {
            if value.isPrefix {
                alternatives.append("substr(user_id, 1, CAST(? AS INTEGER)) = ?")
                arguments += [value.text.unicodeScalars.count, value.text]
            } else {
                let forms = UserIdentity.storedForms(of: value.text)
                alternatives.append("user_id IN (\(databaseQuestionMarks(count: forms.count)))")
                arguments += SQLArguments(forms)
            }
        }
        let any = "(" + alternatives.joined(separator: " OR ") + ")"
        return (term.negated ? "(user_id IS NULL OR NOT \(any))" : any, arguments)
    }

    /// Recounts events, users and series of the candidates over the events the terms let through.
    /// One term over days reads the breakdown rollup for events; users always come from events.
    static func restrict(_ db: SQLDatabase, _ terms: [SearchTerm], _ candidates: inout [Candidate],
                         buckets: Buckets) throws -> Restriction {
        let (condition, arguments, values) = try eventCondition(db, terms)
        var index: [Int64: Int] = [:]
        for (i, c) in candidates.enumerated() {
            index[c.id] = i
            candidates[i].events = 0
            candidates[i].users = 0
        }
        var series: [Int64: [Int]] = [:]
        let range = [buckets.range.lowerBound, buckets.range.upperBound]
        let rows: [SQLRow]
        if terms.count == 1, !buckets.hourly, terms[0].field!.isFacet, !terms[0].negated {
            let pairs = try matchingFacets(db, terms[0])
            let byFacet = Dictionary(grouping: pairs, by: \.facet)
            let clause = byFacet.map { "(facet = ? AND value IN (\(databaseQuestionMarks(count: $0.value.count))))" }.joined(separator: " OR ")
            rows = pairs.isEmpty ? [] : try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, day, SUM(events) FROM issue_day_facet WHERE (\(clause)) AND day BETWEEN ? AND ?
                GROUP BY issue_id, day
                """, arguments: SQLArguments(byFacet.flatMap { [$0.key] + $0.value.map(\.value) }) + SQLArguments(range))
        } else if terms.count == 1, !buckets.hourly, let dimension = dimension(terms[0].field!) {
            rows = values[0].isEmpty ? [] : try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, day, SUM(events) FROM issue_day_dim
                WHERE dim = ? AND value IN (\(databaseQuestionMarks(count: values[0].count))) AND day BETWEEN ? AND ?
                GROUP BY issue_id, day
                """, arguments: [dimension.rawValue] + SQLArguments(values[0]) + SQLArguments(range))
        } else {
            let unit = buckets.hourly ? Timestamp.millisPerHour : Timestamp.millisPerDay
            rows = try SQLRow.fetchAll(db, sql: """
                SELECT issue_id, \(floorBucket("ts", unit)) AS bucket, COUNT(*) FROM event
                WHERE ts BETWEEN ? AND ? AND \(condition) GROUP BY issue_id, bucket
                """, arguments: [buckets.millis.lowerBound, buckets.millis.upperBound] + arguments)
        }
        for row in rows {
            guard let i = index[(try row.decode(0))] else { continue }
            let bucket: Int64 = (try row.decode(1)), n: Int = try row.decode(2)
            candidates[i].events += n
            series[(try row.decode(0)), default: [Int](repeating: 0, count: buckets.count)][Int(bucket - buckets.range.lowerBound)] = n
        }
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT issue_id, COUNT(DISTINCT user_id) FROM event WHERE ts BETWEEN ? AND ? AND \(condition) GROUP BY issue_id
            """, arguments: [buckets.millis.lowerBound, buckets.millis.upperBound] + arguments) {
            guard let i = index[(try row.decode(0))] else { continue }
            candidates[i].users = try row.decode(1)
        }
        return Restriction(condition: condition, arguments: arguments, series: series)
    }

    /// The header's totals under dimension terms: the listed issues' restricted counts, and their
    /// distinct users over the matching events.
    static func restrictedTotals(_ db: SQLDatabase, _ candidates: [Candidate], _ restriction: Restriction,
                                 buckets: Buckets) throws -> Totals {
        var series = [Int](repeating: 0, count: buckets.count)
        let issues = candidates.flatMap(\.issues)
        for c in issues {
            for (i, n) in (restriction.series[c.id] ?? []).enumerated() { series[i] += n }
        }
        let users = try restrictedUsers(db, issueIDs: issues.filter { $0.events > 0 }.map(\.id), restriction, buckets: buckets)
        return Totals(issues: candidates.count, events: candidates.reduce(0) { $0 + $1.events }, users: users,
                      complaints: candidates.reduce(0) { $0 + $1.complaints }, series: series)
    }
}
