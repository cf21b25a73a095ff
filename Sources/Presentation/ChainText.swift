import TriageModel

/// A chain as `decode` prints it: the key, then a link per line, each indented under the one that
/// wrapped it, with its short code, its full name and its code's origin, the outermost marked as
/// what the user saw and the innermost as the root cause.
public enum ChainText {
    public static func ladder(key: String, links: [(code: ShortKey.Code, name: FullForm.Name?, origin: CodeOrigin?)]) -> String {
        var text = key + "\n"
        for (i, link) in links.enumerated() {
            let role = i == 0 ? "  (what the user saw)" : i == links.count - 1 ? "  (root cause)" : ""
            let name = link.name.map { "\($0.domain).\($0.name)" } ?? "unknown"
            let code = link.code.short + ShortKey.encode(code: link.code.code)
            text += "\(String(repeating: "  ", count: i))\(code)  \(TextSanitizer.sanitize(name))  [\(Format.code(link.code.code, origin: link.origin))]\(role)\n"
        }
        return text
    }
}
