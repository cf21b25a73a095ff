import TestSupport
import Testing
import TriageModel
import TriageStore

/// Where each project's code lives (schema 19), and owners given where none is: on both engines.
@Suite struct ProjectCodeStoreTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!

    @Test func aProjectKeepsItsCheckoutPathMapsAndReleasePattern() throws {
        let f = try TemporaryStore()
        _ = try f.store.addProjectKey(project: "ios", at: Self.now)
        let maps = [PathMapping(from: "/srv/app/", to: "src/"), PathMapping(from: "C:\\build\\", to: "")]
        let (set, made) = try f.store.setProjectCode(project: "shop", repo: "/home/ana/src/shop", pathMaps: maps, releaseRef: "release-{version}",
                                                      at: Self.now)
        #expect(made && set == CodeSettings(repo: "/home/ana/src/shop", pathMaps: maps, releaseRef: "release-{version}", origin: "project shop"))
        // Each part given replaces; an empty one clears; one not given stays.
        let (changed, again) = try f.store.setProjectCode(project: "shop", repo: "", pathMaps: nil, releaseRef: nil, at: Self.now)
        #expect(!again && changed.repo == nil && changed.pathMaps == maps && changed.releaseRef == "release-{version}")
        let listed = try f.store.projectCodeSettings()
        #expect(listed.map(\.project.name) == ["ios", "shop"])
        #expect(listed[0].code.isEmpty && listed[1].code.pathMaps == maps)
        #expect(throws: StoreError.self) { try f.store.setProjectCode(project: "no spaces", repo: "/x", pathMaps: nil, releaseRef: nil, at: Self.now) }
    }

    @Test func ownersAreGivenOnlyWhereNoneIsYet() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("a", "2026-11-20T10:00:00Z", codes: "US14-LO43"),
                             TemporaryStore.event("b", "2026-11-20T11:00:00Z", codes: "US14-LO44"),
                             TemporaryStore.event("c", "2026-11-20T12:00:00Z", codes: "US14-LO45")])
        _ = try f.store.addOwnerRule(query: "root:LO45", owner: "team-a")
        _ = try f.store.applyOwnerRules()
        _ = try f.store.mark("US14-LO44", .status(.muted, version: nil), by: "ana", at: Self.now)
        #expect(try f.store.unownedOpenIssues().map(\.key) == ["US14-LO43"])
        #expect(try f.store.setOwnerIfNone("US14-LO43", owner: "@ben @shop/billing", assignee: "@ben"))
        #expect(try !f.store.setOwnerIfNone("US14-LO43", owner: "@someone", assignee: "@someone"))
        let detail = try f.store.issueDetail(key: "US14-LO43", window: .all, now: Self.now)
        #expect(detail.summary.owner == "@ben @shop/billing" && detail.summary.assignee == "@ben")
        #expect(try f.store.unownedOpenIssues().isEmpty)
    }
}
