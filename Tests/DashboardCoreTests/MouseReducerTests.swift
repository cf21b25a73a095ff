@testable import DashboardCore
import Testing
import TriageModel

/// The mouse, hit-tested with the layout the views draw with.
@Suite struct MouseReducerTests {
    @Test func clickSelectsTheRowUnderIt() {
        var state = Fixtures.loadedState()
        let row = ListLayout(size: state.size).firstIssueRow + 2
        #expect(reduce(&state, .mouse(MouseEvent(row: row, col: 10, kind: .click))).isEmpty)
        #expect(state.list.selectedKey == Fixtures.offline.key)
        #expect(render(state, size: state.size)[row, 10].style == .selected)
    }

    @Test func clickBelowTheLastRowDoesNothing() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .mouse(MouseEvent(row: 20, col: 10, kind: .click)))
        #expect(state.list.rows.selected == 0)
    }

    @Test func clickHitsTheRightRowWhenScrolled() {
        var state = Fixtures.loadedState(Size(rows: 12, cols: 40), issues: Fixtures.many(30))
        _ = reduce(&state, .key(.char("G")))
        let row = ListLayout(size: state.size).firstIssueRow
        _ = reduce(&state, .mouse(MouseEvent(row: row, col: 5, kind: .click)))
        #expect(state.list.rows.selected == 22)
        #expect(render(state, size: state.size).lines[row].contains("FE23-NE8"))
    }

    @Test func doubleClickOpensTheIssue() {
        var state = Fixtures.loadedState()
        let row = ListLayout(size: state.size).firstIssueRow + 1
        let effects = reduce(&state, .mouse(MouseEvent(row: row, col: 10, kind: .doubleClick)))
        #expect(effects == [.loadDetail(key: Fixtures.sync.key, window: .d7)])
        #expect(state.screen == .detail)
    }

    @Test func wheelMovesTheSelection() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .mouse(MouseEvent(row: 5, col: 5, kind: .wheelDown)))
        #expect(state.list.rows.selected == 3)
        _ = reduce(&state, .mouse(MouseEvent(row: 5, col: 5, kind: .wheelUp)))
        #expect(state.list.rows.selected == 0)
    }

    @Test func clickOnTheTabBarSwitchesPane() {
        var state = Fixtures.detailState()
        let layout = DetailLayout(size: state.size)
        let tab = layout.tabs(unicode: true).tabs.first { $0.pane == .complaints }!
        _ = reduce(&state, .mouse(MouseEvent(row: layout.tabRow, col: tab.columns.lowerBound + 1, kind: .click)))
        #expect(state.detail.pane == .complaints)
        let drawn = render(state, size: state.size)
        #expect(drawn[layout.tabRow, tab.columns.lowerBound + 1].style == .tabActive)
    }

    @Test func wheelScrollsThePane() {
        var state = Fixtures.detailState(Size(rows: 12, cols: 40), pane: .breakdowns)
        _ = reduce(&state, .mouse(MouseEvent(row: 5, col: 5, kind: .wheelDown)))
        #expect(state.detail.scroll == 3)
    }

    @Test func clickOnAnEventSelectsItAndDoubleClickOpensIt() {
        var state = Fixtures.detailState(pane: .events)
        let layout = DetailLayout(size: state.size)
        _ = reduce(&state, .mouse(MouseEvent(row: layout.bodyTop + 3, col: 5, kind: .click)))
        #expect(state.detail.selectedEvent == 2)
        _ = reduce(&state, .mouse(MouseEvent(row: layout.bodyTop + 2, col: 5, kind: .doubleClick)))
        #expect(state.screen == .event && state.event.index == 1)
    }

    @Test func mouseIsIgnoredWhileAPromptIsOpen() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("/")))
        _ = reduce(&state, .mouse(MouseEvent(row: 5, col: 5, kind: .click)))
        #expect(state.list.rows.selected == 0)
    }
}
