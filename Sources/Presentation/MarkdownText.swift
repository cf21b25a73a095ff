/// Untrusted text for markdown: sanitised as for the terminal, and escaped so that it cannot break a table
/// cell or start a link, emphasis or code span.
public enum MarkdownText {
    /// The text sanitised and escaped for one markdown table cell or list item.
    public static func inline(_ text: String) -> String {
        var out = ""
        for ch in TextSanitizer.sanitize(text) {
            if ch == "|" || ch == "`" || ch == "*" || ch == "_" || ch == "<" || ch == "[" { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
