@testable import DashboardCore
import Testing
import TriageModel

/// Keys on the detail screen: panes, scrolling, events, going back.
@Suite struct DetailReducerTests {
    @Test func tabAndShiftTabCycleThePanes() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.tab))
        #expect(state.detail.pane == .breakdowns)
        _ = reduce(&state, .key(.backTab))
        _ = reduce(&state, .key(.backTab))
        #expect(state.detail.pane == .life)
        _ = reduce(&state, .key(.backTab))
        #expect(state.detail.pane == .notes)
        _ = reduce(&state, .key(.tab))
        _ = reduce(&state, .key(.tab))
        #expect(state.detail.pane == .chain)
    }

    @Test func numberKeysPickAPane() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("4")))
        #expect(state.detail.pane == .complaints)
        _ = reduce(&state, .key(.char("6")))
        #expect(state.detail.pane == .life)
        _ = reduce(&state, .key(.char("7")))
        _ = reduce(&state, .key(.char("0")))
        #expect(state.detail.pane == .life)
        _ = reduce(&state, .key(.char("1")))
        #expect(state.detail.pane == .chain)
    }

    @Test func theLifePaneScrollsAnIssueSeenForYears() {
        var state = Fixtures.detailState(Size(rows: 12, cols: 40), pane: .life)
        let lines = DetailScreen.paneLines(state, size: state.size)
        #expect(lines.count > DetailLayout(size: state.size).bodyHeight)
        _ = reduce(&state, .key(.char("G")))
        #expect(state.detail.scroll == lines.count - DetailLayout(size: state.size).bodyHeight)
    }

    @Test func theLifePaneTellsAnUnmergeFromAMerge() {
        var state = Fixtures.detailState(pane: .life)
        let at = Fixtures.at("2026-08-20T09:00:00Z")
        state.detail.loaded?.life?.merges.append(IssueHistory.Merge(at: at, by: "ben", action: "unmerge", head: Fixtures.login.key,
                                                             member: "US14-LO43-AP7-NE9"))
        let text = DetailScreen.paneLines(state, size: state.size).map { $0.map(\.text).joined() }
        #expect(text.contains("  2026-08-11 15:20  merged US14-LO43-AP7-NE9 into US14-LO43-AP7-NE8  by ben"), "\(text)")
        #expect(text.contains("  2026-08-20 09:00  took US14-LO43-AP7-NE9 out of US14-LO43-AP7-NE8's group  by ben"), "\(text)")
    }

    @Test func theLifePaneWaitsForItsLoad() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.enter))
        var detail = Fixtures.loginDetail
        detail.life = nil
        _ = reduce(&state, .detailLoaded(detail))
        _ = reduce(&state, .key(.char("6")))
        let text = DetailScreen.paneLines(state, size: state.size).map { $0.map(\.text).joined() }
        #expect(text == ["loading…"])
    }

    @Test func arrowsLeftAndRightSwitchPanes() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.right))
        #expect(state.detail.pane == .breakdowns)
        _ = reduce(&state, .key(.left))
        #expect(state.detail.pane == .chain)
    }

    @Test func escapeGoesBackToTheList() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
        #expect(state.detail.loaded == nil)
        #expect(state.list.selectedKey == Fixtures.login.key)
    }

    @Test func backspaceAndQAlsoGoBack() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.backspace))
        #expect(state.screen == .list)
        _ = reduce(&state, .key(.enter))
        #expect(reduce(&state, .key(.char("q"))).isEmpty)
        #expect(state.screen == .list)
    }

    @Test func jAndKScrollALongPaneWithinItsLength() {
        var state = Fixtures.detailState(Size(rows: 12, cols: 40), pane: .breakdowns)
        _ = reduce(&state, .key(.char("j")))
        _ = reduce(&state, .key(.down))
        #expect(state.detail.scroll == 2)
        _ = reduce(&state, .key(.char("k")))
        #expect(state.detail.scroll == 1)
        _ = reduce(&state, .key(.char("G")))
        let lines = DetailScreen.paneLines(state, size: state.size).count
        #expect(state.detail.scroll == lines - DetailLayout(size: state.size).bodyHeight)
        _ = reduce(&state, .key(.char("j")))
        #expect(state.detail.scroll == lines - DetailLayout(size: state.size).bodyHeight)
        _ = reduce(&state, .key(.char("g")))
        #expect(state.detail.scroll == 0)
    }

    @Test func pageDownScrollsAPage() {
        var state = Fixtures.detailState(Size(rows: 12, cols: 40), pane: .breakdowns)
        _ = reduce(&state, .key(.pageDown))
        #expect(state.detail.scroll == DetailLayout(size: state.size).bodyHeight - 1)
    }

    @Test func switchingPanesStartsAtTheTop() {
        var state = Fixtures.detailState(Size(rows: 12, cols: 40), pane: .breakdowns)
        _ = reduce(&state, .key(.pageDown))
        _ = reduce(&state, .key(.char("5")))
        #expect(state.detail.scroll == 0)
    }

    @Test func jAndKSelectEventsInTheEventsPane() {
        var state = Fixtures.detailState(pane: .events)
        _ = reduce(&state, .key(.char("j")))
        _ = reduce(&state, .key(.char("j")))
        _ = reduce(&state, .key(.char("j")))
        #expect(state.detail.selectedEvent == 2)
        _ = reduce(&state, .key(.char("k")))
        #expect(state.detail.selectedEvent == 1)
    }

    @Test func enterOnAnEventShowsItsFieldsAndEscapeComesBack() {
        var state = Fixtures.detailState(pane: .events)
        _ = reduce(&state, .key(.down))
        _ = reduce(&state, .key(.enter))
        #expect(state.screen == .event && state.event.index == 1)
        let text = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(text.contains("ev-1002"))
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .detail)
        #expect(state.detail.pane == .events)
    }

    @Test func eventFieldsIncludeCustomKeys() {
        var state = Fixtures.detailState(Size(rows: 48, cols: 160), pane: .events)
        _ = reduce(&state, .key(.enter))
        let text = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(text.contains("screen"))
        #expect(text.contains("login"))
        #expect(text.contains("retry"))
    }

    @Test func wInTheDetailChangesTheWindowAndReloadsBoth() {
        var state = Fixtures.detailState()
        let effects = reduce(&state, .key(.char("w")))
        #expect(effects == [.loadList(IssueQuery(window: .d30)), .loadDetail(key: Fixtures.login.key, window: .d30)])
    }

    @Test func aDetailForAnotherIssueIsIgnored() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.enter))
        var other = Fixtures.loginDetail
        other.summary = Fixtures.sync
        _ = reduce(&state, .detailLoaded(other))
        #expect(state.detail.loaded == nil)
    }

    @Test func helpFromTheDetailReturnsToTheDetail() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("?")))
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .detail)
    }

    @Test func detailShowsLoadingUntilItArrives() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.enter))
        let text = render(state, size: state.size).lines.joined(separator: "\n")
        #expect(text.contains("loading…"))
    }
}
