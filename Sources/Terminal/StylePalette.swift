import CNcursesw
import DashboardCore

/// How each abstract style looks: colour pairs with attributes, or attributes alone in monochrome.
struct StylePalette {
    struct Look {
        var attrs: attr_t
        var pair: Int16
    }

    private var looks: [Style: Look] = [:]

    /// Sets up colour pairs (when `color`) and the look of every style.
    init(color: Bool) {
        let bold = errtriage_attr_bold(), dim = errtriage_attr_dim(), reverse = errtriage_attr_reverse()
        let underline = errtriage_attr_underline(), normal = errtriage_attr_normal()
        for style in Style.allCases { looks[style] = Look(attrs: normal, pair: 0) }
        guard color else {
            let mono: [Style: attr_t] = [
                .header: reverse, .headerAlert: reverse | bold | underline, .heading: bold, .ranked: bold | underline, .selected: reverse, .dim: dim,
                .key: bold, .badgeNew: bold, .badgeRegressed: reverse | bold, .badgeSpike: bold | underline,
                .flagged: bold | underline,
                .statusRegressed: bold, .statusMuted: dim, .statusResolved: dim, .tabActive: reverse | bold,
                .prompt: bold, .cursor: reverse, .error: bold, .rootCause: bold, .link: underline,
            ]
            for (style, attrs) in mono { looks[style] = Look(attrs: attrs, pair: 0) }
            return
        }
        let none = Int16(-1)
        let colours: [(Style, Int16, Int16, attr_t)] = [
            (.header, Int16(COLOR_WHITE), Int16(COLOR_BLUE), bold),
            (.headerAlert, Int16(COLOR_YELLOW), Int16(COLOR_BLUE), bold | underline),
            (.heading, Int16(COLOR_CYAN), none, bold),
            (.ranked, Int16(COLOR_YELLOW), none, bold),
            (.selected, Int16(COLOR_BLACK), Int16(COLOR_CYAN), normal),
            (.dim, none, none, dim),
            (.key, Int16(COLOR_CYAN), none, bold),
            (.badgeNew, Int16(COLOR_BLACK), Int16(COLOR_GREEN), bold),
            (.badgeRegressed, Int16(COLOR_WHITE), Int16(COLOR_RED), bold),
            (.badgeSpike, Int16(COLOR_BLACK), Int16(COLOR_YELLOW), bold),
            (.flagged, Int16(COLOR_RED), none, bold),
            (.statusOpen, Int16(COLOR_YELLOW), none, normal),
            (.statusRegressed, Int16(COLOR_RED), none, bold),
            (.statusResolved, Int16(COLOR_GREEN), none, normal),
            (.statusMuted, none, none, dim),
            (.tabActive, Int16(COLOR_BLACK), Int16(COLOR_CYAN), bold),
            (.tab, none, none, normal),
            (.prompt, Int16(COLOR_YELLOW), none, bold),
            (.cursor, none, none, reverse),
            (.message, Int16(COLOR_GREEN), none, normal),
            (.error, Int16(COLOR_RED), none, bold),
            (.sparkline, Int16(COLOR_CYAN), none, normal),
            (.bar, Int16(COLOR_BLUE), none, bold),
            (.rootCause, Int16(COLOR_RED), none, bold),
            (.link, Int16(COLOR_BLUE), none, underline),
        ]
        for (i, entry) in colours.enumerated() {
            let (style, fg, bg, attrs) = entry
            let pair = Int16(i + 1)
            init_pair(pair, fg, bg)
            looks[style] = Look(attrs: attrs, pair: pair)
        }
    }

    func look(_ style: Style) -> Look { looks[style] ?? Look(attrs: errtriage_attr_normal(), pair: 0) }
}
