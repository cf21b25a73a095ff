import TriageModel

/// A short key in a column narrower than it: cut in the middle as a title is, so that what
/// identifies the issue stays — the outermost link (what the user saw) and the root cause.
extension Format {
    /// `key` in at most `width` cells: whole where it fits, else the outermost link, as many of the
    /// next links as fit (the last of them cut, with the cut mark), and the root link:
    /// `US9-WS32184-WM7…NE29`. A wider column shows more of the middle, so keys told apart at one
    /// width stay told apart at any wider one. A column too narrow even for the two ends is cut at its end.
    public static func fittedKey(_ key: String, width: Int, unicode: Bool = true) -> String {
        let sanitized = TextSanitizer.sanitize(key)
        if TextSanitizer.width(sanitized, unicode: unicode) <= width { return sanitized }
        let links = sanitized.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let cut = unicode ? "…" : ".."
        guard links.count > 1, let first = links.first, let root = links.last else { return cells(sanitized, width, unicode: unicode).text }
        let ends = TextSanitizer.width(first + cut + root, unicode: unicode)
        guard ends <= width else { return cells(sanitized, width, unicode: unicode).text }
        // The middle, from the outermost side: whole links while they fit, then part of the next.
        var middle = "", room = width - ends
        for link in links.dropFirst().dropLast() {
            let piece = "-" + link
            let w = TextSanitizer.width(piece, unicode: unicode)
            if w <= room {
                middle += piece
                room -= w
            } else {
                if room >= 3 { middle += String(piece.prefix(room)) }
                break
            }
        }
        return first + middle + cut + root
    }

    /// The width of `key`'s two ends with the cut mark between them (`US9…NE29`): the narrowest a
    /// key column may be and still name the outermost and root links.
    public static func keyEndsWidth(_ key: String, unicode: Bool = true) -> Int {
        let links = key.split(separator: "-", omittingEmptySubsequences: false)
        guard links.count > 2, let first = links.first, let root = links.last else { return TextSanitizer.width(key, unicode: unicode) }
        return TextSanitizer.width(String(first) + (unicode ? "…" : "..") + String(root), unicode: unicode)
    }
}
