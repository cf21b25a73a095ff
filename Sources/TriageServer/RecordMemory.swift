import TriageModel

/// What a decoded record costs in memory, as the intake holds it against the budget
/// (`InFlightBudget`) from its decoding until its request is answered: the record's value in
/// the batch's array, each text too long to be stored inline (a Swift string holds up to 15
/// UTF-8 bytes in itself) with its allocation's header, the payload it came with, and what the
/// writer's preparation adds (the issue key, the custom keys and facets as stored text).
///
/// An estimate from the layout, not a measurement; HostileBoundsTests holds the server's peak
/// memory (VmHWM) to the budget and 64 MiB of the decoders' working memory under one and four
/// bodies of 400,000 records (measured: a record of that body takes about 1.1 KB, which this
/// gives as about 1.6 KB; four bodies at once peaked 1–39 MiB past a 128 MiB budget, one alone
/// 22 MiB under it).
enum RecordMemory {
    /// An allocation's header and malloc's rounding, per allocation.
    static let allocation = 32

    static func text(_ s: String?) -> Int {
        guard let s else { return 0 }
        let n = s.utf8.count
        return n > 15 ? n + allocation : 0
    }

    /// The record's value in the batch's array, at its worst: the array doubles as it grows, and
    /// while it does the old storage and the new are both held (three values' room for one).
    static func inArray<T>(_ type: T.Type) -> Int { 3 * MemoryLayout<T>.stride }

    static func bytes(_ e: ErrorEvent) -> Int {
        var n = inArray(ErrorEvent.self) + 4 * MemoryLayout<String?>.stride
        for s in [e.eventID, e.appVersion, e.appBuild, e.platform, e.osName, e.osVersion, e.deviceModel, e.network, e.orientation,
                  e.appState, e.userID, e.sessionID, e.environment, e.message, e.source, e.project, e.level] {
            n += text(s)
        }
        n += links(e.chain.links)
        if let former = e.formerChain { n += allocation + former.links.count * 2 * MemoryLayout<String?>.stride + 64 * former.links.count }
        // Each pair in the event, and again in the stored text `prepare` makes of them.
        for pairs in [e.customKeys, e.facets] where !pairs.isEmpty {
            n += allocation + pairs.count * 2 * MemoryLayout<String>.stride
            for (key, value) in pairs { n += text(key) + text(value) + key.utf8.count + value.utf8.count + 6 }
        }
        if let payload = e.payload { n += payload.count + allocation }
        return n
    }

    static func links(_ links: [ChainLink]) -> Int {
        var n = allocation + links.count * MemoryLayout<ChainLink>.stride
        for link in links {
            n += text(link.domain) + text(link.short) + text(link.name)
            // The issue key `prepare` makes: each link's short code and a dash.
            n += link.short.utf8.count + 21
        }
        return n
    }

    static func bytes(_ c: Complaint) -> Int {
        var n = inArray(Complaint.self)
        for s in [c.complaintID, c.channel, c.category, c.subject, c.text, c.userID, c.eventID] { n += text(s) }
        n += allocation + c.codes.reduce(0) { $0 + MemoryLayout<String>.stride + text($1) }
        return n
    }

    static func bytes(_ a: AdoptionRecord) -> Int {
        switch a {
        case .daily(_, let version, _, _): inArray(AdoptionRecord.self) + text(version)
        case .session(let id, _, let version, let installation): inArray(AdoptionRecord.self) + text(id) + text(version) + text(installation)
        }
    }
}
