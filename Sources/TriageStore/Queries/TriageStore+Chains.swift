import TriageModel

extension TriageStore {
    /// Replaces an issue's chain links and its full form.
    static func writeChain(_ db: SQLDatabase, issueID: Int64, chain: ErrorChain) throws {
        try db.execute(sql: "DELETE FROM chain_link WHERE issue_id = ?", arguments: [issueID])
        for (position, link) in chain.links.enumerated() {
            try db.execute(sql: "INSERT INTO chain_link (issue_id, position, domain, short, code, name, origin) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [issueID, position, link.domain, link.short, link.code, link.name, link.origin?.rawValue])
        }
        try db.execute(sql: "UPDATE issue SET chain = ? WHERE id = ?", arguments: [chain.fullForm, issueID])
    }

    /// An issue's chain, outermost first.
    static func chain(_ db: SQLDatabase, issueID: Int64) throws -> ErrorChain {
        let rows = try SQLRow.fetchAll(db, sql: "SELECT domain, short, code, name, origin FROM chain_link WHERE issue_id = ? ORDER BY position",
                                    arguments: [issueID])
        return ErrorChain(links: try rows.map { ChainLink(domain: (try $0.decode(0)), short: (try $0.decode(1)), code: (try $0.decode(2)), name: (try $0.decode(3)), origin: origin((try $0.decode(4)))) })
    }

    /// Reads every chain of a set of issues in one query.
    static func chains(_ db: SQLDatabase, issueIDs: [Int64]) throws -> [Int64: ErrorChain] {
        guard !issueIDs.isEmpty else { return [:] }
        var result: [Int64: [ChainLink]] = [:]
        let marks = databaseQuestionMarks(count: issueIDs.count)
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT issue_id, domain, short, code, name, origin FROM chain_link WHERE issue_id IN (\(marks)) ORDER BY issue_id, position
            """, arguments: SQLArguments(issueIDs)) {
            result[(try row.decode(0)), default: []].append(ChainLink(domain: (try row.decode(1)), short: (try row.decode(2)), code: (try row.decode(3)), name: (try row.decode(4)), origin: origin((try row.decode(5)))))
        }
        return result.mapValues { ErrorChain(links: $0) }
    }

    /// A stored origin; NULL (and any text this version does not know) reads as stated.
    static func origin(_ text: String?) -> CodeOrigin? { text.flatMap(CodeOrigin.init(rawValue:)) }

    /// Decodes a short key with the code dictionary: every link, named where the store has seen
    /// it, with where its code came from (nil where the source stated it).
    public func decode(_ key: String) throws(StoreError) -> [(code: ShortKey.Code, name: FullForm.Name?, origin: CodeOrigin?)] {
        guard let codes = try? ShortKey.parse(key) else { return [] }
        return try read { db in
            // Where each code came from is a fact of the issue's links, where the store has the issue.
            let issue = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE key = ?", arguments: [key])
            let links = try issue.map { try TriageStore.chain(db, issueID: $0).links } ?? []
            return try codes.enumerated().map { position, code in
                let row = try SQLRow.fetchOne(db, sql: "SELECT domain, name FROM code_dictionary WHERE short = ? AND code = ?",
                                           arguments: [code.short, code.code])
                let origin = links.count == codes.count ? links[position].origin : nil
                return (code, try row.map { FullForm.Name(domain: (try $0.decode(0)), name: (try $0.decode(1))) }, origin)
            }
        }
    }

    /// Records an automatic regression with a history row naming the event that caused it.
    static func recordRegression(_ db: SQLDatabase, issueID: Int64, event: ErrorEvent) throws {
        try db.execute(sql: "UPDATE issue SET status = 'regressed' WHERE id = ?", arguments: [issueID])
        let version = [event.appVersion, event.appBuild.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        try db.execute(sql: """
            INSERT INTO status_change (issue_id, from_status, to_status, version, at, "by", note) VALUES (?, 'resolved', 'regressed', ?, ?, 'errtriage', ?)
            """, arguments: [issueID, event.appVersion, event.timestamp.millis,
                             "event \(event.eventID) from version \(version.isEmpty ? "unknown" : version) at \(event.timestamp.iso8601)"])
    }
}
