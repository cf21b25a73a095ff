import TriageModel

/// The templates learned at each place (`word_template`, schema 21): which positions of the
/// messages met at one place vary, so that a link whose words decide its code gets the code of the
/// template its words join there (`load coupon <value>`) however new its data, and a link's name
/// is the same whichever of its events came first (`WordTemplate`).
///
/// A template keeps the code it was given with its first message for ever: a key once given never
/// changes. When a template learns a new varying position its name changes, and the writer renames
/// the link in the code dictionary and in the chains of the issues that hold it (`Renamed`).
/// The templates of a place are read from the store when an event first names the place, and
/// cached until another writer commits (the writer's `revalidate`) or a transaction rolls back.
struct TemplateLearner {
    /// The templates of each place met, by place, the lowest code first.
    private var places: [String: [WordTemplate]] = [:]

    /// A link's name that changed as its template learned a varying position.
    struct Renamed: Hashable {
        var domain: String
        var code: Int
        var from: String
        var to: String
    }

    /// Gives each link of `chain` that `words` name the code and the name of the template it joins
    /// at its place (learning the template, or adding it, in the store); the names that changed.
    mutating func apply(_ words: [LinkWords], to chain: inout ErrorChain, db: SQLDatabase) throws -> [Renamed] {
        var renamed: [Renamed] = []
        for w in words where w.link < chain.links.count && !w.tokens.isEmpty {
            var link = chain.links[w.link]
            var list = try templates(at: w.place, db: db)
            let index: Int?
            if w.bySite {
                index = list.indices.first
            } else {
                // The most similar template of the place, else the one that has this link's code already.
                var best: (Int, Double)?
                for (i, t) in list.enumerated() {
                    guard let s = t.similarity(w.tokens) else { continue }
                    if best == nil || s > best!.1 { best = (i, s) }
                }
                index = best?.0
                // Another template of the place has the code its first words give: this one takes the code of its whole name.
                if index == nil, list.contains(where: { $0.code == link.code }) {
                    link.code = MessageTemplate.derivedCode(domain: w.place, name: WordTemplate.name(w.tokens))
                }
            }
            if let index {
                let template = list[index]
                let merged = template.merged(with: w.tokens)
                if merged != template.tokens {
                    list[index].tokens = merged
                    places[w.place] = list
                    try db.execute(sql: "UPDATE word_template SET tokens = ? WHERE place = ? AND code = ?",
                                   arguments: [Self.stored(merged), w.place, template.code])
                    if let domain = link.domain, template.name != WordTemplate.name(merged) {
                        renamed.append(Renamed(domain: domain, code: template.code, from: template.name, to: WordTemplate.name(merged)))
                    }
                }
                if !w.bySite { link.code = template.code }
                link.name = WordTemplate.name(merged)
            } else {
                let template = WordTemplate(tokens: w.tokens, code: link.code)
                list.append(template)
                list.sort { $0.code < $1.code }
                places[w.place] = list
                try db.execute(sql: "INSERT INTO word_template (place, code, tokens) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                               arguments: [w.place, template.code, Self.stored(template.tokens)])
                link.name = template.name
            }
            chain.links[w.link] = link
        }
        return renamed
    }

    /// The templates of a place, from the cache or the store.
    private mutating func templates(at place: String, db: SQLDatabase) throws -> [WordTemplate] {
        if let known = places[place] { return known }
        var list: [WordTemplate] = []
        for row in try SQLRow.fetchAll(db, sql: "SELECT code, tokens FROM word_template WHERE place = ? ORDER BY code", arguments: [place]) {
            list.append(WordTemplate(tokens: Self.tokens(try row.decode(1)), code: try row.decode(0)))
        }
        if places.count >= 50_000 { places.removeAll(keepingCapacity: true) }
        places[place] = list
        return list
    }

    /// Forgets what it read: another writer may have learned since, or the transaction rolled back.
    mutating func forget() { places = [:] }

    static func stored(_ tokens: [String]) -> String { tokens.joined(separator: "\u{1F}") }
    static func tokens(_ text: String) -> [String] { text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
}

extension IngestWriter {
    /// The event's chain with the codes and names of the templates its links' words join, the
    /// names that changed renamed wherever the store holds them: the code dictionary, the chains of
    /// the issues that hold the link (cached ones too, and `met`'s).
    func learnedChain(_ raw: ErrorEvent, met: inout [String: IssueState], db: SQLDatabase) throws -> ErrorChain {
        var chain = raw.chain
        guard !raw.words.isEmpty else { return chain }
        for renamed in try learner.apply(raw.words, to: &chain, db: db) {
            try db.execute(sql: "UPDATE code_dictionary SET name = ? WHERE domain = ? AND code = ? AND name = ?",
                           arguments: [renamed.to, renamed.domain, renamed.code, renamed.from])
            for (code, name) in dictionary where code.code == renamed.code && name.domain == renamed.domain && name.name == renamed.from {
                dictionary[code] = FullForm.Name(domain: renamed.domain, name: renamed.to)
            }
            let holders = try Int64.fetchAll(db, sql: "SELECT DISTINCT issue_id FROM chain_link WHERE domain = ? AND code = ? AND name = ?",
                                             arguments: [renamed.domain, renamed.code, renamed.from])
            for id in holders {
                var stored = try TriageStore.chain(db, issueID: id)
                for i in stored.links.indices where stored.links[i].domain == renamed.domain && stored.links[i].code == renamed.code
                    && stored.links[i].name == renamed.from {
                    stored.links[i].name = renamed.to
                }
                try TriageStore.writeChain(db, issueID: id, chain: stored)
                for (key, state) in issues where state.id == id { issues[key]?.chain = stored }
                for (key, state) in met where state.id == id { met[key]?.chain = stored }
            }
        }
        return chain
    }
}
