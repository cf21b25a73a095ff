@testable import DashboardCore
import Testing
import TriageModel

/// Each screen declares its keys once (`ScreenModule.bindings`); what the shell derives from them
/// holds for every screen in the registry.
@Suite struct ScreenModuleTests {
    @Test(arguments: Screen.allCases)
    func aScreenBindsEachKeyOnce(screen: Screen) {
        let keys = screen.module.bindings.flatMap(\.help.keys)
        #expect(Set(keys).count == keys.count, "\(screen.name): \(keys)")
    }

    @Test(arguments: Screen.allCases)
    func everyScreenTakesHelpRedrawAndCtrlCAndSaysWhatItDoesNotTake(screen: Screen) {
        for key: Key in [.char("?"), .ctrl("l"), .ctrl("c")] { #expect(screen.binding(for: key) != nil, "\(screen.name): \(key)") }
        #expect(screen.binding(for: .char("z")) == nil)
    }

    @Test func helpListsEveryKeyOfTheDashboardOnceWhereverItIsOpened() {
        for screen in Screen.allCases where screen != .help {
            let own = Set(screen.keys)
            let others = Screen.allKeys.filter { !own.contains($0) }
            #expect(own.count + others.count == Screen.allKeys.count)
            let text = HelpScreen.lines(for: screen, unicode: true).map { $0.map(\.text).joined() }.joined(separator: "\n")
            for key in Screen.allKeys { #expect(text.contains(key.text.prefix(30)), "\(screen.name): \(key.label)") }
        }
    }

    @Test func aKeyLineNamesOnlyWhatTheScreenOffersNow() {
        var state = Fixtures.detailState(Size(rows: 24, cols: 200))
        #expect(!StatusBar.hints(for: state, width: 200).map(\.text).joined().contains("Enter event"))
        _ = reduce(&state, .key(.char("3")))
        #expect(StatusBar.hints(for: state, width: 200).map(\.text).joined().contains("Enter event"))
    }

    @Test func storeChangesReloadEachOpenScreenInTheRegistrysOrder() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("V")))
        _ = reduce(&state, .key(.char("?")))
        #expect(reduce(&state, .storeChanged) == [.loadList(IssueQuery()), .loadRelease(window: .d7)])
        _ = reduce(&state, .key(.escape))
        _ = reduce(&state, .key(.escape))
        _ = reduce(&state, .key(.char("v")))
        #expect(reduce(&state, .storeChanged) == [.loadList(IssueQuery()), .loadViews])
    }
}

/// The one selection every list shares: a row clamped to the rows, the scroll moved as little as keeps it in view.
@Suite struct ListSelectionTests {
    @Test func selectingClampsToTheRowsAndKeepsTheRowInView() {
        var rows = ListSelection()
        rows.select(40, count: 30, visible: 8)
        #expect(rows.selected == 29)
        #expect(rows.scroll == 22)
        rows.select(-5, count: 30, visible: 8)
        #expect((rows.selected, rows.scroll) == (0, 0))
    }

    @Test func movingToEitherEndSaturates() {
        var rows = ListSelection()
        rows.move(by: Int.max / 2, count: 30, visible: 8)
        rows.move(by: Int.max / 2, count: 30, visible: 8)
        #expect(rows.selected == 29)
        rows.move(by: Int.min / 2, count: 30, visible: 8)
        #expect(rows.selected == 0)
    }

    @Test func anEmptyListSelectsItsTop() {
        var rows = ListSelection()
        rows.move(by: 3, count: 0, visible: 8)
        #expect((rows.selected, rows.scroll) == (0, 0))
    }

    @Test func rowsInSectionsKeepTheLineAboveThemInView() {
        // Two sections of five rows, each under a heading: rows stand on lines 1–5 and 7–11.
        let sections = SectionLines(rowLines: [1, 2, 3, 4, 5, 7, 8, 9, 10, 11], count: 12)
        var rows = ListSelection()
        rows.select(9, count: 10, visible: 4, sections: sections)
        #expect(rows.scroll == 8)
        rows.move(by: -2, count: 10, visible: 4, sections: sections)
        #expect(rows.selected == 7)
        #expect(rows.scroll == 7, "the row before shows above the selection")
        rows.move(by: -1, count: 10, visible: 4, sections: sections)
        rows.move(by: -1, count: 10, visible: 4, sections: sections)
        #expect(rows.selected == 5)
        #expect(rows.scroll == 5, "the first row of a section shows its heading above it")
    }
}

/// The list keeps its columns fitted for what it shows; a frame never depends on when that was.
@Suite struct FittedColumnsTests {
    @Test func theListsColumnsAreFittedForTheRowsOnScreen() {
        let state = Fixtures.loadedState(Size(rows: 24, cols: 80), issues: Fixtures.many(30))
        #expect(state.list.fitted?.columns == ListColumns.fit(Fixtures.many(30), mode: .events, width: 80, unicode: true, visible: 0..<20))
    }

    @Test func aFrameIsTheSameWhetherItsColumnsWereFittedOrNot() {
        var state = Fixtures.loadedState(Size(rows: 24, cols: 80), issues: Fixtures.many(30))
        for _ in 0..<25 { _ = reduce(&state, .key(.down)) }
        var stale = state
        stale.query.mode = .complaints
        stale.unicode = false
        var fitted = stale
        _ = reduce(&fitted, .tick)
        #expect(fitted.list.fitted != stale.list.fitted)
        #expect(render(stale, size: state.size) == render(fitted, size: state.size))
    }
}

/// The prompt's line editor.
@Suite struct TextFieldTests {
    @Test func keysEditAtTheCursorAndCutToEitherEnd() {
        var field = TextField("1.14")
        let edited = [.left, .left, .char("x")].map { field.edit($0) }
        #expect(edited == [true, true, true])
        #expect((field.text, field.cursor) == ("1.x14", 3))
        let cut = field.edit(.ctrl("k"))
        #expect(cut && field.text == "1.x")
        let cleared = field.edit(.ctrl("u"))
        #expect(cleared && (field.text, field.cursor) == ("", 0))
    }

    @Test func aKeyThatDoesNotEditLeavesTheFieldAlone() {
        var field = TextField("abc")
        let edited = [.tab, .function(1), .enter].map { field.edit($0) }
        #expect(edited == [false, false, false])
        #expect((field.text, field.cursor) == ("abc", 3))
    }
}
