import TriageModel

/// Crashlytics' BigQuery export, one row per line as BigQuery extracts it to NDJSON.
///
/// The chain: the short key from `issue_title` (apps that follow the error-chain approach set the
/// NSError domain to it, so `errors[].title` carries it too) zipped with the full form from the
/// custom key `error_codes_stack`. A row without a chain (a plain NSError) becomes a one-link
/// chain of `errors[0]`'s domain and code; an Android row without one, a one-link chain of the
/// first exception thrown (code 0). Its kind: `error_type`, else `is_fatal`.
public struct CrashlyticsDecoder: RecordDecoder {
    public let source = "crashlytics"
    /// Chains already made from a short-key title and its stack (zipping one was a quarter of
    /// reading a row).
    private let chains = ChainMemo<[String?]>()
    public init() {}

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        guard let eventID = try optionalText(v["event_id"], field: "event_id") else { throw LineRejection("missing event_id") }
        let time = try timestamp(v["event_timestamp"], field: "event_timestamp")
        var keys: [(key: String, value: String)] = []
        for item in v["custom_keys"]?.elements ?? [] {
            guard let key = item["key"]?.text else { continue }
            keys.append((key, item["value"]?.text ?? item["value"]?.serialized ?? ""))
        }
        let stack = keys.first { $0.key == "error_codes_stack" }?.value
        // Only a chain made from a title that is a short key (and the stack) is remembered: nothing
        // else of the row goes into it.
        let title = CrashlyticsDecoder.title(v)
        let chain = try chains.chain(for: [title, stack], keep: { _ in title.flatMap(ShortKey.canonical) != nil }) { () throws(LineRejection) in
            try CrashlyticsDecoder.chain(row: v, stack: stack)
        }
        let network = keys.first { $0.key.lowercased() == "network" }?.value
        let modification = v["operating_system"]?["modification_state"]?.text?.uppercased()
        // (Members looked up level by level: `at`'s dotted paths split a new string per part per row.)
        return .event(ErrorEvent(
            eventID: eventID, timestamp: time, chain: chain,
            appVersion: v["application"]?["display_version"]?.nonEmptyText,
            appBuild: v["application"]?["build_version"]?.nonEmptyText,
            platform: v["platform"]?.nonEmptyText?.lowercased(),
            osName: v["operating_system"]?["name"]?.nonEmptyText,
            osVersion: v["operating_system"]?["display_version"]?.nonEmptyText,
            deviceModel: v["device"]?["model"]?.nonEmptyText,
            network: network,
            orientation: v["app_orientation"]?.nonEmptyText?.lowercased(),
            appState: v["process_state"]?.nonEmptyText?.lowercased(),
            freeRAM: try optionalInt(v["memory"]?["free"], field: "memory.free"),
            freeDisk: try optionalInt(v["storage"]?["free"], field: "storage.free"),
            jailbroken: modification == "MODIFIED" ? true : modification == "UNMODIFIED" ? false : nil,
            userID: v["user"]?["id"]?.nonEmptyText,
            sessionID: v["firebase_session_id"]?.nonEmptyText ?? v["installation_uuid"]?.nonEmptyText,
            environment: nil,
            message: v["issue_subtitle"]?.nonEmptyText ?? v["errors"]?.elements.first?["subtitle"]?.nonEmptyText,
            customKeys: keys, source: source, kind: CrashlyticsDecoder.kind(v)))
    }

    /// `error_type` (`FATAL`, `NON_FATAL`, `ANR`), else the deprecated `is_fatal`.
    static func kind(_ v: JSONValue) -> EventKind? {
        if let type = v["error_type"]?.nonEmptyText, let kind = EventKind(source: type) { return kind }
        return v["is_fatal"]?.bool.map { $0 ? .crash : .nonFatal }
    }

    static func chain(row v: JSONValue, stack: String?) throws(LineRejection) -> ErrorChain {
        let title = title(v)
        if let title, let key = ShortKey.canonical(title) {
            if let stack, !stack.isEmpty {
                do {
                    return try ErrorChain.zip(shortKey: key, fullForm: stack)
                } catch {
                    throw LineRejection("issue_title \(key) and error_codes_stack do not match: \(error)")
                }
            }
            return try NativeDecoder.chain(codes: .string(key), chain: nil)
        }
        if let error = v["errors"]?.elements.first {
            guard let domain = error["title"]?.nonEmptyText ?? title else { throw LineRejection("errors[0] has no title (the NSError domain)") }
            guard let code = error["code"]?.int64, let c = Int(exactly: code) else {
                throw LineRejection("errors[0] has no integer code")
            }
            return ErrorChain(links: [ChainLink(domain: domain, short: "", code: c, name: v["issue_subtitle"]?.nonEmptyText.map(shortName))])
        }
        if let exception = v["exceptions"]?.elements.last, let type = exception["type"]?.nonEmptyText {
            return ErrorChain(links: [ChainLink(domain: type, short: "", code: 0, name: nil)])
        }
        throw LineRejection("no chain: issue_title is not a short key and the row has no errors[] or exceptions[]")
    }

    /// The row's title: the issue's, else its first error's (the NSError domain).
    static func title(_ v: JSONValue) -> String? {
        v["issue_title"]?.text ?? v["errors"]?.elements.first?["title"]?.text
    }

    /// A subtitle as a name: the first line, at most 80 characters.
    static func shortName(_ text: String) -> String {
        String(text.prefix { $0 != "\n" }.prefix(80))
    }
}
