import TriageModel

/// ELK-style reports, the payload Swift error reporters post to a Logstash/Kibana stack.
///
/// The chain: the metadata's `error_codes_stack` zipped with its `error_codes` (short key) where
/// both are there, or `error_codes_stack` alone when it is a short key; otherwise one link of the
/// report's `domain` and `code` (the stack, if any, is kept among the custom keys). A logic error
/// reported as `LogicError(File.swift:34 >>> function(_:))` groups by that origin: its code is a
/// stable number made from the origin text, and its name is the origin. Reports carry no id: the
/// event id is a hash of the whole line, so re-ingesting a file changes nothing.
public struct ELKDecoder: RecordDecoder {
    public let source = "elk"
    public init() {}

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        try decode(v, eventID: "elk-" + StableHash.hex(v.serialized))
    }

    func decode(_ v: JSONValue, eventID: String) throws(LineRejection) -> ImportedRecord {
        let time = try timestamp(v["reported_at"] ?? v["@timestamp"] ?? v["timestamp"], field: "reported_at")
        guard let domain = v["domain"]?.nonEmptyText else { throw LineRejection("missing domain") }
        let mobile = v["mobile"]
        let metadataKey = v.members.first { $0.0.hasSuffix(".metadata") || $0.0 == "metadata" }
        var keys: [(key: String, value: String)] = metadataKey?.1.members.map { ($0.0, $0.1.text ?? $0.1.serialized) } ?? []
        if let development = mobile?["development"]?.bool { keys.append(("development", development ? "true" : "false")) }
        let stack = keys.first { $0.key == "error_codes_stack" }?.value
        let shortKey = keys.first { $0.key == "error_codes" }?.value
        var chain: ErrorChain
        if let stack, let key = shortKey.flatMap(ShortKey.canonical), let zipped = try? ErrorChain.zip(shortKey: key, fullForm: stack) {
            chain = zipped
        } else if let stack, let key = ShortKey.canonical(stack) {
            chain = try NativeDecoder.chain(codes: .string(key), chain: nil)
        } else if let origin = LogicOrigin(domain) {
            chain = ErrorChain(links: [ChainLink(domain: LogicOrigin.domain, short: LogicOrigin.short, code: origin.code, name: origin.text)])
        } else {
            guard let code = v["code"]?.int64, let c = Int(exactly: code) else { throw LineRejection("missing integer code") }
            chain = ErrorChain(links: [ChainLink(domain: domain, short: "", code: c, name: nil)])
        }
        return .event(ErrorEvent(
            eventID: eventID, timestamp: time, chain: chain,
            appVersion: mobile?["version"]?.nonEmptyText, appBuild: mobile?["build_number"]?.nonEmptyText,
            platform: mobile?["platform"]?.nonEmptyText, osName: nil, osVersion: nil, deviceModel: nil,
            network: mobile?["network"]?.nonEmptyText, orientation: nil, appState: nil, freeRAM: nil, freeDisk: nil,
            jailbroken: nil, userID: nil, sessionID: nil, environment: v["environment"]?.nonEmptyText,
            message: v["message"]?.nonEmptyText, customKeys: keys, source: source))
    }
}
