@testable import DashboardCore
import Testing
import TriageModel

/// Keys on the issue list: movement, drill-in, modes, windows, filters, quitting.
@Suite struct ListReducerTests {
    @Test func startLoadsTheListForTheQuery() {
        var state = DashboardState(storeName: "s", query: IssueQuery(window: .d30))
        #expect(state.start() == [.loadList(IssueQuery(window: .d30))])
        #expect(state.loading)
    }

    @Test func downAndJMoveTheSelection() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.down)).isEmpty)
        _ = reduce(&state, .key(.char("j")))
        #expect(state.list.rows.selected == 2)
        #expect(state.list.selectedKey == Fixtures.offline.key)
    }

    @Test func upAndKMoveTheSelectionBack() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.up))
        _ = reduce(&state, .key(.char("k")))
        #expect(state.list.rows.selected == 2)
    }

    @Test func movementClampsAtBothEnds() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.up))
        #expect(state.list.rows.selected == 0)
        for _ in 0..<10 { _ = reduce(&state, .key(.down)) }
        #expect(state.list.rows.selected == 4)
    }

    @Test func gAndGJumpToTopAndBottom() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("G")))
        #expect(state.list.rows.selected == 4)
        _ = reduce(&state, .key(.char("g")))
        #expect(state.list.rows.selected == 0)
    }

    @Test func pageDownMovesAPageAndScrolls() {
        var state = Fixtures.loadedState(Size(rows: 12, cols: 40), issues: Fixtures.many(30))
        _ = reduce(&state, .key(.pageDown))
        #expect(state.list.rows.selected == 8)
        #expect(state.list.rows.scroll == 1)
        _ = reduce(&state, .key(.pageUp))
        #expect(state.list.rows.selected == 0)
        #expect(state.list.rows.scroll == 0)
    }

    @Test func selectionStaysVisibleWhenMovingPastTheBottom() {
        var state = Fixtures.loadedState(Size(rows: 12, cols: 40), issues: Fixtures.many(30))
        for _ in 0..<10 { _ = reduce(&state, .key(.down)) }
        let screen = render(state, size: state.size)
        #expect(screen.lines[ListLayout(size: state.size).firstIssueRow + 7].contains("FE11-NE8"))
    }

    @Test func enterOpensTheSelectedIssueAndLoadsItsDetail() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.down))
        let effects = reduce(&state, .key(.enter))
        #expect(effects == [.loadDetail(key: Fixtures.sync.key, window: .d7)])
        #expect(state.screen == .detail)
        #expect(state.detail.key == Fixtures.sync.key)
        #expect(state.detail.pane == .chain)
    }

    @Test func enterOnAnEmptyListDoesNothing() {
        var state = Fixtures.loadedState(issues: [])
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.screen == .list)
    }

    @Test func qQuitsFromTheList() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("q"))) == [.quit])
    }

    @Test func ctrlCQuitsFromAnywhere() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("n")))
        #expect(reduce(&state, .key(.ctrl("c"))) == [.quit])
    }

    @Test func ctrlLAsksForARedraw() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.ctrl("l"))) == [.redraw, .loadList(IssueQuery())], "repaints and reads the store again")
    }

    @Test func sCyclesTheRankModeAndReloads() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("s"))) == [.loadList(IssueQuery(mode: .complaints))])
        _ = reduce(&state, .key(.char("s")))
        #expect(state.query.mode == .users)
        _ = reduce(&state, .key(.char("s")))
        #expect(state.query.mode == .events)
    }

    @Test func wCyclesTheWindowAndReloads() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("w"))) == [.loadList(IssueQuery(window: .d30))])
        var seen: [TimeWindow] = []
        for _ in 0..<4 {
            _ = reduce(&state, .key(.char("w")))
            seen.append(state.query.window)
        }
        #expect(seen == [.d90, .all, .h24, .d7])
    }

    @Test func fCyclesTheStatusFilterAndReloads() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("f"))) == [.loadList(IssueQuery(filter: .regressed))])
        var seen: [StatusFilter] = []
        for _ in 0..<4 {
            _ = reduce(&state, .key(.char("f")))
            seen.append(state.query.filter)
        }
        #expect(seen == [.resolved, .muted, .all, .active])
    }

    @Test func slashOpensTheFilterPromptAndTypingRefinesTheList() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        #expect(state.prompt?.purpose == .filter)
        #expect(reduce(&state, .key(.char("N"))) == [.loadList(IssueQuery(text: "N"))])
        #expect(reduce(&state, .key(.char("E"))) == [.loadList(IssueQuery(text: "NE"))])
        #expect(reduce(&state, .key(.backspace)) == [.loadList(IssueQuery(text: "N"))])
    }

    @Test func aFilterThatIsNotAQueryShowsTheListFromBeforeThePromptAndSaysWhy() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        for c in "os:17*" { _ = reduce(&state, .key(.char(c))) }
        #expect(state.query.text == "os:17*")
        #expect(reduce(&state, .key(.char("\""))) == [.loadList(IssueQuery(text: ""))])
        #expect(state.query.text == "")
        #expect(state.prompt?.error?.contains("opens a quote") == true)
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt?.purpose == .filter)
        #expect(reduce(&state, .key(.backspace)) == [.loadList(IssueQuery(text: "os:17*"))])
        #expect(state.prompt?.error == nil)
    }

    @Test func aQueryWithDimensionTermsSaysItReadsEventsWhileLoading() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        for c in "device:iPhone14,5" { _ = reduce(&state, .key(.char(c))) }
        _ = reduce(&state, .key(.enter))
        #expect(state.loading)
        #expect(render(state, size: state.size).lines.last?.hasSuffix("reading events…") == true)
        _ = reduce(&state, .listLoaded(Fixtures.list(query: state.query)))
        _ = reduce(&state, .key(.char("/")))
        _ = reduce(&state, .key(.ctrl("u")))
        _ = reduce(&state, .key(.char("x")))
        _ = reduce(&state, .key(.enter))
        #expect(render(state, size: state.size).lines.last?.hasSuffix("loading…") == true)
    }

    @Test func enterKeepsTheFilterText() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        _ = reduce(&state, .key(.char("x")))
        #expect(reduce(&state, .key(.enter)).isEmpty)
        #expect(state.prompt == nil)
        #expect(state.query.text == "x")
    }

    @Test func escapeInTheFilterPromptClearsTheFilter() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        _ = reduce(&state, .key(.char("x")))
        #expect(reduce(&state, .key(.escape)) == [.loadList(IssueQuery(text: ""))])
        #expect(state.prompt == nil)
        #expect(state.query.text == "")
    }

    @Test func halfTypedFieldNamesNeverShowAListAndTheWholeErrorIsReadable() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        for c in "oss:17" { _ = reduce(&state, .key(.char(c))) }
        #expect(state.query.text == "", "not the matches of the bare word 'oss'")
        let screen = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(screen.contains("complaints)"), "the field list's end is on screen: \(screen)")
    }

    @Test func escapeInThePromptRestoresTheFilterThatWasApplied() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        for c in "NE" { _ = reduce(&state, .key(.char(c))) }
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .key(.char("/")))
        for c in " has:note" { _ = reduce(&state, .key(.char(c))) }
        #expect(state.query.text == "NE has:note")
        #expect(reduce(&state, .key(.escape)) == [.loadList(IssueQuery(text: "NE"))])
        #expect(state.query.text == "NE")
    }

    @Test func aLongPromptKeepsTheCursorInView() {
        var state = Fixtures.loadedState(Size(rows: 12, cols: 40))
        _ = reduce(&state, .key(.char("/")))
        for c in String(repeating: "abcdefghij", count: 8) { _ = reduce(&state, .key(.char(c))) }
        let screen = render(state, size: state.size)
        #expect(screen.lines[11].hasSuffix("abcdefghij "))
        #expect(screen[11, 39].style == .cursor)
    }

    @Test func escapeOnTheListClearsAKeptFilter() {
        var state = Fixtures.loadedState()
        state.query.text = "NE"
        #expect(reduce(&state, .key(.escape)) == [.loadList(IssueQuery(text: ""))])
    }

    @Test func questionMarkOpensHelpAndEscapeClosesIt() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("?")))
        #expect(state.screen == .help)
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
    }

    @Test func qAndQuestionMarkAlsoCloseHelp() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("?")))
        #expect(reduce(&state, .key(.char("q"))).isEmpty)
        #expect(state.screen == .list)
        _ = reduce(&state, .key(.char("?")))
        _ = reduce(&state, .key(.char("?")))
        #expect(state.screen == .list)
    }

    @Test func helpScrollsWhenItDoesNotFit() {
        var state = Fixtures.loadedState(Size(rows: 12, cols: 40))
        _ = reduce(&state, .key(.char("?")))
        _ = reduce(&state, .key(.char("j")))
        #expect(state.help.scroll.top == 1)
        _ = reduce(&state, .key(.char("G")))
        #expect(state.help.scroll.top == HelpScreen.lines(for: .list, unicode: true, width: state.size.cols - 1).count - HelpScreen.bodyHeight(state.size))
    }

    @Test func listReloadKeepsTheSelectionOnTheSameKey() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.down))
        let reordered = [Fixtures.offline, Fixtures.login, Fixtures.database, Fixtures.sync]
        _ = reduce(&state, .listLoaded(Fixtures.list(reordered)))
        #expect(state.list.selectedKey == Fixtures.sync.key)
        #expect(state.list.rows.selected == 3)
    }

    @Test func listReloadWithoutTheSelectedKeyKeepsThePosition() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .listLoaded(Fixtures.list([Fixtures.login, Fixtures.offline, Fixtures.database])))
        #expect(state.list.rows.selected == 1)
        #expect(state.list.selectedKey == Fixtures.offline.key)
        #expect(!state.loading)
    }

    @Test func storeChangedReloadsListAndOpenDetail() {
        var state = Fixtures.detailState()
        #expect(reduce(&state, .storeChanged) == [.loadList(IssueQuery()), .loadDetail(key: Fixtures.login.key, window: .d7)])
        #expect(state.screen == .detail)
    }

    @Test func storeChangedKeepsTheSelectionByKey() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("G")))
        #expect(reduce(&state, .storeChanged) == [.loadList(IssueQuery())])
        _ = reduce(&state, .listLoaded(Fixtures.list([Fixtures.parse, Fixtures.login])))
        #expect(state.list.rows.selected == 0)
        #expect(state.list.selectedKey == Fixtures.parse.key)
    }

    @Test func resizeStoresTheSizeAndKeepsTheSelectionVisible() {
        var state = Fixtures.loadedState(Size(rows: 48, cols: 160), issues: Fixtures.many(30))
        _ = reduce(&state, .key(.char("G")))
        #expect(state.list.rows.scroll == 0)
        _ = reduce(&state, .resize(Size(rows: 12, cols: 40)))
        #expect(state.size == Size(rows: 12, cols: 40))
        #expect(state.list.rows.scroll == 22)
    }

    @Test func tickExpiresMessages() {
        var state = Fixtures.loadedState()
        state.message = StatusMessage("hello", ticksLeft: 2)
        _ = reduce(&state, .tick)
        #expect(state.message != nil)
        _ = reduce(&state, .tick)
        #expect(state.message == nil)
    }

    @Test func failureWithoutAPendingMarkShowsTheError() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .failed("database is locked"))
        #expect(state.message?.isError == true)
        #expect(state.message?.text == "database is locked")
    }
}
