/// Text as a store can hold it and give it back unchanged.
///
/// U+0000 is the one scalar a Swift string holds that the stores cannot: PostgreSQL's `text`
/// refuses it, and SQLite's C interfaces end a string at it, so a value holding it would be read
/// back shorter than it was written. Every record is made storable before it is written
/// (`IngestWriter.Batch.prepare`): U+0000 becomes U+2400 SYMBOL FOR NULL, which every output
/// shows as `␀`, identically on both engines.
public enum StorableText {
    /// What U+0000 is stored as.
    public static let nulStandIn: Unicode.Scalar = "\u{2400}"

    /// The text with every U+0000 replaced by `nulStandIn`; the same string when it holds none.
    public static func clean(_ text: String) -> String {
        guard holdsNul(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(scalar == "\u{0}" ? nulStandIn : scalar) }
        return String(scalars)
    }

    /// `clean` of an optional text.
    public static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        return clean(text)
    }

    /// Bytes with every zero byte replaced by the UTF-8 of `nulStandIn`.
    public static func clean(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        for b in bytes {
            if b == 0 { out += [0xE2, 0x90, 0x80] } else { out.append(b) }
        }
        return out
    }

    /// Whether the text holds U+0000 (its UTF-8 holds a zero byte only then).
    public static func holdsNul(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(0) }
    }
}

extension ErrorEvent {
    /// The event with every text made storable (`StorableText`). A new text field of the event
    /// must be added here: `StorableTextTests` fills every field with U+0000 and reads them all.
    public mutating func makeStorable() {
        let c = StorableText.clean as (String) -> String
        let o = StorableText.clean as (String?) -> String?
        eventID = c(eventID)
        chain.makeStorable()
        appVersion = o(appVersion); appBuild = o(appBuild); platform = o(platform)
        osName = o(osName); osVersion = o(osVersion); deviceModel = o(deviceModel)
        network = o(network); orientation = o(orientation); appState = o(appState)
        userID = o(userID); sessionID = o(sessionID); environment = o(environment)
        message = o(message); source = c(source); project = o(project); level = o(level)
        formerChain?.makeStorable()
        priorChain?.makeStorable()
        if words.contains(where: { StorableText.holdsNul($0.place) || $0.tokens.contains(where: StorableText.holdsNul) }) {
            words = words.map { LinkWords(link: $0.link, place: c($0.place), tokens: $0.tokens.map(c), bySite: $0.bySite) }
        }
        // The payload is bytes, compressed into a blob; a NUL byte in it (which no JSON text holds
        // unescaped) becomes the stand-in's UTF-8 all the same, so that no reading of it meets one.
        if let bytes = payload, bytes.contains(0) { payload = StorableText.clean(bytes) }
        if customKeys.contains(where: { StorableText.holdsNul($0.key) || StorableText.holdsNul($0.value) }) {
            customKeys = customKeys.map { (c($0.key), c($0.value)) }
        }
        if facets.contains(where: { StorableText.holdsNul($0.value) }) {
            facets = facets.map { ($0.key, c($0.value)) }
        }
    }
}

extension ErrorChain {
    /// The chain with every link's texts made storable.
    public mutating func makeStorable() {
        for i in links.indices {
            links[i].domain = StorableText.clean(links[i].domain)
            links[i].short = StorableText.clean(links[i].short)
            links[i].name = StorableText.clean(links[i].name)
        }
    }
}

extension Complaint {
    /// The complaint with every text made storable.
    public mutating func makeStorable() {
        let c = StorableText.clean as (String) -> String
        let o = StorableText.clean as (String?) -> String?
        complaintID = c(complaintID)
        channel = o(channel); category = o(category); subject = o(subject)
        text = c(text); userID = o(userID); eventID = o(eventID)
        codes = codes.map(c)
    }
}

extension AdoptionRecord {
    /// The record with every text made storable.
    public func storable() -> AdoptionRecord {
        switch self {
        case .daily(let day, let version, let users, let sessions):
            .daily(day: day, version: StorableText.clean(version), users: users, sessions: sessions)
        case .session(let id, let at, let version, let installation):
            .session(id: StorableText.clean(id), at: at, version: StorableText.clean(version), installation: StorableText.clean(installation))
        }
    }
}
