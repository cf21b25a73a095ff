import TriageModel

/// The members of a native event line, wherever they were found: in a value tree (`NativeDecoder`)
/// or straight in the line's bytes (`NativeLineDecoder`). Both readers turn them into an event here,
/// so they check the same things in the same order and reject with the same reasons.
struct NativeFields {
    var eventID: JSONValue?
    var timestamp: JSONValue?
    var codes: JSONValue?
    var chain: JSONValue?
    var appVersion: JSONValue?
    var appBuild: JSONValue?
    var platform: JSONValue?
    var osName: JSONValue?
    var osVersion: JSONValue?
    var deviceModel: JSONValue?
    var network: JSONValue?
    var orientation: JSONValue?
    var appState: JSONValue?
    var freeRAM: JSONValue?
    var freeDisk: JSONValue?
    var jailbroken: JSONValue?
    var userID: JSONValue?
    var sessionID: JSONValue?
    var environment: JSONValue?
    var message: JSONValue?
    var keys: JSONValue?
    var kind: JSONValue?
    var project: JSONValue?
    var level: JSONValue?

    init() {}

    /// The members of a parsed line (the first of a repeated name, as `JSONValue`'s subscript reads).
    init(tree v: JSONValue) {
        eventID = v["event_id"]
        timestamp = v["timestamp"]
        codes = v["codes"]
        chain = v["chain"]
        appVersion = v.at("app.version")
        appBuild = v.at("app.build")
        platform = v["platform"]
        osName = v.at("os.name")
        osVersion = v.at("os.version")
        let device = v["device"]
        deviceModel = device?["model"]
        orientation = device?["orientation"]
        appState = device?["app_state"]
        freeRAM = device?["free_ram"]
        freeDisk = device?["free_disk"]
        jailbroken = device?["jailbroken"]
        network = v["network"]
        userID = v["user_id"]
        sessionID = v["session_id"]
        environment = v["environment"]
        message = v["message"]
        keys = v["keys"]
        kind = v["kind"]
        project = v["project"]
        level = v["level"]
    }

    /// The event these members make, or the first reason to reject the line; `chain` reads the
    /// chain from `codes` and `chain` (`NativeDecoder.chain`, or a memo of it).
    func event(source: String,
               chain readChain: (JSONValue?, JSONValue?) throws(LineRejection) -> ErrorChain = NativeDecoder.chain)
        throws(LineRejection) -> ErrorEvent {
        guard let eventID = try optionalText(eventID, field: "event_id") else { throw LineRejection("missing event_id") }
        let time = try TriageImport.timestamp(timestamp, field: "timestamp")
        let chain = try readChain(codes, chain)
        var customKeys: [(key: String, value: String)] = []
        if let k = keys {
            guard case .object(let members) = k else { throw LineRejection("keys must be an object, found \(k.kindName)") }
            customKeys = members.map { ($0.0, $0.1.text ?? $0.1.serialized) }
        }
        return ErrorEvent(
            eventID: eventID, timestamp: time, chain: chain,
            appVersion: try optionalText(appVersion, field: "app.version"),
            appBuild: try optionalText(appBuild, field: "app.build"),
            platform: try optionalText(platform, field: "platform"),
            osName: try optionalText(osName, field: "os.name"),
            osVersion: try optionalText(osVersion, field: "os.version"),
            deviceModel: try optionalText(deviceModel, field: "device.model"),
            network: try optionalText(network, field: "network"),
            orientation: try optionalText(orientation, field: "device.orientation"),
            appState: try optionalText(appState, field: "device.app_state"),
            freeRAM: try optionalInt(freeRAM, field: "device.free_ram"),
            freeDisk: try optionalInt(freeDisk, field: "device.free_disk"),
            jailbroken: jailbroken?.bool,
            userID: try optionalText(userID, field: "user_id"),
            sessionID: try optionalText(sessionID, field: "session_id"),
            environment: try optionalText(environment, field: "environment"),
            message: try optionalText(message, field: "message"),
            customKeys: customKeys, source: source, kind: try NativeDecoder.kind(kind),
            project: try optionalText(project, field: "project"), level: try optionalText(level, field: "level"))
    }
}
