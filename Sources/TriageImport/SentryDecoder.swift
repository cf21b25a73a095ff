import TriageModel

/// Sentry event payloads, one per line, as SDKs send them and as Sentry's own samples are written.
///
/// `exception.values` runs root cause first, so it is reversed, or read as a tree where it is one
/// (`SentryException`); an event without one is a log record or a message (`SentryMessage`); a
/// `fingerprint` other than `{{ default }}` decides the issue (`SentryFingerprint`). The level
/// is kept (`level:` in queries) and `fatal` makes a crash. Older SDKs' keys
/// `sentry.interfaces.Exception`, `sentry.interfaces.User`, `sentry.interfaces.Message`,
/// `sentry.interfaces.Http` and `sentry.interfaces.Stacktrace` read as `exception`, `user`,
/// `logentry`, `request` and `stacktrace`. Release and
/// environment fall back to the tags `sentry:release` and `environment`; the time to `received`.
/// Users count by `user.id`, else a hash of `email`, `username` or `ip_address` (`SentryUser`).
public struct SentryDecoder: RecordDecoder {
    public let source = "sentry"
    public init() {}

    /// The legacy interface keys and the keys they stand for.
    static let legacyKeys = [
        ("sentry.interfaces.Exception", "exception"), ("sentry.interfaces.User", "user"),
        ("sentry.interfaces.Message", "logentry"), ("sentry.interfaces.Http", "request"),
        ("sentry.interfaces.Stacktrace", "stacktrace"),
    ]

    public func decode(_ sent: JSONValue) throws(LineRejection) -> ImportedRecord {
        try decode(sent, fallbackTime: nil)
    }

    /// `fallbackTime`: the time of an event that gives neither `timestamp` nor `received` — what
    /// Sentry's Relay takes, the time it was sent or received (an envelope's `sent_at`, else the
    /// receipt); nil refuses such an event (a line of a file, which has no receipt).
    public func decode(_ sent: JSONValue, fallbackTime: Timestamp?) throws(LineRejection) -> ImportedRecord {
        // Secrets go before anything is read, so that grouping reads the texts as they are stored
        // (`password=hunter2` and `password=hunter3` are one situation), as Sentry's do.
        let v = SecretScrubber.scrub(sent)
        guard let rawID = try optionalText(v["event_id"], field: "event_id") else { throw LineRejection("missing event_id") }
        let given = [v["timestamp"], v["received"]].contains { $0 != nil && $0 != .null }
        let time = try given || fallbackTime == nil
            ? timestamp(v["timestamp"] ?? v["received"], field: v["timestamp"] == nil && v["received"] != nil ? "received" : "timestamp")
            : fallbackTime!
        let exception = SentryDecoder.member(v, "exception")
        let values = try SentryException.values(exception)
        let tags = SentryDecoder.tags(v["tags"])
        let tag = { (name: String) in tags.first { $0.key.lowercased() == name }?.value }
        var keys = tags
        let reading: SentryException.Reading
        let message: String?
        if !values.isEmpty {
            reading = try SentryException.chain(values, stacks: SentryStacks(event: v))
            if !reading.others.isEmpty {
                keys.append(("exception_group.other_branches", reading.others.map(\.fullForm).joined(separator: " | ")))
            }
            message = reading.outermost?["value"]?.nonEmptyText ?? SentryMessage.text(v)
        } else if let read = SentryMessage.read(v) {
            reading = SentryException.Reading(chain: ErrorChain(links: [read.link]), outermost: nil, others: [], former: nil,
                                              prior: read.prior.map { FormerChain(links: [$0]) }, words: read.words.map { [$0] } ?? [])
            message = read.text
        } else {
            if exception != nil { throw LineRejection("exception holds no exception value (only null): nothing to group by") }
            if v["stacktrace"] != nil || v["sentry.interfaces.Stacktrace"] != nil {
                throw LineRejection("a stack trace without an exception or a message: nothing to group by")
            }
            throw LineRejection("no exception and no message: nothing to group by")
        }
        let fingerprint = SentryFingerprint(v["fingerprint"])
        if fingerprint != nil, !values.isEmpty { keys.append(("exception_chain", reading.chain.fullForm)) }
        let chain = fingerprint.map { $0.chain(reading.chain) } ?? reading.chain
        let former = reading.former.flatMap { former in fingerprint.map { $0.former(former) } ?? former }
        let prior = reading.prior.flatMap { prior in fingerprint.map { $0.former(prior) } ?? prior }
        // A fingerprint without the default replaces the chain: no template of it is learned.
        let words = fingerprint.map { $0.keepsDefault } ?? true ? reading.words : []
        let level = SentryDecoder.level(v["level"]?.nonEmptyText ?? tag("level"))
        let release = v["release"]?.nonEmptyText ?? tag("sentry:release")
        let releaseVersion = release.flatMap { AppVersion($0) }
        let app = v.at("contexts.app")
        let foreground = app?["in_foreground"]?.bool
        let user = SentryDecoder.member(v, "user")
        return .event(ErrorEvent(
            eventID: SentryDecoder.canonicalID(rawID), timestamp: time, chain: chain,
            appVersion: app?["app_version"]?.nonEmptyText ?? releaseVersion?.display,
            appBuild: app?["app_build"]?.nonEmptyText ?? v["dist"]?.nonEmptyText ?? tag("sentry:dist")
                ?? releaseVersion?.build.map(String.init),
            platform: v["platform"]?.nonEmptyText,
            osName: v.at("contexts.os.name")?.nonEmptyText,
            osVersion: v.at("contexts.os.version")?.nonEmptyText,
            deviceModel: v.at("contexts.device.model")?.nonEmptyText,
            network: tag("network"),
            orientation: v.at("contexts.device.orientation")?.nonEmptyText,
            appState: foreground.map { $0 ? "foreground" : "background" },
            freeRAM: v.at("contexts.device.free_memory")?.int64,
            freeDisk: v.at("contexts.device.free_storage")?.int64,
            jailbroken: nil,
            userID: SentryUser.id(user),
            sessionID: nil,
            environment: v["environment"]?.nonEmptyText ?? tag("environment"),
            message: message,
            customKeys: keys, facets: SentryDecoder.facets(v), source: source,
            kind: SentryException.kind(level: level, values: values, platform: v["platform"]?.nonEmptyText), level: level, formerChain: former,
            priorChain: prior, words: words))
    }

    /// The event's level as Sentry names levels: lowercase, `warn` read as `warning` and
    /// `critical` as `fatal` (what logging libraries call them); nil where none is given.
    static func level(_ text: String?) -> String? {
        guard let text = text?.trimmingASCIIWhitespace().lowercased(), !text.isEmpty else { return nil }
        switch text {
        case "warn": return "warning"
        case "critical": return "fatal"
        default: return text
        }
    }

    /// Where the event happened, as `ContextFacet`s: the server's name, the runtime and browser
    /// with their versions, the transaction (else the request's URL without its query), the logger.
    static func facets(_ v: JSONValue) -> [(key: String, value: String)] {
        func named(_ context: String) -> String? {
            guard let c = v.at("contexts." + context) else { return nil }
            guard let name = c["name"]?.nonEmptyText else { return c["raw_description"]?.nonEmptyText.map(SentryDecoder.shortDescription) }
            guard let version = c["version"]?.nonEmptyText.map(SentryDecoder.shortDescription) else { return name }
            // sentry-ruby names the runtime `ruby3.1` and gives `ruby 3.1.2p20 (2022-04-12 …) [x86_64-linux-gnu]` as its version.
            let first = version.prefix { $0 != " " }.lowercased()
            return first.first?.isLetter == true && name.lowercased().hasPrefix(first) ? version : "\(name) \(version)"
        }
        let url = member(v, "request")?["url"]?.nonEmptyText.map(SentryDecoder.path(ofURL:))
        let values: [(ContextFacet, String?)] = [
            (.server, v["server_name"]?.nonEmptyText), (.runtime, named("runtime")), (.browser, named("browser")),
            (.transaction, v["transaction"]?.nonEmptyText ?? url), (.logger, v["logger"]?.nonEmptyText),
        ]
        return values.compactMap { facet, value in value.map { (facet.rawValue, $0) } }
    }

    /// A runtime's or browser's description without what follows its version: a build's date in
    /// parentheses, a platform in brackets (`ruby 3.1.2p20 (2022-04-12 revision …) [x86_64-linux-gnu]`).
    static func shortDescription(_ text: String) -> String {
        var cut = Substring(text)
        for mark in [" (", " ["] { if let r = cut.range(of: mark) { cut = cut[..<r.lowerBound] } }
        return String(cut)
    }

    /// A request URL's path, which names the route as a transaction would: without its scheme,
    /// host, query and fragment (`https://shop.example/cart?id=7` is `/cart`).
    static func path(ofURL url: String) -> String {
        var rest = Substring(url.prefix { $0 != "?" && $0 != "#" })
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        return String(rest)
    }

    /// A member by its key, else by the legacy interface key that stands for it.
    static func member(_ v: JSONValue, _ key: String) -> JSONValue? {
        if let value = v[key], value != .null { return value }
        guard let legacy = legacyKeys.first(where: { $0.1 == key })?.0 else { return nil }
        return v[legacy]
    }

    /// Tags as an object or as `[key, value]` pairs, in their order.
    static func tags(_ value: JSONValue?) -> [(key: String, value: String)] {
        switch value {
        case .object(let members)?: return members.map { ($0.0, $0.1.text ?? $0.1.serialized) }
        case .array(let pairs)?:
            return pairs.compactMap { pair in
                let items = pair.elements
                guard items.count == 2, let k = items[0].text else { return nil }
                return (k, items[1].text ?? "")
            }
        default: return []
        }
    }

    /// Event ids compare as Sentry's do: 32 hex digits, case and dashes ignored, so one id is
    /// stored as 32 lowercase digits; any other id is kept as it is.
    static func canonicalID(_ id: String) -> String {
        let digits = id.utf8.filter { $0 != UInt8(ascii: "-") }
        guard digits.count == 32, digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }) else {
            return id
        }
        return String(decoding: digits.map { $0 >= 65 && $0 <= 70 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// How Sentry counts users: by `id`, else `email`, `username`, `ip_address`.
enum SentryUser {
    /// The id as given; an email, user name or IP address only as a stable hash (`email:…`,
    /// `username:…`, `ip:…`), since the store needs to tell users apart, not to show who they are.
    static func id(_ user: JSONValue?) -> String? {
        guard let user else { return nil }
        if let id = user["id"]?.nonEmptyText { return id }
        for (field, kind) in zip(["email", "username", "ip_address"], UserIdentity.hashedKinds) {
            if let text = user[field]?.nonEmptyText { return UserIdentity.hashed(kind, text) }
        }
        return nil
    }
}

/// Sentry's `fingerprint`, where the app sets one: the issue follows it, as it does in Sentry.
///
/// `["{{ default }}", "eu"]` refines the default grouping: the chain gains a last link
/// `Fingerprint.eu`. A fingerprint without `{{ default }}` replaces it: the chain is that one link,
/// so every event with it is one issue, and the event keeps its exception chain as the custom
/// key `exception_chain`. The link's code is derived from the fingerprint's text.
struct SentryFingerprint {
    var parts: [String]
    var keepsDefault: Bool

    /// Nil where the event has no fingerprint or only the default one.
    init?(_ value: JSONValue?) {
        let all = (value?.elements ?? []).compactMap { $0.text }
        let isDefault = { (part: String) in part.filter { $0 != " " }.lowercased() == "{{default}}" }
        parts = all.filter { !isDefault($0) && !$0.isEmpty }
        keepsDefault = all.contains(where: isDefault)
        guard !parts.isEmpty else { return nil }
    }

    /// The link that stands for the fingerprint.
    var link: ChainLink {
        let name = String(parts.joined(separator: " ").prefix(MessageTemplate.maxNameLength))
        return ChainLink(domain: "Fingerprint", short: "", code: MessageTemplate.derivedCode(domain: "Fingerprint", name: name),
                         name: name, origin: .derived)
    }

    /// The event's chain as the fingerprint groups it.
    func chain(_ exceptionChain: ErrorChain) -> ErrorChain {
        keepsDefault ? ErrorChain(links: exceptionChain.links + [link]) : ErrorChain(links: [link])
    }

    /// The former chain as the fingerprint groups it: nil where the fingerprint alone decides,
    /// which it did before schema 14 as well.
    func former(_ exceptionChain: FormerChain) -> FormerChain? {
        keepsDefault ? FormerChain(links: exceptionChain.links + [.read(link)]) : nil
    }
}
