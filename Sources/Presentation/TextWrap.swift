/// Breaks untrusted text into lines of a display width, at spaces where it can.
public enum TextWrap {
    /// How much of one text is ever wrapped: enough for any screen, bounded for a megabyte-long one.
    public static let maxCharacters = 8_000

    /// Sanitised lines of at most `width` cells; line breaks in the text start new lines; at most `maxLines`.
    public static func wrap(_ text: String, width: Int, unicode: Bool, maxLines: Int = 200) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        let head = text.prefix(maxCharacters)
        let paragraphs = head.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for paragraph in paragraphs {
            let glyphs = TextSanitizer.glyphs(paragraph, unicode: unicode).glyphs
            if glyphs.isEmpty { lines.append("") }
            var start = 0
            while start < glyphs.count {
                if lines.count >= maxLines { return lines }
                var end = start
                var used = 0
                var lastSpace: Int? = nil
                while end < glyphs.count, used + glyphs[end].width <= width {
                    if glyphs[end].character == " " { lastSpace = end }
                    used += glyphs[end].width
                    end += 1
                }
                if end == start { end = start + 1 }  // a wide glyph in a one-cell column still advances
                var next = end
                if end < glyphs.count, let space = lastSpace, space > start {
                    end = space
                    next = space + 1
                }
                lines.append(String(glyphs[start..<end].map(\.character)))
                start = next
            }
        }
        if head.endIndex < text.endIndex, lines.count < maxLines { lines.append(unicode ? "… (truncated)" : "... (truncated)") }
        return Array(lines.prefix(maxLines))
    }
}
