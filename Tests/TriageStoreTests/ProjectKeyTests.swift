import TestSupport
import Testing
import TriageIngest
import TriageModel
@testable import TriageStore

/// Projects and their keys in the store: what `key add/list/revoke` write and what `serve` checks.
@Suite struct ProjectKeyTests {
    let now = TemporaryStore.sampleEnd
    var later: Timestamp { Timestamp(millis: now.millis + 60_000) }

    @Test func addingAKeyMakesTheProjectOnceAndNumbersProjectsFromOne() throws {
        let f = try TemporaryStore()
        let first = try f.store.addProjectKey(project: "ios", at: now)
        let second = try f.store.addProjectKey(project: "ios", at: later)
        let android = try f.store.addProjectKey(project: "android", at: later)
        #expect(first.projectID == 1 && second.projectID == 1 && android.projectID == 2)
        #expect(first.publicKey != second.publicKey)
        for key in [first, second, android] { #expect(ProjectKey.isPublicKey(key.publicKey), "\(key.publicKey)") }
        let projects = try f.store.projects()
        #expect(projects.map(\.project.name) == ["ios", "android"])
        #expect(projects[0].project.created == now)
        #expect(projects[0].keys.map(\.publicKey) == [first.publicKey, second.publicKey])
    }

    @Test func theLookupGivesEveryKeyWithItsProject() throws {
        let f = try TemporaryStore()
        let ios = try f.store.addProjectKey(project: "ios", at: now)
        let web = try f.store.addProjectKey(project: "web", at: later)
        let keys = try f.store.projectKeys()
        #expect(keys == [ios, web])
        #expect(keys[1] == ProjectKey(publicKey: web.publicKey, projectID: 2, projectName: "web", revoked: false, created: later))
    }

    @Test func aRevokedKeyIsKeptAndMarkedRevoked() throws {
        let f = try TemporaryStore()
        let old = try f.store.addProjectKey(project: "ios", at: now)
        let current = try f.store.addProjectKey(project: "ios", at: now)
        let revoked = try f.store.revokeKeys(matching: old.publicKey, at: later)
        #expect(revoked.map(\.publicKey) == [old.publicKey])
        let keys = try f.store.projectKeys()
        #expect(keys.count == 2)
        #expect(keys.first { $0.publicKey == old.publicKey }?.revoked == true)
        #expect(keys.first { $0.publicKey == old.publicKey }?.revokedAt == later)
        #expect(keys.first { $0.publicKey == current.publicKey }?.revoked == false)
        #expect(try f.store.revokeKeys(matching: old.publicKey, at: later) == [], "revoked once only")
    }

    @Test func revokingAProjectRevokesEachOfItsActiveKeys() throws {
        let f = try TemporaryStore()
        let a = try f.store.addProjectKey(project: "ios", at: now)
        let b = try f.store.addProjectKey(project: "ios", at: now)
        let other = try f.store.addProjectKey(project: "android", at: now)
        _ = try f.store.revokeKeys(matching: a.publicKey, at: now)
        #expect(try f.store.revokeKeys(matching: "ios", at: later).map(\.publicKey) == [b.publicKey])
        #expect(try f.store.projectKeys().filter { !$0.revoked }.map(\.publicKey) == [other.publicKey])
        #expect(try f.store.revokeKeys(matching: "ios", at: later) == [])
    }

    @Test func anUnknownKeyOrProjectIsAUsageErrorNamingTheProjects() throws {
        let f = try TemporaryStore()
        _ = try f.store.addProjectKey(project: "ios", at: now)
        #expect(throws: StoreError.usage("no project is named iso (there are ios)")) {
            try f.store.revokeKeys(matching: "iso", at: now)
        }
        let unknown = String(repeating: "ab", count: 16)
        #expect(throws: StoreError.usage("no project has the key \(unknown) (errtriage key list shows the keys)")) {
            try f.store.revokeKeys(matching: unknown, at: now)
        }
    }

    @Test func aNameThatIsNotOneWordIsRefused() throws {
        let f = try TemporaryStore()
        #expect(throws: StoreError.usage("a project name is letters, digits, '.', '_' and '-' only")) {
            try f.store.addProjectKey(project: "my app", at: now)
        }
        #expect(throws: StoreError.usage("a project needs a name")) { try f.store.addProjectKey(project: "", at: now) }
        #expect(try f.store.projects().isEmpty)
    }

    @Test func copyCarriesProjectsAndKeysWithTheirIds() throws {
        let source = try TemporaryStore()
        try source.ingest(lines: [TemporaryStore.event("a", "2026-11-20T10:00:00Z")])
        _ = try source.store.addProjectKey(project: "ios", at: now)
        _ = try source.store.addProjectKey(project: "android", at: now)
        _ = try source.store.revokeKeys(matching: "ios", at: later)
        let target = try TemporaryStore(sqlite: ())
        _ = try source.store.copy(to: target.store)
        #expect(try target.store.projects() == source.store.projects())
        // The next project takes the next id on the copy too.
        #expect(try target.store.addProjectKey(project: "web", at: later).projectID == 3)
    }
}

/// Each event's project: stored with it, rolled up per issue and day as a dimension, and asked for with `project:`.
@Suite struct EventProjectTests {
    let now = TemporaryStore.sampleEnd

    /// Three events of one issue in two projects and none, and one of another issue in ios.
    func store() throws -> TemporaryStore {
        let f = try TemporaryStore()
        try f.ingest(lines: [
            #"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43","project":"ios","user_id":"u1"}"#,
            #"{"event_id":"b","timestamp":"2026-11-19T10:00:00Z","codes":"US14-LO43","project":"android","user_id":"u2"}"#,
            #"{"event_id":"c","timestamp":"2026-11-18T10:00:00Z","codes":"US14-LO43","user_id":"u3"}"#,
            #"{"event_id":"d","timestamp":"2026-11-20T11:00:00Z","codes":"US3-AP7","project":"ios"}"#,
        ])
        return f
    }

    func list(_ f: TemporaryStore, _ text: String, window: TimeWindow = .d7) throws -> IssueList {
        try f.store.issueList(IssueQuery(window: window, filter: .all, text: text, top: .max), now: now)
    }

    @Test func aProjectTermCountsTheEventsOfThatProject() throws {
        let f = try store()
        let ios = try list(f, "project:ios")
        #expect(Set(ios.issues.map(\.key)) == ["US14-LO43", "US3-AP7"])
        #expect(ios.issues.first { $0.key == "US14-LO43" }?.events == 1)
        #expect(ios.issues.first { $0.key == "US14-LO43" }?.users == 1)
        #expect(ios.totals.events == 2)
        #expect(try list(f, "project:android").issues.map(\.key) == ["US14-LO43"])
        #expect(try list(f, "project:unknown").issues.map { "\($0.key) \($0.events)" } == ["US14-LO43 1"])
        #expect(try list(f, "-project:ios").issues.map { "\($0.key) \($0.events)" } == ["US14-LO43 2"])
        // Two terms read the events rather than the rollup: the same counts.
        let two = try list(f, "project:ios|android network:unknown")
        #expect(two.totals.events == 3, "\(two.issues.map { "\($0.key) \($0.events)" }) \(two.unmatched)")
        #expect(try list(f, "project:ios", window: .h24).totals.events == 2)
        #expect(try list(f, "project:web").unmatched == [#"no project is "web" (the store holds android, ios, unknown)."#])
    }

    @Test func theDetailBreaksEventsDownByProjectOnceOneHasAProject() throws {
        let f = try store()
        let detail = try f.store.issueDetail(key: "US14-LO43", window: .d7, now: now)
        #expect(detail.breakdown(.project).rows.map { "\($0.value) \($0.count)" } == ["android 1", "ios 1", "unknown 1"])
        #expect(detail.shownDimensions.last == .project)
        #expect(detail.recentEvents.map(\.project) == ["ios", "android", nil])

        let plain = try TemporaryStore()
        try plain.ingest(lines: [TemporaryStore.event("a", "2026-11-20T10:00:00Z")])
        let none = try plain.store.issueDetail(key: "US14-LO43-AP7-NE8", window: .d7, now: now)
        #expect(none.breakdown(.project).rows.map(\.value) == ["unknown"])
        #expect(!none.shownDimensions.contains(.project), "a store fed from files alone shows the breakdowns it always did")
    }

    @Test func theProjectsOfEachIssueAreItsEventsProjects() throws {
        let f = try store()
        let names = try f.store.projectNames(ofIssues: ["US14-LO43", "US3-AP7"])
        #expect(names == ["US14-LO43": ["android", "ios"], "US3-AP7": ["ios"]])
    }

    @Test func aStoreWithProjectsChecksSound() throws {
        let f = try store()
        #expect(try f.store.verify().problems == [])
    }

    @Test func theIngestsProjectGoesToEveryEventThatNamesNone() throws {
        let f = try TemporaryStore()
        let pipeline = try IngestPipeline(store: f.store, onReject: { Issue.record("rejected: \($0.reason)") })
        let lines = [
            #"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43"}"#,
            #"{"event_id":"b","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43","project":"android"}"#,
        ]
        try pipeline.ingest(bytes: Array(lines.joined(separator: "\n").utf8), name: "lines", project: "ios")
        let detail = try f.store.issueDetail(key: "US14-LO43", window: .d7, now: now)
        #expect(Set(detail.recentEvents.map { "\($0.eventID) \($0.project ?? "-")" }) == ["a ios", "b android"])
        #expect(try f.store.verify().problems == [])
    }
}
