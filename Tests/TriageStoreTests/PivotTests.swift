import TestSupport
import Testing
import TriageModel
@testable import TriageStore

@Suite struct PivotTests {
    let now = Timestamp.parse("2026-11-02T00:00:00Z")!

    func store() throws -> TemporaryStore {
        let f = try TemporaryStore()
        try f.ingest(lines: [
            TemporaryStore.event("a1", "2026-11-01T09:00:00Z", codes: "US14-LO43-AP7-NE8"),
            TemporaryStore.event("a2", "2026-11-01T09:01:00Z", codes: "US14-LO43-AP7-NE8"),
            TemporaryStore.event("b1", "2026-11-01T09:00:00Z", codes: "US3-AP7-NE8"),
            TemporaryStore.event("c1", "2026-11-01T09:00:00Z", codes: "US14-TB30-NE29"),
            #"{"complaint_id":"t1","timestamp":"2026-11-01T10:00:00Z","text":"US14-TB30-NE29 again"}"#,
        ])
        return f
    }

    @Test func groupingByTheRootCauseSumsEventsAndNamesWhatItSurfacesAs() throws {
        let f = try store()
        let list = try f.store.issueList(IssueQuery(window: .d7, top: .max), now: now)
        let groups = LayerGroup.pivot(list.issues, by: .root, mode: .events)
        #expect(groups.map(\.link.shortCode) == ["NE8", "NE29"])
        #expect(groups.map(\.events) == [3, 1])
        #expect(groups[0].issues == ["US14-LO43-AP7-NE8", "US3-AP7-NE8"])
        #expect(groups[0].surfacesAs.map(\.link.shortCode) == ["US14", "US3"])
        #expect(groups[0].surfacesAs.map(\.events) == [2, 1])
    }

    @Test func groupingByComplaintsRanksTheComplainedAboutRootFirst() throws {
        let f = try store()
        let list = try f.store.issueList(IssueQuery(window: .d7, top: .max), now: now)
        #expect(LayerGroup.pivot(list.issues, by: .root, mode: .complaints).map(\.link.shortCode) == ["NE29", "NE8"])
    }

    @Test func groupingByADomainKeepsOnlyChainsThatPassThroughIt() throws {
        let f = try store()
        let list = try f.store.issueList(IssueQuery(window: .d7, top: .max), now: now)
        let groups = LayerGroup.pivot(list.issues, by: Layer("domain:AP")!, mode: .events)
        #expect(groups.map(\.link.shortCode) == ["AP7"])
        #expect(groups[0].issues.count == 2)
    }

    @Test func theStoresPivotIgnoresTheListsTopAndGroupsByTheUserFacingErrorWithItsRootCauses() throws {
        let f = try store()
        let groups = try f.store.layerPivot(IssueQuery(window: .d7, top: 1), by: .outer, now: now).groups
        #expect(groups.map(\.link.shortCode) == ["US14", "US3"])
        #expect(groups[0].issues.count == 2)
        #expect(groups[0].rootCauses.map(\.link.shortCode) == ["NE8", "NE29"])
        #expect(groups[0].related(for: .outer) == groups[0].rootCauses)
        #expect(groups[0].related(for: .root) == groups[0].surfacesAs)
    }

    @Test func aScopedListHoldsOnlyTheGroupsIssuesAndTotalsThem() throws {
        let f = try store()
        let scope = IssueScope(label: "root cause NE8 timeout", keys: ["US14-LO43-AP7-NE8", "US3-AP7-NE8"])
        let list = try f.store.issueList(IssueQuery(window: .d7, scope: scope), now: now)
        #expect(list.issues.map(\.key) == ["US14-LO43-AP7-NE8", "US3-AP7-NE8"])
        #expect(list.totals.events == 3)
        #expect(list.totals.complaints == 0)
    }

    @Test func layerNamesParse() {
        #expect(Layer("root") == .root)
        #expect(Layer("outer") == .outer)
        #expect(Layer("2") == .position(2))
        #expect(Layer("domain:TolokaBackendError") == .domain("TolokaBackendError"))
        #expect(Layer("sideways") == nil)
        #expect(Layer("-1") == nil)
    }
}
