import TriageModel

/// Which issue an event lands in, and the aliases that keep a store made before schema 14 whole.
///
/// Schema 14's grouping reads a link's own words and where it was raised, so some events get
/// other derived codes, and other keys, than the same situation got before. A store made before
/// it keeps its issues and their keys: the first event of a new key whose former chain
/// (`ErrorEvent.formerChain`) gives the key of an issue made then takes that issue, and the new
/// key becomes the issue's alias (`issue_alias`, with a note on the issue saying so). Every later
/// event of the key joins it. An issue takes one alias: where the former grouping had put two
/// situations into one issue, the first met keeps it and the other becomes an issue of its own.
extension IngestWriter {
    /// Reads the aliases and the last issue of the former grouping.
    func loadAliases(_ db: SQLDatabase) throws {
        aliases = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT a.key, i.key FROM issue_alias a JOIN issue i ON i.id = a.issue_id") {
            aliases[(try row.decode(0))] = try row.decode(1)
        }
        formerLastIssue = try TriageStore.meta(db, TriageStore.formerGroupingKey) ?? 0
        priorLastIssue = try TriageStore.meta(db, TriageStore.priorGroupingKey) ?? 0
    }

    /// The issue an event lands in, its key and the chain it is counted with: its key's issue (an
    /// alias's key stands for its issue), else the issue its former chain's key names where that
    /// may take an alias, else a new issue. `met`: the issues new to the batch, not landed yet.
    func findIssue(_ raw: ErrorEvent, prepared: String?, met: inout [String: IssueState], db: SQLDatabase,
                   counts: inout IngestCounts, rollups: inout Rollups) throws -> (key: String, chain: ErrorChain, state: IssueState) {
        if let known = prepared {
            let key = aliases.isEmpty ? known : aliases[known] ?? known
            if let cached = issues[key] ?? met[key], key != known || cached.needsNoResolving(raw.chain) {
                // The usual case: a known issue whose chain has every name (and the same domains),
                // so the dictionary already holds every code of this chain and nothing needs resolving.
                return (key, key == known ? raw.chain : cached.chain, cached)
            }
        }
        let chain = try resolve(try learnedChain(raw, met: &met, db: db), db: db)
        try learn(chain, db: db)
        let ownKey = chain.shortKey
        var key = ownKey
        if !aliases.isEmpty, let target = aliases[key] {
            key = target
        } else if priorLastIssue > 0, issues[key] == nil, met[key] == nil, let prior = raw.priorChain?.chain,
                  let target = try adoptPrior(key, prior: prior, at: raw.timestamp, db: db) {
            key = target
        } else if formerLastIssue > 0, issues[key] == nil, met[key] == nil, let former = raw.formerChain?.chain,
                  let target = try adopt(key, former: former, at: raw.timestamp, db: db) {
            key = target
        }
        let state = try issues[key] ?? met[key]
            ?? issueState(for: key, chain: chain, firstSeen: raw.timestamp, db: db, counts: &counts, rollups: &rollups)
        let counted = key == ownKey ? chain : state.chain
        if issues[key] == nil { met[key] = state }
        for (time, issueID) in pendingComplaints { rollups.addComplaint(at: time, issueID: issueID) }
        pendingComplaints = []
        return (key, counted, state)
    }

    /// Makes `key` the alias of the issue the former chain's key names, where no issue has the key
    /// itself, that issue was made by the former grouping and has no alias yet; its key, or nil.
    private func adopt(_ key: String, former: ErrorChain, at time: Timestamp, db: SQLDatabase) throws -> String? {
        guard let formerKey = formerKey(former), formerKey != key,
              try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) == nil,
              let id = try Int64.fetchOne(db, sql: """
                  SELECT id FROM issue WHERE key = ? AND id <= ? AND id NOT IN (SELECT issue_id FROM issue_alias)
                  """, arguments: [formerKey, formerLastIssue]) else { return nil }
        try db.execute(sql: "INSERT INTO issue_alias (key, issue_id, at) VALUES (?, ?, ?)", arguments: [key, id, time.millis])
        try db.execute(sql: "INSERT INTO note (issue_id, at, \"by\", text) VALUES (?, ?, 'errtriage', ?)", arguments: [
            id, time.millis,
            "Grouping since errtriage's schema 14 reads each error's own words and where it was raised: "
                + "its events now carry the key \(key), and they join this issue, which keeps \(formerKey).",
        ])
        aliases[key] = formerKey
        return formerKey
    }

    /// Makes `key` an alias of the issue the prior chain's key (grouping's from schema 14 to 20)
    /// names, where no issue has the key itself and that issue was made by then (or the prior key
    /// is an alias of one); its key, or nil. An issue may take several such aliases.
    private func adoptPrior(_ key: String, prior: ErrorChain, at time: Timestamp, db: SQLDatabase) throws -> String? {
        guard let priorKey = formerKey(prior), priorKey != key,
              try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key]) == nil else { return nil }
        let target: (id: Int64, key: String)
        if let aliased = aliases[priorKey], let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [aliased]) {
            target = (id, aliased)
        } else if let id = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ? AND id <= ?", arguments: [priorKey, priorLastIssue]) {
            target = (id, priorKey)
        } else {
            return nil
        }
        try db.execute(sql: "INSERT INTO issue_alias (key, issue_id, at) VALUES (?, ?, ?)", arguments: [key, target.id, time.millis])
        try db.execute(sql: "INSERT INTO note (issue_id, at, \"by\", text) VALUES (?, ?, 'errtriage', ?)", arguments: [
            target.id, time.millis,
            "Grouping since errtriage's schema 21 reads where each error was raised from the frames nearest it and learns the "
                + "words that vary at one place: its events now carry the key \(key), and they join this issue, which keeps \(target.key).",
        ])
        aliases[key] = target.key
        return target.key
    }

    /// The key the former chain had: its links' short names as the store holds them for their
    /// domains; nil where a domain holds none (then no issue can have had that key).
    private func formerKey(_ chain: ErrorChain) -> String? {
        var parts: [String] = []
        for link in chain.links {
            let short = link.short.isEmpty ? link.domain.flatMap { owners.shortByDomain[$0] } : link.short
            guard let short else { return nil }
            parts.append(short + ShortKey.encode(code: link.code))
        }
        return parts.joined(separator: "-")
    }
}
