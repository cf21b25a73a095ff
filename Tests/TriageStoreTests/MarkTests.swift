import TestSupport
import Testing
import TriageModel
@testable import TriageStore

@Suite struct MarkTests {
    let now = Timestamp.parse("2026-11-10T00:00:00Z")!

    @Test func aMarkChangesTheStatusAndWritesAHistoryRow() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", version: "1.9")])
        let receipt = try f.store.mark("US14-LO43-AP7-NE8", .status(.resolved, version: "1.10"), by: "ana", at: now, note: "fixed retry")
        #expect(receipt.previousStatus == .open)
        let detail = try f.store.issueDetail(key: "US14-LO43-AP7-NE8", window: .all, now: now)
        #expect(detail.summary.status == .resolved)
        #expect(detail.resolvedVersion == "1.10")
        #expect(detail.history == [StatusChange(from: .open, to: .resolved, version: "1.10", at: now, by: "ana", note: "fixed retry")])
    }

    @Test func undoRestoresThePreviousStatusAndRecordsIt() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        let receipt = try f.store.mark("US14-LO43-AP7-NE8", .status(.muted, version: nil), by: "ana", at: now)
        try f.store.undo(receipt, by: "ana", at: now.adding(millis: 1000))
        let detail = try f.store.issueDetail(key: "US14-LO43-AP7-NE8", window: .all, now: now)
        #expect(detail.summary.status == .open)
        #expect(detail.history.map(\.to) == [.open, .muted])
        #expect(detail.history.first?.note == "undo")
    }

    /// Two people on one store: a mark over someone else's says whose it replaced, and undo takes
    /// back only a mark that is still the issue's latest.
    @Test func undoRefusesWhenSomeoneMarkedTheIssueSinceAndAMarkSaysWhoseItReplaced() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        let key = "US14-LO43-AP7-NE8"
        let ana = try f.store.mark(key, .status(.muted, version: nil), by: "ana", at: now)
        #expect(ana.previousBy == nil)
        let ben = try f.store.mark(key, .status(.resolved, version: "1.2"), by: "ben", at: now.adding(millis: 1000))
        #expect(ben.previousStatus == .muted)
        #expect(ben.previousBy == "ana")
        let refused = #expect(throws: StoreError.self) { try f.store.undo(ana, by: "ana", at: now.adding(millis: 2000)) }
        #expect(refused?.message == "ben marked it resolved since")
        #expect(refused?.isUsageError == true, "a refusal, exit 1, not a store failure")
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).summary.status == .resolved)
        try f.store.undo(ben, by: "ben", at: now.adding(millis: 3000))
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).summary.status == .muted)
    }

    @Test func undoOfANoteRemovesItAndUndoOfATrackerLinkRestoresTheOldOne() throws {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        let key = "US14-LO43-AP7-NE8"
        _ = try f.store.mark(key, .tracker("https://tracker/1"), by: "ana", at: now)
        let tracker = try f.store.mark(key, .tracker("https://tracker/2"), by: "ana", at: now)
        let note = try f.store.mark(key, .note("looks like the CDN"), by: "ana", at: now)
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).notes.map(\.text) == ["looks like the CDN"])
        try f.store.undo(note, by: "ana", at: now)
        try f.store.undo(tracker, by: "ana", at: now)
        let detail = try f.store.issueDetail(key: key, window: .all, now: now)
        #expect(detail.notes.isEmpty)
        #expect(detail.summary.trackerURL == "https://tracker/1")
    }

    @Test func anUnknownKeyIsAnUnknownKeyError() throws {
        let f = try TemporaryStore()
        do {
            _ = try f.store.mark("US1-NE1", .status(.resolved, version: nil), by: "ana", at: now)
            Issue.record("marked an unknown key")
        } catch {
            #expect(error.isUsageError)
        }
    }

    @Test func aNewerVersionAfterTheFixRegressesButStragglersAndLateUploadsDoNot() throws {
        let f = try TemporaryStore()
        let key = "US14-LO43-AP7-NE8"
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", version: "1.9")])
        _ = try f.store.mark(key, .status(.resolved, version: "1.10"), by: "ana", at: Timestamp.parse("2026-11-05T00:00:00Z")!)
        // A straggler on 1.9 after the fix, and a late upload from before it on 1.10.
        let quiet = try f.ingest(lines: [TemporaryStore.event("e2", "2026-11-06T09:00:00Z", version: "1.9"),
                                         TemporaryStore.event("e3", "2026-11-04T09:00:00Z", version: "1.10")])
        #expect(quiet.regressions == 0)
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).summary.status == .resolved)
        let back = try f.ingest(lines: [TemporaryStore.event("e4", "2026-11-07T09:00:00Z", version: "1.10", build: "5")])
        #expect(back.regressions == 1)
        let detail = try f.store.issueDetail(key: key, window: .all, now: now)
        #expect(detail.summary.status == .regressed)
        #expect(detail.history.first?.note?.contains("e4") == true)
    }

    @Test func resolvingInThePastRegressesAtOnceWhenStoredEventsSaySo() throws {
        let f = try TemporaryStore()
        let key = "US14-LO43-AP7-NE8"
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", version: "1.9"),
                             TemporaryStore.event("e2", "2026-11-08T09:00:00Z", version: "1.11")])
        _ = try f.store.mark(key, .status(.resolved, version: "1.10"), by: "ana", at: Timestamp.parse("2026-11-05T00:00:00Z")!)
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).summary.status == .regressed)
    }

    @Test func resolvedWithoutAVersionRegressesOnAVersionNotSeenBefore() throws {
        let f = try TemporaryStore()
        let key = "US14-LO43-AP7-NE8"
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z", version: "1.9")])
        _ = try f.store.mark(key, .status(.resolved, version: nil), by: "ana", at: Timestamp.parse("2026-11-05T00:00:00Z")!)
        #expect(try f.ingest(lines: [TemporaryStore.event("e2", "2026-11-06T09:00:00Z", version: "1.9")]).regressions == 0)
        #expect(try f.ingest(lines: [TemporaryStore.event("e3", "2026-11-06T10:00:00Z", version: "1.10")]).regressions == 1)
    }
}
