import TriageModel

/// Owner rules as text: `owner list` and `owner add`.
public enum OwnerRuleText {
    /// One rule: its query and owner.
    public static func line(_ rule: OwnerRule) -> String {
        TextSanitizer.sanitize(rule.query) + "  →  " + TextSanitizer.sanitize(rule.owner)
    }

    /// Every rule with its number, in the order they are tried; a sentence when there are none.
    public static func list(_ rules: [OwnerRule]) -> String {
        guard !rules.isEmpty else { return "no owner rules (errtriage owner add 'domain:NAME' OWNER adds one)\n" }
        return rules.map { "\($0.number)  " + line($0) + "\n" }.joined()
    }
}
