import TriageModel

/// Saved views as text: `view list` and the dashboard's views screen.
public enum SavedViewText {
    /// One view on one line: its name, its query, and the ranking and window it opens with.
    public static func line(_ view: SavedView, unicode: Bool = true) -> String {
        var settings: [String] = []
        if let mode = view.mode { settings.append("by \(mode.rawValue)") }
        if let window = view.window { settings.append(window.rawValue) }
        let suffix = settings.isEmpty ? "" : "  (" + settings.joined(separator: ", ") + ")"
        return TextSanitizer.sanitize(view.name, unicode: unicode) + "  " + TextSanitizer.sanitize(view.query, unicode: unicode) + suffix
    }

    /// Every view, one a line; a sentence when there are none.
    public static func list(_ views: [SavedView]) -> String {
        guard !views.isEmpty else { return "no saved views (errtriage view save NAME --query Q saves one)\n" }
        return views.map { line($0) + "\n" }.joined()
    }
}
