import TriageModel

/// Which domain holds each short name (the `domain_short` table, cached): one domain per short
/// name and one short name per domain, for ever.
struct ShortNameOwners {
    var shortByDomain: [String: String] = [:]
    var domainByShort: [String: String] = [:]
    /// Short names the data gave (as opposed to derived by errtriage).
    var explicit: Set<String> = []
    /// Every short name a stored chain link carries, held or not: never derived for another domain.
    var used: Set<String> = []
    /// Per first candidate, where its derivation's steps 4 and 5 resume: every name before that
    /// index is taken, and taken names are never freed (`DomainShortName.derive(_:isTaken:extendedFrom:)`).
    var extendedFrom: [String: Int] = [:]

    init() {}

    init(_ db: SQLDatabase) throws {
        for row in try SQLRow.fetchAll(db, sql: "SELECT domain, short, explicit FROM domain_short") {
            let domain: String = (try row.decode(0)), short: String = try row.decode(1)
            shortByDomain[domain] = short
            domainByShort[short] = domain
            if (try row.decode(2)) as Bool { explicit.insert(short) }
        }
        used = Set(try String.fetchAll(db, sql: "SELECT DISTINCT short FROM chain_link"))
    }

    /// The next free candidate for a domain (`DomainShortName.derive(_:isTaken:)`), in time that
    /// does not grow with the domains that share its first candidate.
    mutating func derive(_ domain: String) -> String {
        let primary = DomainShortName.derive(domain)
        let (name, index) = DomainShortName.derive(domain, isTaken: { domainByShort[$0] != nil || used.contains($0) },
                                                   extendedFrom: extendedFrom[primary] ?? 0)
        if let index { extendedFrom[primary] = index }
        return name
    }
}

extension IngestWriter {
    /// Gives every link its short name and claims the names the data gives: a link without one
    /// takes its domain's, else the next free candidate; a link that gives one makes its domain
    /// the holder (`claim`). Then fills names from the code dictionary.
    func resolve(_ chain: ErrorChain, db: SQLDatabase) throws -> ErrorChain {
        for link in chain.links where !link.short.isEmpty {
            if let domain = link.domain { try claim(link.short, for: domain, db: db) }
        }
        let resolved = try ErrorChain(links: chain.links.map { link in
            var link = link
            if link.short.isEmpty, let domain = link.domain {
                link.short = try owners.shortByDomain[domain] ?? hold(owners.derive(domain), for: domain, explicit: false, db: db)
            }
            if !link.isNamed, let known = dictionary[ShortKey.Code(short: link.short, code: link.code)] {
                link.domain = link.domain ?? known.domain
                link.name = link.name ?? known.name
            }
            return link
        })
        for link in resolved.links { owners.used.insert(link.short) }
        return resolved
    }

    /// An app's own short name wins. When the data gives `short` for `domain`:
    /// - held by that domain already: nothing changes;
    /// - held by another domain that errtriage derived it for: that domain moves to its next free
    ///   candidate, and its issues, code dictionary entries and the complaints citing them are
    ///   re-keyed, so that no key means two things;
    /// - held by another domain whose data gave it too: the data contradicts itself; the first
    ///   holder keeps it and the link is stored as given;
    /// - free: the domain holds it, even if it held a derived name before (its earlier issues
    ///   keep their keys: that name stays its own and is never derived for another domain).
    func claim(_ short: String, for domain: String, db: SQLDatabase) throws {
        if let holder = owners.domainByShort[short] {
            if holder == domain {
                if !owners.explicit.contains(short) {
                    try db.execute(sql: "UPDATE domain_short SET explicit = 1 WHERE domain = ?", arguments: [domain])
                    owners.explicit.insert(short)
                }
                return
            }
            if owners.explicit.contains(short) { return }
            owners.used.insert(short)
            try move(holder, from: short, to: owners.derive(holder), db: db)
        }
        if owners.shortByDomain[domain] != nil {
            try db.execute(sql: "DELETE FROM domain_short WHERE domain = ?", arguments: [domain])
            owners.domainByShort[owners.shortByDomain[domain]!] = nil
        }
        _ = try hold(short, for: domain, explicit: true, db: db)
    }

    /// Records that `domain` holds `short`.
    private func hold(_ short: String, for domain: String, explicit: Bool, db: SQLDatabase) throws -> String {
        try db.execute(sql: "INSERT INTO domain_short (domain, short, explicit) VALUES (?, ?, ?)", arguments: [domain, short, explicit])
        owners.shortByDomain[domain] = short
        owners.domainByShort[short] = domain
        if explicit { owners.explicit.insert(short) }
        owners.used.insert(short)
        return short
    }

    /// Moves a domain from a derived short name to another, re-keying what carries the old one.
    private func move(_ domain: String, from old: String, to new: String, db: SQLDatabase) throws {
        try db.execute(sql: "DELETE FROM domain_short WHERE domain = ?", arguments: [domain])
        owners.domainByShort[old] = nil
        _ = try hold(new, for: domain, explicit: false, db: db)
        try db.execute(sql: "UPDATE code_dictionary SET short = ? WHERE short = ? AND domain = ?", arguments: [new, old, domain])
        for (code, name) in dictionary where code.short == old && name.domain == domain {
            dictionary[code] = nil
            dictionary[ShortKey.Code(short: new, code: code.code)] = name
        }
        try db.execute(sql: "UPDATE chain_link SET short = ? WHERE short = ? AND domain = ?", arguments: [new, old, domain])
        let moved = try Int64.fetchAll(db, sql: "SELECT DISTINCT issue_id FROM chain_link WHERE short = ? AND domain = ?", arguments: [new, domain])
        for id in moved {
            guard let oldKey = try String.fetchOne(db, sql: "SELECT key FROM issue WHERE id = ?", arguments: [id]) else { continue }
            let chain = try TriageStore.chain(db, issueID: id)
            let newKey = chain.shortKey
            try db.execute(sql: "UPDATE issue SET key = ? WHERE id = ?", arguments: [newKey, id])
            if var cached = issues.removeValue(forKey: oldKey) {
                cached.chain = ErrorChain(links: cached.chain.links.map { link in
                    var link = link
                    if link.short == old, link.domain == domain { link.short = new }
                    return link
                })
                issues[newKey] = cached
            }
            try rekeyComplaints(from: oldKey, to: newKey, issueID: id, db: db)
        }
    }

    /// Complaints citing an issue's old key cite its new one; those that cited the new key alone
    /// (no issue had it) now count for the issue too.
    private func rekeyComplaints(from oldKey: String, to newKey: String, issueID: Int64, db: SQLDatabase) throws {
        for t in try Int64.fetchAll(db, sql: """
            SELECT c.ts FROM complaint_code k JOIN complaint c ON c.id = k.complaint_id
            WHERE k.key = ? AND k.complaint_id NOT IN (SELECT complaint_id FROM complaint_code WHERE key = ?)
            """, arguments: [newKey, oldKey]) {
            pendingComplaints.append((Timestamp(millis: t), issueID))
        }
        try db.execute(sql: "UPDATE complaint SET linked = 1 WHERE linked = 0 AND id IN (SELECT complaint_id FROM complaint_code WHERE key = ?)",
                       arguments: [newKey])
        try db.execute(sql: """
            UPDATE complaint_code SET key = ? WHERE key = ? AND complaint_id NOT IN (SELECT complaint_id FROM complaint_code WHERE key = ?)
            """, arguments: [newKey, oldKey, newKey])
        try db.execute(sql: "DELETE FROM complaint_code WHERE key = ?", arguments: [oldKey])
    }
}
