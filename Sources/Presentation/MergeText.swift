import TriageModel

/// `errtriage merge --suggest` as text and JSON.
public enum MergeText {
    public static func text(_ suggestions: [MergeSuggestion]) -> String {
        guard !suggestions.isEmpty else { return "No two issues look like one problem under two chains.\n" }
        var out = "errtriage merge --suggest — \(suggestions.count) candidate pair\(suggestions.count == 1 ? "" : "s"), strongest first; nothing is merged\n"
        let keyWidth = suggestions.flatMap { [$0.older.key, $0.newer.key] }.map { TextSanitizer.width($0) }.max() ?? 3
        func line(_ c: MergeCandidate) -> String {
            Format.fit(TextSanitizer.sanitize(c.key), keyWidth) + "  " + Format.right(String(c.events), 7) + " events  "
                + Format.fit(Format.versionRange(c.firstVersion, c.lastVersion), 10) + "  " + TextSanitizer.sanitize(Format.title(c.chain)) + "\n"
        }
        for s in suggestions {
            out += "\n" + line(s.older) + line(s.newer)
            for reason in s.reasons { out += "  why: " + TextSanitizer.sanitize(Format.mergeReason(reason)) + "\n" }
        }
        return out
    }

    public static func json(_ suggestions: [MergeSuggestion]) -> JSONValue {
        func issue(_ c: MergeCandidate) -> JSONValue {
            .object([("key", .string(c.key)), ("chain", .string(c.chain.fullForm)), ("events", ReportJSON.int(c.events)),
                     ("first_version", c.firstVersion.map(JSONValue.string) ?? .null),
                     ("last_version", c.lastVersion.map(JSONValue.string) ?? .null)])
        }
        return .object([("suggestions", .array(suggestions.map { s in
            .object([("older", issue(s.older)), ("newer", issue(s.newer)),
                     ("reasons", .array(s.reasons.map { .string(Format.mergeReason($0)) }))])
        }))])
    }
}
