import TriageModel

/// Sentry event payloads, one per line.
///
/// `exception.values` runs root cause first, so it is reversed. Each value's `type` is the
/// domain and `mechanism.meta.ns_error.code` the code; a value without one gets code 0 and its
/// `value` (the message) as the name, so code-less errors of one type group together.
public struct SentryDecoder: RecordDecoder {
    public let source = "sentry"
    public init() {}

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        guard let eventID = try optionalText(v["event_id"], field: "event_id") else { throw LineRejection("missing event_id") }
        let time = try timestamp(v["timestamp"], field: "timestamp")
        let values = v.at("exception.values")?.elements ?? v["exception"]?.elements ?? []
        guard !values.isEmpty else { throw LineRejection("no exception.values: nothing to group by") }
        var links: [ChainLink] = []
        for (n, value) in values.reversed().enumerated() {
            guard let type = value["type"]?.nonEmptyText ?? value.at("mechanism.meta.ns_error.domain")?.nonEmptyText else {
                throw LineRejection("exception value \(n + 1) has no type")
            }
            let code = value.at("mechanism.meta.ns_error.code")?.int64.flatMap { Int(exactly: $0) }
            let name = value["value"]?.nonEmptyText.map(CrashlyticsDecoder.shortName)
            links.append(ChainLink(domain: type, short: "", code: code ?? 0, name: name))
        }
        var keys: [(key: String, value: String)] = []
        switch v["tags"] {
        case .object(let members)?: keys = members.map { ($0.0, $0.1.text ?? $0.1.serialized) }
        case .array(let pairs)?:
            for pair in pairs {
                let items = pair.elements
                if items.count == 2, let k = items[0].text { keys.append((k, items[1].text ?? "")) }
            }
        default: break
        }
        let release = v["release"]?.nonEmptyText
        let releaseVersion = release.flatMap { AppVersion($0) }
        let app = v.at("contexts.app")
        let foreground = app?["in_foreground"]?.bool
        return .event(ErrorEvent(
            eventID: eventID, timestamp: time, chain: ErrorChain(links: links),
            appVersion: app?["app_version"]?.nonEmptyText ?? releaseVersion?.display,
            appBuild: app?["app_build"]?.nonEmptyText ?? v["dist"]?.nonEmptyText ?? releaseVersion?.build.map(String.init),
            platform: v["platform"]?.nonEmptyText,
            osName: v.at("contexts.os.name")?.nonEmptyText,
            osVersion: v.at("contexts.os.version")?.nonEmptyText,
            deviceModel: v.at("contexts.device.model")?.nonEmptyText,
            network: keys.first { $0.key.lowercased() == "network" }?.value,
            orientation: v.at("contexts.device.orientation")?.nonEmptyText,
            appState: foreground.map { $0 ? "foreground" : "background" },
            freeRAM: v.at("contexts.device.free_memory")?.int64,
            freeDisk: v.at("contexts.device.free_storage")?.int64,
            jailbroken: nil,
            userID: v.at("user.id")?.nonEmptyText,
            sessionID: nil,
            environment: v["environment"]?.nonEmptyText,
            message: values.last?["value"]?.nonEmptyText ?? v["message"]?.nonEmptyText,
            customKeys: keys, source: source))
    }
}
