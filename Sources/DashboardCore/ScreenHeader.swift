import Presentation

/// The header line of the screens over the list (release, pivot): the store, what the screen
/// shows, its window, and where the data stops early, each giving way whole rather than cut: the
/// store's path to its file name, then the store, then the stale-data note (which says more about
/// what the screen shows than the store's name), then the window's end (a date is never cut).
enum ScreenHeader {
    static func spans(_ state: DashboardState, title: String, window: String, width: Int) -> [Span] {
        let unicode = state.unicode
        let dot = unicode ? " · " : " | "
        let name = TextSanitizer.sanitize(state.storeName, unicode: unicode)
        let base = name.split(separator: "/").last.map(String.init) ?? name
        var windowText = window
        if let list = state.list.loaded { windowText += " to \(list.now.minuteText)" + (state.anchoredToData ? " (last event)" : "") }
        let note = state.list.loaded.flatMap(Format.lastEventNote).map { [Span(dot + $0, .headerAlert)] } ?? []
        let candidates: [[Span]] = [
            [Span(" \(name)\(dot)\(title)\(dot)\(windowText)", .header)] + note,
            [Span(" \(base)\(dot)\(title)\(dot)\(windowText)", .header)] + note,
            [Span(" \(title)\(dot)\(windowText)", .header)] + note,
            [Span(" \(base)\(dot)\(title)\(dot)\(windowText)", .header)],
            [Span(" \(title)\(dot)\(windowText)", .header)],
            [Span(" \(title)\(dot)\(window)", .header)],
            [Span(" \(title)", .header)],
        ]
        func cells(_ spans: [Span]) -> Int { spans.reduce(0) { $0 + TextSanitizer.width($1.text, unicode: unicode) } }
        return candidates.first { cells($0) <= width } ?? candidates.last!
    }
}
