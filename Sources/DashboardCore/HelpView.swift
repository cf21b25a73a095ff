import Presentation

/// Every key, grouped, on a scrolling screen.
enum HelpView {
    /// The key groups as shown: (group, [(keys, what they do)]).
    static func groups(unicode: Bool) -> [(String, [(String, String)])] {
        let up = unicode ? "↑ k" : "Up k"
        let down = unicode ? "↓ j" : "Down j"
        return [
            ("Navigation", [
                (up, "move up / scroll up"),
                (down, "move down / scroll down"),
                ("PgUp PgDn", "a page up / down"),
                ("g Home", "to the top"),
                ("G End", "to the bottom"),
                ("Enter", "open the issue (or the event's fields)"),
                ("Esc Backspace", "back"),
                ("mouse", "click selects, double click opens, wheel scrolls"),
            ]),
            ("List", [
                ("s", "rank by events, complaints, users"),
                ("w", "window 24h, 7d, 30d, 90d, all"),
                ("f", "status open+regressed, regressed, resolved, muted, all"),
                ("/", "filter by a query (os:17* has:complaints); Esc clears it"),
                ("v", "saved views (errtriage view save): Enter opens one on the list"),
                ("p", "root-cause pivot: issues grouped by one link"),
                ("V", "release: the newest version against the one before"),
            ]),
            ("Marks", [
                ("r", "resolved, in a version (prompt; empty: no version)"),
                ("e", "regressed"),
                ("o", "reopen (open)"),
                ("m", "mute"),
                ("n", "add a note (prompt)"),
                ("t", "tracker link (prompt; empty clears)"),
                ("a", "assign to a person (prompt; empty clears)"),
                ("T", "ticket draft: a file (named below) and the clipboard"),
                ("u", "undo the last mark (again: the one before)"),
            ]),
            ("Detail", [
                ("Tab S-Tab", "next / previous pane"),
                ("1-5", "Chain, Breakdowns, Events, Complaints, Notes & history"),
                (unicode ? "← →" : "Left Right", "previous / next pane"),
                ("w", "window"),
            ]),
            ("Pivot", [
                ("l", "group by the root cause / the user-facing error"),
                ("d", "group by a domain's link (prompt), e.g. TolokaBackendError"),
                ("Enter", "the list, narrowed to the group's issues (Esc widens)"),
                ("s w f", "rank, window, status, as in the list"),
            ]),
            ("Release", [
                ("", "new, worse, better and gone issues, users per 1,000 of each version"),
                ("Enter", "open the issue (Esc comes back here)"),
                ("w", "window"),
            ]),
            ("Meeting", [
                ("M", "start the meeting: the agenda of the window, item by item"),
                ("] [", "next / previous agenda item (from the list: resume)"),
                ("", "regressed, spikes, new, top by complaints, top by events;"),
                ("", "then the complaints no code explains"),
            ]),
            ("Other", [
                ("?", "this help (Esc, q or ? closes)"),
                ("Ctrl-L", "redraw the screen"),
                ("q", "quit from the list, back elsewhere"),
                ("Ctrl-C", "quit"),
            ]),
        ]
    }

    static func lines(unicode: Bool) -> [[Span]] {
        var lines: [[Span]] = []
        for (group, keys) in groups(unicode: unicode) {
            if !lines.isEmpty { lines.append([]) }
            lines.append([Span(group, .heading)])
            for (key, action) in keys {
                lines.append([Span("  " + Format.left(key, 14, unicode: unicode), .key), Span(action)])
            }
        }
        return lines
    }

    /// Rows the help text has to scroll in.
    static func bodyHeight(_ size: Size) -> Int { max(0, size.rows - 2) }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        buffer.fill(row: 0, style: .header)
        buffer.write(" Help: keys", row: 0, col: 0, style: .header)
        let lines = lines(unicode: buffer.unicode)
        let height = bodyHeight(buffer.size)
        let scroll = Scrolling.clamp(state.helpScroll, visible: height, count: lines.count)
        for i in 0..<height where scroll + i < lines.count {
            buffer.write(lines[scroll + i], row: 1 + i, col: 1, width: buffer.size.cols - 1)
        }
        StatusBar.render(state, row: buffer.size.rows - 1, into: &buffer)
    }
}
