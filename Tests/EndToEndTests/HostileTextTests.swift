import DashboardCore
import DashboardRuntime
import Foundation
import Testing
import TriageModel
import TriageStore

/// Error text comes from the field: names, messages, user ids, device models, custom keys, notes
/// and complaints holding escape sequences, controls, bidi overrides, zero-width and wide
/// characters, and a megabyte-long message. Text and markdown output and the dashboard show
/// them inert and visible; JSON stays valid and keeps them exactly; filters are data, not SQL.
@Suite(.serialized) struct HostileTextTests: TmuxDriving {
    let session = "errtriage-hostile-\(getpid())"
    static let now = "2026-11-21T00:00:00Z"
    static let key = "US14-LO43"

    /// CSI colour, an OSC that would retitle the terminal, BEL, a C1 CSI, a bidi override,
    /// zero-width characters, wide and emoji characters, CR, LF, TAB and DEL, then every other
    /// class below: a word joiner, an Arabic letter mark, a soft hyphen, line and paragraph
    /// separators, NEL, an isolate, a left-to-right mark and a bidi embedding.
    static let hostile = "A\u{1B}[31mRED\u{1B}]2;PWNED\u{07}B\u{9B}31mC\u{202E}evil\u{200B}\u{FEFF}界\u{1F600}\r\n\t\u{7F}"
        + "\u{2060}\u{061C}\u{00AD}\u{2028}\u{2029}\u{85}\u{2066}\u{200E}\u{202A}\u{01}Z"

    /// What must never reach a terminal or a text output live, listed here rather than taken from
    /// the sanitiser so that the test catches what the sanitiser misses: C0 controls (LF only as
    /// the output's own line break), DEL, C1 controls (U+009B is a one-byte CSI), zero-width and
    /// directional marks, bidi embeddings and overrides, bidi isolates, the BOM, the word joiner,
    /// the Arabic letter mark, the soft hyphen, and the line and paragraph separators.
    static let live: [ClosedRange<UInt32>] = [
        0x00...0x09, 0x0B...0x1F, 0x7F...0x7F, 0x80...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069,
        0xFEFF...0xFEFF, 0x2060...0x2060, 0x061C...0x061C, 0x00AD...0x00AD, 0x2028...0x2029,
    ]

    static func json(_ object: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A store holding the hostile text in every field a source can fill.
    func hostileStore() throws -> CLI {
        let cli = try CLI()
        var lines: [String] = []
        for i in 0..<6 {
            lines.append(Self.json([
                "event_id": "h\(i)", "timestamp": "2026-11-20T1\(i):00:00Z", "codes": Self.key,
                "chain": "UserError.bad\(Self.hostile.filter { $0 != "-" && $0 != "(" && $0 != ")" }) - LogicError.loginFailed",
                "message": i == 0 ? String(repeating: "M", count: 1_000_000 - 200) + Self.hostile : Self.hostile,
                "user_id": Self.hostile + "\(i)",
                "device": ["model": Self.hostile],
                "network": Self.hostile,
                "keys": [Self.hostile: Self.hostile],
            ] as [String: Any]))
        }
        let events = try cli.file("hostile.ndjson", lines.joined(separator: "\n") + "\n")
        let complaints = try cli.file("desk.csv", "id,created_at,subject,description\n"
            + "T1,2026-11-20 12:00:00,\"\(Self.hostile.replacingOccurrences(of: "\"", with: "\"\""))\",\"It says \(Self.key) \(Self.hostile)\"\n"
            + "T2,2026-11-20 13:00:00,slow,\"No code here \(Self.hostile.replacingOccurrences(of: "\"", with: "\"\""))\"\n")
        let ingest = try cli.run(["ingest", events, complaints])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try cli.run(["mark", Self.key, "resolved", "--in-version", "2.0", "--note", Self.hostile, "--by", Self.hostile]).status == 0)
        #expect(try cli.run(["mark", Self.key, "open", "--note", String(repeating: "N", count: 100_000) + Self.hostile]).status == 0)
        return cli
    }

    /// Nothing a terminal would act on: no C0 control but LF, no DEL, no C1, no bidi or zero-width format character.
    func expectInert(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let live = text.unicodeScalars.filter { s in Self.live.contains { $0.contains(s.value) } }
        #expect(live.isEmpty, "\(what) holds live characters: \(live.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
        // Markdown escapes the bracket: `^\[`.
        #expect(text.contains("^[") || text.contains("^\\["), "\(what) does not show ESC visibly", sourceLocation: sourceLocation)
    }

    @Test func textAndMarkdownOutputShowEveryFieldInertAndJSONKeepsItExactly() throws {
        let cli = try hostileStore()
        let base = ["--now", Self.now]
        #expect(try cli.run(["assign", Self.key, Self.hostile] + base).status == 0)
        #expect(try cli.run(["alert", "add", Self.hostile, "--query", "key:" + Self.key, "--events", "1", "--within", "7d"]).status == 0)
        for command in [["report", "--window", "all"],
                        ["ticket", Self.key, "--window", "all"], ["ticket", Self.key, "--window", "all", "--format", "github"],
                        ["ticket", Self.key, "--window", "all", "--format", "jira", "--with-users"],
                        ["alert", "run", "--dry-run"], ["alert", "list"], ["report", "--window", "all", "--format", "markdown"],
                        ["show", Self.key, "--window", "all"],
                        ["report", "--by-layer", "root", "--window", "all"],
                        ["report", "--by-layer", "root", "--window", "all", "--format", "markdown"],
                        ["meeting", "--print", "--window", "30d"], ["decode", Self.key]] {
            let result = try cli.run(command + base)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            expectInert(result.stdout, "\(command)")
            #expect(result.stdout.utf8.count < 400_000, "\(command) printed \(result.stdout.utf8.count) bytes")
        }
        for command in [["report", "--window", "all", "--format", "json"], ["show", Self.key, "--window", "all", "--format", "json"]] {
            let result = try cli.run(command + base)
            #expect(result.status == 0)
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            #expect(Self.json(parsed).contains(Self.json([Self.hostile]).dropFirst(2).dropLast(2)), "\(command) lost the text")
        }
    }

    @Test func everyDashboardScreenDrawsItInert() throws {
        let cli = try hostileStore()
        let store = try TriageStore(path: cli.store, readOnly: true)
        let now = Timestamp.parse(Self.now)!
        let size = Size(rows: 30, cols: 100)
        var state = DashboardState(storeName: Self.hostile, query: IssueQuery(window: .all))
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(try store.issueList(state.query, now: now)))
        var screens = [("list", render(state, size: size))]
        _ = reduce(&state, .key(.enter))
        let detail = try store.issueDetail(key: Self.key, window: .all, now: now)
        _ = reduce(&state, .detailLoaded(detail))
        for pane in DetailPane.allCases {
            _ = reduce(&state, .key(.char(Character(String(pane.rawValue)))))
            screens.append(("pane \(pane.title)", render(state, size: size)))
        }
        // Each event as the screen shows it before the store answers, then read whole from its kept payload.
        let effects = StoreEffects(store: store, user: "tester")
        for (index, event) in detail.recentEvents.enumerated() {
            state.screens = [.list, .detail, .event]
            state.event = EventScreen(index: index, eventID: event.eventID)
            screens.append(("event \(index)", render(state, size: size)))
            _ = reduce(&state, effects.perform(StoreRequest(EventScreen.Load(id: event.eventID, issueKey: Self.key)), now: now))
            #expect(state.event.whole?.detail != nil || index > 0, "the first event is kept whole")
            screens.append(("event \(index) whole", render(state, size: size)))
            _ = reduce(&state, .key(.char("G")))
            screens.append(("event \(index) whole, its end", render(state, size: size)))
        }
        state.screens = [.list, .pivot]
        _ = reduce(&state, .pivotLoaded(layer: .root, query: state.query, groups: try store.layerPivot(state.query, by: .root, now: now).groups))
        screens.append(("pivot", render(state, size: size)))
        _ = reduce(&state, .agendaLoaded(try store.agenda(window: .d30, now: now, top: 5),
                                         unlinked: try store.unlinkedComplaints(window: .d30, now: now)))
        state.screens = [.list, .meetingEnd]
        screens.append(("meeting end", render(state, size: size)))
        for (name, buffer) in screens {
            expectInert(buffer.lines.joined(separator: "\n"), "the dashboard's \(name)")
        }
    }

    @Test func theDashboardShowsItInertAndKeepsItsGrid() throws {
        let cli = try hostileStore()
        try start("ERRTRIAGE_STORE='\(cli.store)' '\(CLI.binary)' --now \(Self.now)", cols: 100, rows: 30)
        defer { stop() }
        try waitFor("rank: events")
        // The filter is data: SQL in it finds nothing and breaks nothing.
        try keys("/")
        try enter("x' OR 1=1; DROP TABLE issue; --")
        try waitFor("No issues match")
        try keys("Escape")
        try keys("/")
        try enter("LO43")
        try waitFor(Self.key)
        try keys("Enter")
        var screen = try waitFor("^[")
        for pane in 0..<8 {
            expectGrid(screen, "detail pane \(pane)")
            try keys("Tab")
            screen = try self.screen()
        }
        // Every field of one event, the megabyte message among them.
        try keys("3")
        try keys("G")  // the oldest event: the one with the megabyte message
        try keys("Enter")
        // Its kept payload read whole, the megabyte message and the hostile fields among it.
        _ = try waitFor("Event h0")
        screen = try waitFor("Kept whole")
        #expect(screen.contains("MMMMMMMMMM"))
        expectGrid(screen, "event, its start")
        try keys("PageDown")
        screen = try waitFor("model               A^[[31mRED^[]2;PWNED^GB<U+009B>31mC<U+202E>evil<U+200B><U+FEFF>")
        expectGrid(screen, "event")
        try keys("G")
        expectGrid(try waitFor("Extra"), "event, end")
        let title = try tmux(["display-message", "-p", "-t", session, "#{pane_title}"])
        #expect(!title.contains("PWNED"), "an OSC sequence retitled the terminal: \(title)")
        try keys("Escape")
        try keys("Escape")
        try keys("q")
        #expect(try cli.run(["check"]).status == 0)
    }

    func expectGrid(_ screen: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 31, "\(what): \(lines.count) lines", sourceLocation: sourceLocation)
        for line in lines {
            let cells = line.reduce(0) { $0 + (($1.unicodeScalars.first?.value ?? 0) >= 0x1100 && $1.unicodeScalars.first!.properties.isEmojiPresentation || "界".contains($1) ? 2 : 1) }
            #expect(cells <= 100, "\(what): a line of \(cells) cells: \(line)", sourceLocation: sourceLocation)
        }
        #expect(!screen.contains("PWNED\u{07}"), sourceLocation: sourceLocation)
    }
}
