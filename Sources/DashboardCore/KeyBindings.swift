import TriageModel

/// Where a key can apply: each screen of the stack, without its arguments.
public enum Place: String, CaseIterable, Hashable, Sendable {
    case list, detail, event, help, pivot, meetingEnd = "meeting's closing", release, views = "saved views"

    /// The screen's name in sentences: `on the release screen`.
    var name: String { rawValue }
}

extension Screen {
    /// Where this screen is, for the key table.
    var place: Place {
        switch self {
        case .list: .list
        case .detail: .detail
        case .event: .event
        case .help: .help
        case .pivot: .pivot
        case .meetingEnd: .meetingEnd
        case .release: .release
        case .views: .views
        }
    }
}

/// One key (or a few keys doing one thing) the dashboard takes, declared once: the help screen, the
/// key line and the "does nothing here" message all read this table, so none lists a key the
/// reducer does not take, and the reducer takes no key the table does not declare for the screen.
struct KeyBinding: Sendable {
    /// The help section it is listed under.
    enum Group: String, CaseIterable, Sendable {
        case navigation = "Navigation", list = "List", marks = "Marks", detail = "Detail", pivot = "Pivot",
             release = "Release", views = "Saved views", meeting = "Meeting", other = "Other"
    }

    /// The keys as help shows them, in UTF-8 and in ASCII.
    var label: String
    var asciiLabel: String
    /// The keys it matches.
    var keys: [Key]
    /// What it does, for help.
    var help: String
    /// The word on the key line (nil: help only).
    var hint: String?
    var group: Group
    /// The screens it applies on.
    var places: Set<Place>
    /// Whether the key line offers it now (a meeting under way, the Events pane).
    var offered: @Sendable (DashboardState) -> Bool = { _ in true }
    /// Whether the key line shows it before the others where room is short (moving, going back).
    var shownFirst = false

    init(_ label: String, ascii: String? = nil, _ keys: [Key], _ help: String, hint: String? = nil, _ group: Group,
         on places: Set<Place>, offered: @escaping @Sendable (DashboardState) -> Bool = { _ in true }) {
        self.label = label
        asciiLabel = ascii ?? label
        self.keys = keys
        self.help = help
        self.hint = hint
        self.group = group
        self.places = places
        self.offered = offered
    }

    func label(unicode: Bool) -> String { unicode ? label : asciiLabel }

    /// This binding, shown first on the key line.
    func first() -> KeyBinding {
        var copy = self
        copy.shownFirst = true
        return copy
    }
}

extension KeyBinding {
    static let lists: Set<Place> = [.list, .pivot, .release, .views]
    static let scrolled: Set<Place> = [.detail, .event, .help, .meetingEnd]
    static let issue: Set<Place> = [.list, .detail, .event]
    static let everywhere = Set(Place.allCases)
    static let allButHelp = everywhere.subtracting([.help])

    /// Every key, in the order help and the key line show them.
    static let all: [KeyBinding] = [
        KeyBinding("↑↓ k j", ascii: "Up Down k j", [.up, .down, .char("k"), .char("j")], "move the selection / scroll", hint: "move",
                   .navigation, on: lists.union(scrolled)).first(),
        KeyBinding("PgUp PgDn", [.pageUp, .pageDown], "a page up / down", .navigation, on: lists.union(scrolled)),
        KeyBinding("g G Home End", [.char("g"), .char("G"), .home, .end], "to the top / bottom", .navigation, on: lists.union(scrolled)),
        KeyBinding("Enter", [.enter], "open the issue", hint: "open", .navigation, on: [.list, .release]),
        KeyBinding("Enter", [.enter], "the Events pane: the selected event's fields", hint: "fields", .detail, on: [.detail],
                   offered: { $0.pane == .events }),
        KeyBinding("Enter", [.enter], "the list, narrowed to the group's issues (Esc on the list comes back here)", hint: "its issues",
                   .pivot, on: [.pivot]),
        KeyBinding("Enter", [.enter], "open the view on the list", hint: "open on the list", .views, on: [.views]),
        KeyBinding("] [", [.char("]"), .char("[")], "resume the meeting where it stands", hint: "resume meeting", .meeting,
                   on: [.list, .pivot, .release, .views], offered: { $0.meeting != nil }),
        KeyBinding("] [", [.char("]"), .char("[")], "next / previous agenda item", hint: "next/prev item", .meeting,
                   on: [.detail, .event, .meetingEnd],
                   offered: { $0.screen == .meetingEnd || ($0.detailKey != nil && $0.meeting?.item?.issue.key == $0.detailKey) }),
        KeyBinding("Tab 1-\(DetailPane.allCases.count)", ascii: "Tab 1-\(DetailPane.allCases.count)",
                   [.tab, .backTab, .left, .right] + DetailPane.digits.map { .char($0) },
                   "pane: 1 Chain, 2 Breakdowns, 3 Events, 4 Complaints, 5 Notes & history, 6 Life: month by month since first seen (also S-Tab, Left, Right)", hint: "pane",
                   .detail, on: [.detail]),
        KeyBinding("s", [.char("s")], "rank by events, complaints, users", hint: "rank", .list, on: [.list, .pivot]),
        KeyBinding("w", [.char("w")], "window 24h, 7d, 30d, 90d, all", hint: "window", .list, on: [.list, .detail, .pivot, .release]),
        KeyBinding("f", [.char("f")], "status open+regressed, regressed, resolved, muted, all", hint: "status", .list, on: [.list, .pivot]),
        KeyBinding("/", [.char("/")], "filter by a query (os:17* has:complaints); Esc in the prompt puts the last filter back",
                   hint: "filter", .list, on: [.list]),
        KeyBinding("p", [.char("p")], "root-cause pivot: issues grouped by one link (again: back)", hint: "pivot", .list, on: [.list, .pivot]),
        KeyBinding("l", [.char("l")], "group by the root cause / the user-facing error", hint: "root/user-facing", .pivot, on: [.pivot]),
        KeyBinding("d", [.char("d")], "group by a domain's link (prompt), e.g. TolokaBackendError", hint: "domain", .pivot, on: [.pivot]),
        KeyBinding("M", [.char("M")], "start the meeting: the agenda of the window, item by item", hint: "meeting", .meeting, on: allButHelp),
        KeyBinding("v", [.char("v")], "saved views (errtriage view save), one a row (again: back)", hint: "views", .list, on: [.list, .views]),
        KeyBinding("V", [.char("V")], "release: the newest version against the one before (again: back)", hint: "release", .list,
                   on: [.list, .release]),
        KeyBinding("r e o m", [.char("r"), .char("e"), .char("o"), .char("m")],
                   "mark resolved (asks the version), regressed, open, muted", hint: "mark", .marks, on: issue),
        KeyBinding("n", [.char("n")], "add a note (prompt)", hint: "note", .marks, on: issue),
        KeyBinding("t", [.char("t")], "tracker link (prompt; empty clears)", hint: "link", .marks, on: issue),
        KeyBinding("a", [.char("a")], "assign to a person (prompt; empty clears)", hint: "assign", .marks, on: issue),
        KeyBinding("T", [.char("T")], "ticket draft: errtriage-ticket-KEY.md in the current folder, and the clipboard",
                   hint: "ticket", .marks, on: issue),
        KeyBinding("u", [.char("u")], "undo your newest change still standing (marks, notes, links, assignees); again: the one before",
                   hint: "undo", .marks, on: issue),
        KeyBinding("N", [.char("N")], "windows end at the store's newest event / at the clock again", hint: "data end", .other,
                   on: allButHelp, offered: { $0.anchoredToData || $0.list?.dataEndsEarly != nil }),
        KeyBinding("Esc q", [.escape, .backspace, .char("q")], "back", hint: "back",
                   .navigation, on: everywhere.subtracting([.list])).first(),
        KeyBinding("Esc", [.escape, .backspace], "clear the filter, or the pivot's narrowing (back to the pivot)", .navigation, on: [.list]),
        KeyBinding("q", [.char("q")], "quit", hint: "quit", .other, on: [.list]),
        KeyBinding("?", [.char("?")], "this help for the screen it is opened on (Esc, q or ? closes)", hint: "help", .other, on: everywhere),
        KeyBinding("Ctrl-L", [.ctrl("l")], "redraw the screen", .other, on: everywhere),
        KeyBinding("Ctrl-C", [.ctrl("c")], "quit", .other, on: everywhere),
    ]

    /// Whether a key does something on a screen.
    static func applies(_ key: Key, on place: Place) -> Bool {
        all.contains { $0.places.contains(place) && $0.keys.contains(key) }
    }

    /// The bindings of a screen, in table order.
    static func on(_ place: Place) -> [KeyBinding] { all.filter { $0.places.contains(place) } }

    /// A screen where a key applies, to say where it would (nil: nowhere).
    static func home(of key: Key) -> Place? {
        Place.allCases.first { place in all.contains { $0.places.contains(place) && $0.keys.contains(key) } }
    }
}
