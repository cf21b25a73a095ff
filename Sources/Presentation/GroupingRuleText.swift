import TriageModel

/// Grouping rules as text and JSON: `rule add` (and its `--dry-run`), `rule list`, `rule rm`.
public enum GroupingRuleText {
    /// What a rule takes, or would take: its issue, those that join it with their events, and
    /// those it leaves in other groups.
    public static func preview(_ p: GroupingPreview, dryRun: Bool) -> String {
        let name = TextSanitizer.sanitize(p.name)
        let taken = p.taken
        guard let head = taken.first(where: { $0.role == .head }) else {
            var out = dryRun ? "rule \(name) would take no issue now: the first new issue that matches becomes its issue\n"
                : "rule \(name) added: no issue matches yet; the first new issue that matches becomes its issue\n"
            out += left(p)
            return out
        }
        let issues = taken.count == 1 ? "1 issue" : "\(taken.count) issues"
        let events = p.events == 1 ? "1 event" : "\(Format.grouped(p.events)) events"
        var out = dryRun ? "rule \(name) would take \(issues), \(events), under \(TextSanitizer.sanitize(head.key)):\n"
            : "rule \(name) added: \(issues), \(events), under \(TextSanitizer.sanitize(head.key)); later events that match go there too\n"
        let keyWidth = taken.map { TextSanitizer.width(TextSanitizer.sanitize($0.key)) }.max() ?? 0
        let countWidth = taken.map { Format.grouped($0.events).count }.max() ?? 0
        for issue in taken {
            let role = issue.role == .head ? "head " : "joins"
            let key = TextSanitizer.sanitize(issue.key)
            let pad = String(repeating: " ", count: keyWidth - TextSanitizer.width(key))
            let count = Format.grouped(issue.events)
            out += "  \(role)  \(key)\(pad)  \(String(repeating: " ", count: countWidth - count.count))\(count) events  "
                + TextSanitizer.sanitize(Format.title(issue.chain)) + "\n"
        }
        return out + left(p)
    }

    /// The issues a rule matches but leaves in another group.
    static func left(_ p: GroupingPreview) -> String {
        let others = p.issues.filter { $0.role == .inOtherGroup }
        guard !others.isEmpty else { return "" }
        var out = "Left in other groups (errtriage unmerge KEY, then add the rule again, to let it take them):\n"
        for issue in others {
            out += "  \(TextSanitizer.sanitize(issue.key)), in the group of \(TextSanitizer.sanitize(issue.otherHead ?? "?"))\n"
        }
        return out
    }

    /// Every rule in the order they are tried: number, name, its issue, query; a sentence when there are none.
    public static func list(_ rules: [GroupingRule]) -> String {
        guard !rules.isEmpty else { return "no grouping rules (errtriage rule add 'QUERY' --as NAME adds one)\n" }
        return rules.map { rule in
            "\(rule.number)  \(TextSanitizer.sanitize(rule.name))  →  \(TextSanitizer.sanitize(rule.headKey ?? "(no issue yet)"))  "
                + TextSanitizer.sanitize(rule.query) + "  (\(TextSanitizer.sanitize(rule.by)), \(rule.at.dateText))\n"
        }.joined()
    }

    /// The rules as JSON: number, name, query, issue, by, at.
    public static func json(_ rules: [GroupingRule]) -> JSONValue {
        .array(rules.map { rule in
            .object([("number", .number(String(rule.number))), ("name", .string(rule.name)), ("query", .string(rule.query)),
                     ("issue", rule.headKey.map(JSONValue.string) ?? .null), ("by", .string(rule.by)), ("at", .string(rule.at.iso8601))])
        })
    }

    /// A preview as JSON: the rule, its issue, and each issue with its role and events.
    public static func json(_ p: GroupingPreview) -> JSONValue {
        .object([
            ("name", .string(p.name)), ("query", .string(p.query)),
            ("issue", p.taken.first { $0.role == .head }.map { .string($0.key) } ?? .null),
            ("events", .number(String(p.events))),
            ("issues", .array(p.issues.map { issue in
                var members: [(String, JSONValue)] = [("key", .string(issue.key)), ("role", .string(issue.role.rawValue)),
                                                      ("events", .number(String(issue.events))),
                                                      ("title", .string(Format.title(issue.chain)))]
                if let other = issue.otherHead { members.append(("group", .string(other))) }
                return .object(members)
            })),
        ])
    }

    /// What `rule rm` did.
    public static func removed(_ name: String, restored: [String]) -> String {
        let keys = restored.map { TextSanitizer.sanitize($0) }
        let tail = keys.isEmpty ? "no issue to take out" : "took out " + keys.joined(separator: ", ")
        return "rule \(TextSanitizer.sanitize(name)) removed: \(tail)\n"
    }
}
