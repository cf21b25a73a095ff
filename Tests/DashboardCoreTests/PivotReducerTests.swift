@testable import DashboardCore
import Testing
import TriageModel

/// The root-cause pivot screen: opening it, switching layers, narrowing the list to a group.
@Suite struct PivotReducerTests {
    static func groups(_ layer: Layer, mode: RankMode = .events) -> [LayerGroup] {
        LayerGroup.pivot(Fixtures.issues, by: layer, mode: mode)
    }

    /// The fixture list with the pivot open and its root-cause groups loaded.
    static func pivotState(_ size: Size = Size(rows: 24, cols: 80), layer: Layer = .root) -> DashboardState {
        var state = Fixtures.loadedState(size)
        _ = reduce(&state, .key(.char("p")))
        if layer != .root { state.pivot.layer = layer }
        _ = reduce(&state, .pivotLoaded(layer: layer, query: state.query, groups: groups(layer)))
        return state
    }

    @Test func pOpensThePivotAndAsksForTheListsQueryByRootCause() {
        var state = Fixtures.loadedState()
        let effects = reduce(&state, .key(.char("p")))
        #expect(state.screen == .pivot)
        #expect(effects == [.loadPivot(state.query, .root)])
    }

    @Test func groupsForAnotherLayerOrQueryAreIgnored() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("p")))
        _ = reduce(&state, .pivotLoaded(layer: .outer, query: state.query, groups: Self.groups(.outer)))
        #expect(state.pivot.groups == nil)
        _ = reduce(&state, .pivotLoaded(layer: .root, query: IssueQuery(window: .d90), groups: Self.groups(.root)))
        #expect(state.pivot.groups == nil)
        _ = reduce(&state, .pivotLoaded(layer: .root, query: state.query, groups: Self.groups(.root)))
        #expect(state.pivot.groups == Self.groups(.root))
    }

    @Test func lSwitchesBetweenRootCauseAndUserFacingError() {
        var state = Self.pivotState()
        #expect(reduce(&state, .key(.char("l"))) == [.loadPivot(state.query, .outer)])
        #expect(state.pivot.layer == .outer)
        #expect(state.pivot.groups == nil)
        #expect(reduce(&state, .key(.char("l"))) == [.loadPivot(state.query, .root)])
    }

    @Test func dAsksForADomainAndGroupsByItsLink() {
        var state = Self.pivotState()
        _ = reduce(&state, .key(.char("d")))
        #expect(state.prompt?.purpose == .pivotDomain)
        for c in "TaskBackendError" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)) == [.loadPivot(state.query, .domain("TaskBackendError"))])
        #expect(state.prompt == nil)
        _ = reduce(&state, .key(.char("d")))
        #expect(state.prompt?.text == "TaskBackendError")
        _ = reduce(&state, .key(.ctrl("u")))
        #expect(reduce(&state, .key(.enter)) == [.loadPivot(state.query, .root)])
    }

    @Test func enterNarrowsTheListToTheSelectedGroupsIssuesAndEscWidensIt() throws {
        var state = Self.pivotState()
        let group = try #require(state.pivot.selectedGroup)
        let effects = reduce(&state, .key(.enter))
        #expect(state.screen == .list)
        let scope = try #require(state.query.scope)
        #expect(scope.keys == Set(group.issues))
        #expect(scope.label == "root cause \(group.link.shortCode) \(group.link.name!)")
        #expect(effects == [.loadList(state.query)])
        let widened = reduce(&state, .key(.escape))
        #expect(state.query.scope == nil)
        #expect(state.screen == .pivot, "back to the pivot the list was narrowed from")
        #expect(widened == [.loadList(IssueQuery()), .loadPivot(IssueQuery(), .root)])
    }

    @Test func movingSelectsGroupsAndClampsAtTheEnds() {
        var state = Self.pivotState()
        let count = state.pivot.groups?.count ?? 0
        _ = reduce(&state, .key(.down))
        #expect(state.pivot.rows.selected == 1)
        _ = reduce(&state, .key(.end))
        #expect(state.pivot.rows.selected == count - 1)
        _ = reduce(&state, .key(.down))
        #expect(state.pivot.rows.selected == count - 1)
        _ = reduce(&state, .key(.char("g")))
        #expect(state.pivot.rows.selected == 0)
    }

    @Test func theSelectionStaysOnItsLinkWhenGroupsReload() {
        var state = Self.pivotState()
        _ = reduce(&state, .key(.down))
        let link = state.pivot.selectedGroup?.link
        let reordered = Array((state.pivot.groups ?? []).reversed())
        _ = reduce(&state, .pivotLoaded(layer: .root, query: state.query, groups: reordered))
        #expect(state.pivot.selectedGroup?.link == link)
    }

    @Test func rankWindowAndStatusReloadTheListAndThePivot() {
        var state = Self.pivotState()
        let effects = reduce(&state, .key(.char("s")))
        #expect(state.query.mode == .complaints)
        #expect(effects == [.loadList(state.query), .loadPivot(state.query, .root)])
        #expect(reduce(&state, .key(.char("w"))).contains(.loadPivot(state.query, .root)))
        #expect(reduce(&state, .key(.char("f"))).contains(.loadPivot(state.query, .root)))
    }

    @Test func anotherProcessWritingReloadsThePivot() {
        var state = Self.pivotState()
        #expect(reduce(&state, .storeChanged).contains(.loadPivot(state.query, .root)))
    }

    @Test func markKeysDoNothingOnThePivot() {
        var state = Self.pivotState()
        for key in "reomntu" {
            #expect(reduce(&state, .key(.char(key))).isEmpty)
            #expect(state.prompt?.purpose != .resolve(key: Fixtures.login.key))
        }
        #expect(state.marks.pending.isEmpty)
    }

    @Test func escAndPGoBackToTheList() {
        var state = Self.pivotState()
        _ = reduce(&state, .key(.escape))
        #expect(state.screen == .list)
        _ = reduce(&state, .key(.char("p")))
        _ = reduce(&state, .key(.char("p")))
        #expect(state.screen == .list)
    }

    @Test func theWheelAndAClickSelectAndADoubleClickNarrows() {
        var state = Self.pivotState()
        _ = reduce(&state, .mouse(MouseEvent(row: 5, col: 3, kind: .wheelDown)))
        #expect(state.pivot.rows.selected == min(3, (state.pivot.groups?.count ?? 1) - 1))
        _ = reduce(&state, .mouse(MouseEvent(row: 4, col: 3, kind: .click)))
        #expect(state.pivot.rows.selected == 1)
        _ = reduce(&state, .mouse(MouseEvent(row: 3, col: 3, kind: .doubleClick)))
        #expect(state.screen == .list)
        #expect(state.query.scope != nil)
    }
}

/// A domain pivot on a domain no chain has says the store does not know it, not that the window lacks it.
@Suite struct UnknownDomainPivotTests {
    @Test func anUnknownDomainIsNamedAsUnknown() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("p")))
        state.pivot.layer = .domain("NoSuchDomain")
        _ = reduce(&state, .pivotLoaded(layer: .domain("NoSuchDomain"), query: state.query, groups: [], unknownDomain: true))
        #expect(render(state, size: state.size).lines.joined(separator: "\n").contains("No chain in the store has the domain NoSuchDomain."))
        _ = reduce(&state, .pivotLoaded(layer: .domain("NoSuchDomain"), query: state.query, groups: []))
        #expect(render(state, size: state.size).lines.joined(separator: "\n").contains("No issue in this window passes through"))
    }
}
