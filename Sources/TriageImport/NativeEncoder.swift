import TriageModel

/// Writes errtriage's own NDJSON (README, "Native format"): the writing side of `NativeDecoder`,
/// used by `export`. The round trip is a property test (NativeRoundTripTests).
public enum NativeEncoder {
    /// An event as one native NDJSON line, which `NativeDecoder` reads back as the same event;
    /// `inert` escapes what a terminal would act on as well (`JSONValue.inertSerialized`).
    public static func line(_ e: ErrorEvent, inert: Bool = false) -> String {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var device: [(String, JSONValue)] = [("model", text(e.deviceModel)), ("orientation", text(e.orientation)), ("app_state", text(e.appState))]
        if let v = e.freeRAM { device.append(("free_ram", .number(String(v)))) }
        if let v = e.freeDisk { device.append(("free_disk", .number(String(v)))) }
        if let v = e.jailbroken { device.append(("jailbroken", .bool(v))) }
        let value = JSONValue.object([
            ("event_id", .string(e.eventID)), ("timestamp", .string(e.timestamp.iso8601)),
            ("codes", .string(e.chain.shortKey)),
            ("chain", .array(e.chain.links.map { l in
                .object([("domain", text(l.domain)), ("short", .string(l.short)), ("code", .number(String(l.code))), ("name", text(l.name))])
            })),
            ("app", .object([("version", text(e.appVersion)), ("build", text(e.appBuild))])),
            ("os", .object([("name", text(e.osName)), ("version", text(e.osVersion))])),
            ("device", .object(device)), ("platform", text(e.platform)), ("network", text(e.network)),
            ("user_id", text(e.userID)), ("session_id", text(e.sessionID)), ("environment", text(e.environment)),
            ("message", text(e.message)), ("keys", .object(e.customKeys.map { ($0.key, .string($0.value)) })),
        ] + (e.kind.map { [("kind", JSONValue.string($0.rawValue))] } ?? [])
          + (e.project.map { [("project", JSONValue.string($0))] } ?? [])
          + (e.level.map { [("level", JSONValue.string($0))] } ?? []))
        return inert ? value.inertSerialized : value.serialized
    }
}
