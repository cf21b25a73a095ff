import TriageImport
import TriageModel
import TriageStore

/// The sample's decisions file: one decision per line,
/// `{"key","status","version","at","by","note","tracker","mute_events"}` (status, version, tracker and mute_events optional).
public enum DecisionFile {
    public static func line(_ d: DecisionRecord) -> String {
        var members: [(String, JSONValue)] = [("key", .string(d.key))]
        if let status = d.status { members.append(("status", .string(status.rawValue))) }
        if let version = d.version { members.append(("version", .string(version))) }
        members += [("at", .string(d.at.iso8601)), ("by", .string(d.by)), ("note", .string(d.note))]
        if let tracker = d.tracker { members.append(("tracker", .string(tracker))) }
        if let n = d.muteEvents { members.append(("mute_events", .number(String(n)))) }
        return JSONValue.object(members).serialized
    }

    public static func parse(_ bytes: [UInt8]) -> DecisionRecord? {
        guard let v = try? JSONParser.parse(bytes), let key = v["key"]?.text.flatMap(ShortKey.canonical),
              let at = v["at"]?.text.flatMap(Timestamp.parse) else { return nil }
        let status = v["status"]?.text.flatMap(IssueStatus.init(rawValue:))
        if v["status"] != nil, status == nil { return nil }
        return DecisionRecord(key: key, status: status, version: v["version"]?.text, at: at,
                                        by: v["by"]?.text ?? "demo", note: v["note"]?.text ?? "",
                                        tracker: v["tracker"]?.text, muteEvents: v["mute_events"]?.int64.map { Int($0) })
    }

    /// Records a decision through the same store calls as `mark` and the dashboard.
    public static func apply(_ d: DecisionRecord, to store: TriageStore) throws {
        let note = d.note.isEmpty ? nil : d.note
        switch (d.status, d.muteEvents) {
        case (.muted?, let n?):
            _ = try store.mute(d.key, until: .events(n), by: d.by, at: d.at, note: note)
        case (let status?, _):
            _ = try store.mark(d.key, .status(status, version: d.version), by: d.by, at: d.at, note: note)
        case (nil, _):
            if let note { _ = try store.mark(d.key, .note(note), by: d.by, at: d.at) }
        }
        if let tracker = d.tracker { _ = try store.mark(d.key, .tracker(tracker), by: d.by, at: d.at) }
    }

    /// Records every decision of a decisions file, in order; a line that is not one stops it, named.
    public static func applyAll(path: String, to store: TriageStore) throws {
        let reader = try LineReader(path: path)
        while let line = try reader.next() {
            guard let decision = parse(line.bytes) else { throw InputError(path: path, reason: "line \(line.number) is not a decision line") }
            try apply(decision, to: store)
        }
    }
}
