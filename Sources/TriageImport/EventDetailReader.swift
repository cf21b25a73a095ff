import TriageModel

/// Reads a kept payload (as the store gives it back) into an `EventDetail`, by the source that
/// read it: a Sentry event, a Crashlytics row, an ELK object or a native line.
public enum EventDetailReader {
    /// The detail of a payload; a payload that is not a JSON object gives an event with its
    /// text as the message, so that what was kept can still be read.
    public static func read(_ payload: [UInt8], source: String, eventID: String, timestamp: Timestamp?) -> EventDetail {
        guard let value = try? JSONParser.parse(payload), case .object = value else {
            return EventDetail(eventID: eventID, timestamp: timestamp, source: source, message: String(decoding: payload, as: UTF8.self))
        }
        var detail: EventDetail
        switch source {
        case "sentry": detail = sentry(value, eventID: eventID)
        case "crashlytics": detail = crashlytics(value, eventID: eventID)
        default: detail = flat(value, eventID: eventID, source: source)
        }
        detail.timestamp = detail.timestamp ?? timestamp
        return detail
    }

    // MARK: Sentry

    static func sentry(_ v: JSONValue, eventID: String) -> EventDetail {
        var d = EventDetail(eventID: eventID, source: "sentry")
        d.timestamp = time(v["timestamp"])
        d.level = v["level"]?.nonEmptyText
        d.platform = v["platform"]?.nonEmptyText
        d.message = v.at("logentry.formatted")?.nonEmptyText ?? v.at("logentry.message")?.nonEmptyText
            ?? v["message"]?.nonEmptyText ?? v.at("message.formatted")?.nonEmptyText ?? v.at("message.message")?.nonEmptyText
        // Sentry lists a chain's exceptions the root cause first; the detail shows the outermost first.
        let exceptions = (v.at("exception.values") ?? v["exception"]).map(list) ?? []
        let isGo = SentryStacks(event: v).isGo
        d.exceptions = exceptions.reversed().enumerated().map { n, e -> EventException in
            var exception = EventException(type: e["type"]?.nonEmptyText, value: e["value"]?.nonEmptyText, module: e["module"]?.nonEmptyText,
                                           mechanism: e.at("mechanism.type")?.nonEmptyText, handled: e.at("mechanism.handled")?.bool,
                                           frames: sentryFrames(e["stacktrace"], isGo: isGo))
            // sentry-go's stack on the outermost value is where it was reported, or a recovered panic's.
            if isGo, n == 0, !SentryStacks.goStackTypes.contains(e["type"]?.text ?? ""), let frames = e.at("stacktrace.frames")?.elements,
               !frames.isEmpty {
                if let cut = SentryFrames.goPanicCut(frames) {
                    exception.recoveryFrames = frames.count - cut
                } else {
                    exception.reportedHere = true
                }
            }
            return exception
        }
        d.boundExceptions()
        if d.exceptions.isEmpty {
            d.stack = sentryFrames(v["stacktrace"] ?? v["threads"].flatMap { list($0).first { $0["stacktrace"] != nil }?["stacktrace"] },
                                   isGo: isGo)
        }
        d.breadcrumbs = (v["breadcrumbs"].map(list) ?? []).map { b in
            EventBreadcrumb(timestamp: time(b["timestamp"]), category: b["category"]?.nonEmptyText, level: b["level"]?.nonEmptyText,
                            type: b["type"]?.nonEmptyText, message: b["message"]?.nonEmptyText, data: fields(b["data"]))
        }
        d.tags = fields(v["tags"])
        d.contexts = (v["contexts"]?.members ?? []).map { EventContext(name: $0.0, fields: fields($0.1)) }
        if let r = v["request"], case .object = r {
            d.request = EventRequest(method: r["method"]?.nonEmptyText, url: r["url"]?.nonEmptyText,
                                     query: r["query_string"].flatMap(queryText), headers: fields(r["headers"]),
                                     data: r["data"].map { $0.text ?? $0.serialized })
        }
        d.user = fields(v["user"])
        d.release = v["release"]?.nonEmptyText
        d.environment = v["environment"]?.nonEmptyText
        d.serverName = v["server_name"]?.nonEmptyText
        d.transaction = v["transaction"]?.nonEmptyText
        d.logger = v["logger"]?.nonEmptyText
        if let name = v.at("sdk.name")?.nonEmptyText { d.sdk = name + (v.at("sdk.version")?.nonEmptyText.map { " " + $0 } ?? "") }
        d.extra = fields(v["extra"])
        return d
    }

    /// Sentry's frames are the oldest call first; the detail's, the innermost first. Each frame's
    /// `in_app` is as the SDK meant it (`SentryFrames.inApp`): sentry-go leaves it out of library
    /// frames, and marks the module cache's frames the app's.
    static func sentryFrames(_ stacktrace: JSONValue?, isGo: Bool = false) -> [EventFrame] {
        guard let frames = stacktrace?["frames"] else { return [] }
        let all = list(frames)
        let owner = SentryFrames.inApp(all, isGo: isGo)
        return all.indices.reversed().map { i in
            let f = all[i]
            return EventFrame(function: f["function"]?.nonEmptyText, module: f["module"]?.nonEmptyText,
                       file: f["filename"]?.nonEmptyText ?? f["abs_path"]?.nonEmptyText, line: f["lineno"]?.int64.map { Int($0) },
                       column: f["colno"]?.int64.map { Int($0) }, inApp: owner[i], contextLine: f["context_line"]?.text,
                       preContext: list(f["pre_context"] ?? .null).compactMap(\.text),
                       postContext: list(f["post_context"] ?? .null).compactMap(\.text), package: f["package"]?.nonEmptyText,
                       absPath: f["abs_path"]?.nonEmptyText)
        }
    }

    // MARK: Crashlytics

    static func crashlytics(_ v: JSONValue, eventID: String) -> EventDetail {
        var d = EventDetail(eventID: eventID, source: "crashlytics")
        d.timestamp = time(v["event_timestamp"])
        d.platform = v["platform"]?.nonEmptyText
        d.level = v["error_type"]?.nonEmptyText
        d.message = v["issue_title"]?.nonEmptyText
        // `exceptions` (crashes: the outermost first) or `errors` (non-fatals).
        let items = (v["exceptions"].map(list) ?? []) + (v["errors"].map(list) ?? [])
        d.exceptions = items.map { e in
            EventException(type: e["type"]?.nonEmptyText ?? e["title"]?.nonEmptyText,
                           value: e["exception_message"]?.nonEmptyText ?? e["subtitle"]?.nonEmptyText,
                           frames: list(e["frames"] ?? .null).map(crashlyticsFrame))
        }
        d.boundExceptions()
        if d.exceptions.isEmpty, let blame = v["blame_frame"] { d.stack = [crashlyticsFrame(blame)] }
        d.breadcrumbs = (v["breadcrumbs"].map(list) ?? []).map { b in
            EventBreadcrumb(timestamp: time(b["timestamp"]), category: b["name"]?.nonEmptyText, data: fields(b["params"]))
        }
        d.logs = (v["logs"].map(list) ?? []).map { EventBreadcrumb(timestamp: time($0["timestamp"]), message: $0["message"]?.text) }
        d.tags = fields(v["custom_keys"])
        var contexts: [EventContext] = []
        for (name, key) in [("app", "application"), ("device", "device"), ("os", "operating_system"), ("memory", "memory"),
                            ("storage", "storage")] {
            if let c = v[key], !c.members.isEmpty { contexts.append(EventContext(name: name, fields: fields(c))) }
        }
        d.contexts = contexts
        d.user = fields(v["user"])
        d.release = v.at("application.display_version")?.nonEmptyText
        d.extra = [("bundle_identifier", v["bundle_identifier"]), ("installation_uuid", v["installation_uuid"]),
                   ("firebase_session_id", v["firebase_session_id"]), ("process_state", v["process_state"]),
                   ("app_orientation", v["app_orientation"])].compactMap { k, x in x?.nonEmptyText.map { EventField(k, $0) } }
        return d
    }

    static func crashlyticsFrame(_ f: JSONValue) -> EventFrame {
        EventFrame(function: f["symbol"]?.nonEmptyText, file: f["file"]?.nonEmptyText, line: f["line"]?.int64.map { Int($0) },
                   inApp: f["owner"]?.text.map { $0 == "DEVELOPER" } ?? f["system"]?.bool.map { !$0 },
                   package: f["library"]?.nonEmptyText)
    }

    // MARK: native, ELK

    /// A native line or an ELK object: its message, the custom keys as tags, each object as a
    /// context, and the other members as extra.
    static func flat(_ v: JSONValue, eventID: String, source: String) -> EventDetail {
        var d = EventDetail(eventID: eventID, source: source)
        d.timestamp = time(v["timestamp"] ?? v["reported_at"])
        d.message = v["message"]?.nonEmptyText
        d.environment = v["environment"]?.nonEmptyText
        d.release = v.at("app.version")?.nonEmptyText ?? v.at("mobile.version")?.nonEmptyText
        d.level = v["level"]?.nonEmptyText
        d.tags = fields(v["keys"] ?? v["custom_keys"])
        d.user = [("id", v["user_id"]), ("session", v["session_id"])].compactMap { k, x in x?.nonEmptyText.map { EventField(k, $0) } }
        let skipped: Set<String> = ["event_id", "timestamp", "reported_at", "message", "environment", "keys", "custom_keys", "level",
                                    "user_id", "session_id"]
        for (name, member) in v.members where !skipped.contains(name) {
            if case .object = member {
                d.contexts.append(EventContext(name: name, fields: fields(member)))
            } else if let text = member.text ?? (member == .null ? nil : member.serialized) {
                d.extra.append(EventField(name, text))
            }
        }
        return d
    }

    // MARK: shared

    /// An array, or a Sentry `{"values": [...]}`.
    static func list(_ v: JSONValue) -> [JSONValue] {
        if case .array(let a) = v { return a }
        if let values = v["values"], case .array(let a) = values { return a }
        return []
    }

    /// An object's members, `[name, value]` pairs, or `{key, value}` items, as fields; a value
    /// that is not a text is written as JSON.
    static func fields(_ v: JSONValue?) -> [EventField] {
        guard let v else { return [] }
        switch v {
        case .object(let members):
            return members.map { EventField($0.0, $0.1.text ?? $0.1.serialized) }
        case .array(let items):
            return items.compactMap { item in
                if case .array(let pair) = item, pair.count == 2, let k = pair[0].text { return EventField(k, pair[1].text ?? pair[1].serialized) }
                if let k = item["key"]?.text, let value = item["value"] { return EventField(k, value.text ?? value.serialized) }
                return nil
            }
        default:
            return []
        }
    }

    static func queryText(_ v: JSONValue) -> String? {
        if let text = v.nonEmptyText { return text }
        let pairs = fields(v)
        return pairs.isEmpty ? nil : pairs.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// A time as text in any accepted form, or epoch seconds.
    static func time(_ v: JSONValue?) -> Timestamp? {
        guard let v else { return nil }
        // A time out of the years a timestamp holds (1e300, 1e999) is no time, never a trap.
        if case .number = v, let seconds = v.double { return Timestamp(epochSeconds: seconds) }
        return v.nonEmptyText.flatMap(Timestamp.parse)
    }
}
