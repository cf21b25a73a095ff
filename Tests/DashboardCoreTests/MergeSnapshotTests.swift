import DashboardCore
import Testing
import TriageModel

/// A merged group on screen: the list's `+N` badge and the chain pane's member chains.
@Suite struct MergeSnapshotTests {
    /// The login issue as the head of a group with the offline issue, each member with its own counts.
    static var group: IssueSummary {
        var head = Fixtures.login
        var own = Fixtures.login
        own.events = 1000
        own.users = 400
        head.members = [own, Fixtures.offline]
        return head
    }

    static func listState(_ size: Size) -> DashboardState {
        Fixtures.loadedState(size, issues: [group, Fixtures.sync, Fixtures.database, Fixtures.parse])
    }

    static func detailState(_ size: Size) -> DashboardState {
        var state = listState(size)
        _ = reduce(&state, .key(.enter))
        var detail = Fixtures.loginDetail
        detail.summary = group
        _ = reduce(&state, .detailLoaded(detail))
        return state
    }

    @Test func aGroupsRowCarriesPlusOneAt80x24() {
        let size = Size(rows: 24, cols: 80)
        expectSnapshot(render(Self.listState(size), size: size), "list-merged-80x24")
    }

    @Test func aGroupsRowCarriesPlusOneAt160x48() {
        let size = Size(rows: 48, cols: 160)
        expectSnapshot(render(Self.listState(size), size: size), "list-merged-160x48")
    }

    @Test func theChainPaneListsEachMembersChainWithItsOwnCounts() {
        let size = Size(rows: 48, cols: 160)
        expectSnapshot(render(Self.detailState(size), size: size), "detail-chain-merged-160x48")
    }
}
