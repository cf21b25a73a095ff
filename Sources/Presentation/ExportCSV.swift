import TriageModel

/// `errtriage export --format csv`: a header row, then one row per event.
public enum ExportCSV {
    public static let header = ["event_id", "timestamp", "key", "chain", "app_version", "app_build", "platform", "os_name", "os_version",
                            "device_model", "network", "orientation", "app_state", "free_ram", "free_disk", "jailbroken", "user_id",
                            "session_id", "environment", "message", "source", "keys", "kind", "level"]

    public static func row(_ e: ErrorEvent) -> [String] {
        [e.eventID, e.timestamp.iso8601, e.chain.shortKey, e.chain.fullForm, e.appVersion ?? "", e.appBuild ?? "", e.platform ?? "",
         e.osName ?? "", e.osVersion ?? "", e.deviceModel ?? "", e.network ?? "", e.orientation ?? "", e.appState ?? "",
         e.freeRAM.map(String.init) ?? "", e.freeDisk.map(String.init) ?? "", e.jailbroken.map { $0 ? "true" : "false" } ?? "",
         e.userID ?? "", e.sessionID ?? "", e.environment ?? "", e.message ?? "", e.source,
         JSONValue.object(e.customKeys.map { ($0.key, .string($0.value)) }).serialized, e.kind?.rawValue ?? "", e.level ?? ""]
    }
}
