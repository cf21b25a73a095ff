/// Text laid out in terminal cells, not characters: a wide character takes two, a combining mark none,
/// and a control shown as `^[` takes two. Every column of the text report and the dashboard is fitted here.
extension Format {
    /// Sanitised text in exactly `width` cells: cut with an ellipsis when longer, padded with spaces when shorter.
    public static func fit(_ text: String, _ width: Int, unicode: Bool = true) -> String {
        guard width > 0 else { return "" }
        let cut = cells(text, width, unicode: unicode)
        return cut.text + String(repeating: " ", count: width - cut.width)
    }

    /// Sanitised text in at most `width` cells, cut with an ellipsis when longer; with the cells it takes.
    public static func cells(_ text: String, _ width: Int, unicode: Bool = true) -> (text: String, width: Int) {
        guard width > 0 else { return ("", 0) }
        var (glyphs, used, truncated) = TextSanitizer.glyphs(text, unicode: unicode, maxWidth: width)
        if truncated {
            while used > width - 1, let last = glyphs.popLast() { used -= last.width }
            glyphs.append(TextSanitizer.Glyph(character: unicode ? "…" : "~", width: 1))
            used += 1
        }
        return (String(glyphs.map(\.character)), used)
    }

    /// Sanitised text right-aligned in `width` cells; longer text is kept whole.
    public static func right(_ text: String, _ width: Int, unicode: Bool = true) -> String {
        let clean = TextSanitizer.sanitize(text, unicode: unicode)
        let w = TextSanitizer.width(clean, unicode: unicode)
        return w >= width ? clean : String(repeating: " ", count: width - w) + clean
    }

    /// Sanitised text padded on the right to `width` cells; longer text is kept whole.
    public static func left(_ text: String, _ width: Int, unicode: Bool = true) -> String {
        let clean = TextSanitizer.sanitize(text, unicode: unicode)
        let w = TextSanitizer.width(clean, unicode: unicode)
        return w >= width ? clean : clean + String(repeating: " ", count: width - w)
    }
}
