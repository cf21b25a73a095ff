import Presentation
import TriageModel

/// The release screen: what the newest version brought against the one before it, in four
/// sections (new, worse, better, gone), one issue a row with its users in both versions, the
/// users affected per 1,000 users of each, its trend in the new version and its title. Its
/// comparison stays while it is closed, and is read again for another window.
public struct ReleaseScreen: Hashable, Sendable {
    /// The comparison shown; nil while it loads.
    public var comparison: ReleaseComparison?
    /// Whether the store answered (a store whose events name no version answers nil).
    public var loaded = false
    /// The window the comparison counts over.
    public var window: TimeWindow = .d7
    /// The selected issue (an index into `comparison.all`) and the first line shown (section headings count as lines).
    public var rows = ListSelection()

    public init() {}

    /// The selected issue, if loaded.
    public var selectedIssue: ReleaseIssue? { comparison?.all[safe: rows.selected] }
}

extension KeyHelp {
    /// `V` on the list opens the release screen; on it, goes back.
    static let release = KeyHelp("V", [.char("V")], "release: the newest version against the one before (again: back)", hint: "release", .list)
}

extension ReleaseScreen: ScreenModule {
    static let name = "release"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { ListLayout(size: $0.size).visibleIssues }) { state, delta in
        select(state.release.rows.selected.addingClamped(delta), &state)
    } + [
        KeyBinding(.openIssue) { state, _ in
            guard let issue = state.release.selectedIssue else { return [] }
            state.screens = [.list, .release, .detail]
            return DetailScreen.show(issue.key, &state)
        },
        Meeting.resume,
        KeyBinding(.window) { state, _ in
            state.release.window = state.release.window.cycled()
            state.release.comparison = nil
            state.release.loaded = false
            state.release.rows = ListSelection()
            return [.loadRelease(window: state.release.window)]
        },
        Meeting.start,
        KeyBinding(.release) { state, _ in
            state.screens = [.list]
            return []
        },
        .dataEnd,
        .back { $0.screens = [.list] },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        if event.wheel != 0 { select(state.release.rows.selected + event.wheel, &state) }
        return []
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        state.screens.contains(.release) ? [.loadRelease(window: state.release.window)] : []
    }

    static func settle(_ state: inout DashboardState) {
        let c = state.release.comparison
        state.release.rows.settle(count: c?.all.count ?? 0, visible: ListLayout(size: state.size).visibleIssues, sections: sections(c))
    }

    /// Opens the release screen over the list's window.
    static func open(_ state: inout DashboardState) -> [DashboardEffect] {
        state.screens = [.list, .release]
        if state.release.window != state.query.window || !state.release.loaded {
            state.release.window = state.query.window
            state.release.comparison = nil
            state.release.loaded = false
        }
        return [.loadRelease(window: state.release.window)]
    }

    /// Takes a loaded comparison if it is for the window wanted, keeping the selected issue.
    static func loaded(_ comparison: ReleaseComparison?, window: TimeWindow, _ state: inout DashboardState) {
        guard window == state.release.window else { return }
        let selectedKey = state.release.selectedIssue?.key
        state.release.comparison = comparison
        state.release.loaded = true
        let all = comparison?.all ?? []
        state.release.rows.selected = selectedKey.flatMap { key in all.firstIndex { $0.key == key } }
            ?? min(state.release.rows.selected, max(0, all.count - 1))
        state.settleScrolling()
    }

    /// Selects an issue row, clamped to the comparison's issues.
    static func select(_ index: Int, _ state: inout DashboardState) {
        let c = state.release.comparison
        state.release.rows.select(index, count: c?.all.count ?? 0, visible: ListLayout(size: state.size).visibleIssues, sections: sections(c))
    }

    /// Where each issue stands among the body's lines (none while the comparison loads).
    static func sections(_ c: ReleaseComparison?) -> SectionLines {
        let body = c.map(lines) ?? []
        var rowLines: [Int] = []
        for (i, line) in body.enumerated() { if case .issue = line { rowLines.append(i) } }
        return SectionLines(rowLines: rowLines, count: body.count)
    }

    /// One line of the body: a section's heading, or an issue (its index in `comparison.all`).
    enum Line: Equatable {
        case heading(ReleaseRule.Change, count: Int)
        case issue(Int, ReleaseRule.Change)
    }

    /// The body's lines: each section's heading, then its issues.
    static func lines(_ c: ReleaseComparison) -> [Line] {
        var result: [Line] = []
        var index = 0
        for (change, issues) in c.sections {
            result.append(.heading(change, count: issues.count))
            for _ in issues {
                result.append(.issue(index, change))
                index += 1
            }
        }
        return result
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = ListLayout(size: buffer.size)
        let width = buffer.size.cols
        let dot = state.unicode ? " · " : " | "
        buffer.fill(row: layout.headerRow, style: .header)
        var title = "Release"
        if let c = state.release.comparison { title += " \(c.version)" + (c.previous.map { " against \($0)" } ?? "") }
        _ = buffer.write(ScreenHeader.spans(state, title: title, window: state.release.window.rawValue, width: width),
                         row: layout.headerRow, col: 0, width: width)
        var whole: String?
        defer { StatusBar.render(state, row: layout.statusRow, whole: whole, into: &buffer) }

        guard state.release.loaded else {
            buffer.write(state.unicode ? "loading…" : "loading...", row: layout.firstIssueRow, col: 1, style: .dim)
            return
        }
        guard let c = state.release.comparison else {
            buffer.write("No event names an app version.", row: layout.firstIssueRow, col: 1, width: width - 1)
            return
        }
        var controls = [Span(" " + Format.grouped(c.users), .ranked), Span(" user-days of \(c.version)", .dim)]
        if let previous = c.previous { controls += [Span(dot + Format.grouped(c.previousUsers)), Span(" of \(previous)", .dim)] }
        controls.append(c.adoptionKnown ? Span(dot + "adoption data", .dim) : Span(dot + "no adoption data: rates overstate", .error))
        // The window reaches before a prune's horizon: older days come from the kept figures, `≈` where they are lower bounds.
        if let since = c.rawEventsSince {
            let approximate = c.usersApproximate || c.countsApproximate
            controls.append(Span(dot + (approximate ? (state.unicode ? "≈ " : "~ ") : "") + "raw events since \(since.dateText)", .dim))
        }
        buffer.write(controls, row: layout.controlsRow, col: 0, width: width)

        let columns = Columns(width: width, keys: c.all.map(\.key), titleWidth: titleWidth(c, unicode: state.unicode), unicode: state.unicode)
        // The selected key, whole in the status line, where its row cuts it.
        if let issue = state.release.selectedIssue, !columns.fullKeys, columns.cutKeys[issue.key] != issue.key { whole = issue.key }
        writeHeadings(columns, unicode: state.unicode, row: layout.columnsRow, into: &buffer)
        let all = c.all, body = lines(c)
        for offset in 0..<layout.visibleIssues {
            let index = state.release.rows.scroll + offset
            guard index < body.count else { break }
            let row = layout.firstIssueRow + offset
            switch body[index] {
            case let .heading(change, count):
                buffer.write(" \(Format.releaseSection(change, c)) (\(count))", row: row, col: 0, width: width, style: .heading)
            case let .issue(i, change):
                writeRow(all[i], change: change, columns: columns, unicode: state.unicode, row: row, into: &buffer)
                if i == state.release.rows.selected { buffer.paint(row: row, col: 0, width: width, style: .selected) }
            }
        }
    }

    /// Column widths: the title takes what the figures leave; the rates and the trend give way first.
    /// From 120 columns the whole key and the events show.
    struct Columns {
        var key = 14
        var fullKeys = false
        let users = 9
        var events = 0
        var rate: Int
        let trend = 7
        var showsTrend: Bool
        var title: Int
        /// Each key's cut form where keys are cut, told apart from the others' (`Format.compactKeys`).
        var cutKeys: [String: String] = [:]

        init(width: Int, keys: [String], titleWidth: Int = 0, unicode: Bool = true) {
            if width < 60 { key = 11 }
            if width >= 120 {
                fullKeys = true
                key = max(14, keys.map { TextSanitizer.width($0, limit: 40) }.max() ?? 14)
                events = 9
            } else {
                cutKeys = Format.compactKeys(keys, unicode: unicode)
                // Keys that had to keep more of their middle to be told apart take the room they need.
                key = max(key, min(24, cutKeys.values.map { TextSanitizer.width($0, unicode: unicode, limit: 40) }.max() ?? key))
            }
            rate = width >= 72 ? 17 : 0
            let used = 2 + key + 1 + (users + 1) + (events > 0 ? events + 1 : 0) + (rate > 0 ? rate + 1 : 0)
            // The trend gives way before a title is cut.
            let trendShown = width >= 72 && width - used - (trend + 1) >= titleWidth
            showsTrend = trendShown
            title = max(4, width - used - (trendShown ? trend + 1 : 0))
        }

        var titleX: Int { 2 + key + 1 }
        var usersX: Int { titleX + title + 1 }
        var eventsX: Int { usersX + users + 1 }
        var rateX: Int { eventsX + (events > 0 ? events + 1 : 0) }
        var trendX: Int { rateX + (rate > 0 ? rate + 1 : 0) }
    }

    /// The room the longest whole title takes.
    static func titleWidth(_ c: ReleaseComparison, unicode: Bool) -> Int {
        c.all.map { TextSanitizer.width(Format.title($0.chain, unicode: unicode), unicode: unicode, limit: 200) }.max() ?? 0
    }

    static func writeHeadings(_ c: Columns, unicode: Bool, row: Int, into buffer: inout ScreenBuffer) {
        buffer.write("KEY", row: row, col: 2, width: c.key, style: .heading)
        buffer.write("TITLE", row: row, col: c.titleX, width: c.title, style: .heading)
        buffer.write(Format.right("USERS", c.users), row: row, col: c.usersX, style: .heading)
        if c.events > 0 { buffer.write(Format.right("EVENTS", c.events), row: row, col: c.eventsX, style: .heading) }
        if c.rate > 0 { buffer.write(Format.right("PER 1,000", c.rate), row: row, col: c.rateX, style: .heading) }
        if c.showsTrend { buffer.write("TREND", row: row, col: c.trendX, width: c.trend, style: .heading) }
    }

    static func writeRow(_ issue: ReleaseIssue, change: ReleaseRule.Change, columns c: Columns, unicode: Bool, row: Int,
                         into buffer: inout ScreenBuffer) {
        buffer.write(c.fullKeys ? issue.key : c.cutKeys[issue.key] ?? issue.key, row: row, col: 2, width: c.key, style: .key)
        buffer.write(Format.fittedTitle(issue.chain, width: c.title, unicode: unicode), row: row, col: c.titleX, width: c.title)
        buffer.write(Format.right(Format.releaseUsers(issue, change, unicode: unicode), c.users), row: row, col: c.usersX)
        if c.events > 0 {
            buffer.write(Format.right(Format.releaseEvents(issue, change, unicode: unicode), c.events), row: row, col: c.eventsX)
        }
        if c.rate > 0 {
            buffer.write(Format.right(Format.rateChange(issue.previousPerMille, issue.perMille, unicode: unicode), c.rate),
                         row: row, col: c.rateX, style: change == .worse || change == .new ? .flagged : .normal)
        }
        if c.showsTrend {
            buffer.write(Sparkline.line(issue.series, width: c.trend, unicode: unicode), row: row, col: c.trendX, style: .sparkline)
        }
    }
}

/// What the release screen asks of the store, and how the answer lands.
extension ReleaseScreen {
    /// The newest version against the one before it over a window.
    public struct Load: StoreLoad {
        public var window: TimeWindow
        public func perform(_ context: StoreContext) throws -> Loaded {
            guard let latest = try context.store.versions().last else { return Loaded(comparison: nil, window: window) }
            return Loaded(comparison: try context.store.compareRelease(latest, against: nil, window: window, now: context.now), window: window)
        }
    }

    /// The comparison (nil: no event names a version).
    public struct Loaded: StoreAnswer {
        public var comparison: ReleaseComparison?
        public var window: TimeWindow
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            ReleaseScreen.loaded(comparison, window: window, &state)
            return []
        }
    }
}

extension DashboardEffect {
    /// The release screen's load.
    public static func loadRelease(window: TimeWindow) -> Self { .load(ReleaseScreen.Load(window: window)) }
}

extension DashboardAction {
    /// The release screen's answer.
    public static func releaseLoaded(_ comparison: ReleaseComparison?, window: TimeWindow) -> Self {
        .answer(ReleaseScreen.Loaded(comparison: comparison, window: window))
    }
}
