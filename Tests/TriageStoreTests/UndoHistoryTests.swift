import TestSupport
import Testing
import TriageModel
import TriageStore

/// Undo as a history: each change taken back in order while it still stands, and a change someone
/// else has overwritten since left alone with a sentence (both engines).
@Suite struct UndoHistoryTests {
    let now = Timestamp.parse("2026-11-10T00:00:00Z")!
    let key = "US14-LO43-AP7-NE8"

    func store() throws -> TemporaryStore {
        let f = try TemporaryStore()
        try f.ingest(lines: [TemporaryStore.event("e1", "2026-11-01T09:00:00Z")])
        return f
    }

    func summary(_ f: TemporaryStore) throws -> IssueSummary {
        try f.store.issueDetail(key: key, window: .all, now: now).summary
    }

    func at(_ seconds: Int64) -> Timestamp { now.adding(millis: seconds * 1000) }

    @Test func regressedThenMutedThenTwoUndosGoBackToOpenOneStepAtATime() throws {
        let f = try store()
        let e = try f.store.mark(key, .status(.regressed, version: nil), by: "ana", at: at(1))
        #expect(try summary(f).status == .regressed)
        let m = try f.store.mark(key, .status(.muted, version: nil), by: "ana", at: at(2))
        #expect(try summary(f).status == .muted)
        #expect(try f.store.undoIfStanding(m, by: "ana", at: at(3)) == .undone)
        #expect(try summary(f).status == .regressed)
        // The first undo wrote a history row after `e`: it is ana's own, so `e` still stands.
        #expect(try f.store.undoIfStanding(e, by: "ana", at: at(4)) == .undone)
        #expect(try summary(f).status == .open)
        let history = try f.store.issueDetail(key: key, window: .all, now: now).history
        #expect(history.map(\.to) == [.open, .regressed, .muted, .regressed])
        #expect(history.prefix(2).map(\.note) == ["undo", "undo"])
    }

    @Test func anAssignmentIsUndoneToThePreviousAssigneeWithAHistoryRow() throws {
        let f = try store()
        _ = try f.store.assign(key, to: "bob", by: "lead", at: at(0))
        let a = try f.store.mark(key, .assignee("ana"), by: "ana", at: at(1))
        #expect(a.previousAssignee == "bob")
        #expect(try summary(f).assignee == "ana")
        #expect(try f.store.undoIfStanding(a, by: "ana", at: at(2)) == .undone)
        #expect(try summary(f).assignee == "bob")
        let notes = try f.store.issueDetail(key: key, window: .all, now: now).notes.map(\.text)
        #expect(notes == ["assigned to bob (was ana)", "assigned to ana (was bob)", "assigned to bob"])
    }

    @Test func aTrackerLinkThenAnAssignmentAreUndoneNewestFirst() throws {
        let f = try store()
        _ = try f.store.mark(key, .tracker("https://tracker/old"), by: "lead", at: at(0))
        let t = try f.store.mark(key, .tracker("https://tracker/2"), by: "ana", at: at(1))
        let a = try f.store.mark(key, .assignee("ana"), by: "ana", at: at(2))
        #expect(try f.store.undoIfStanding(a, by: "ana", at: at(3)) == .undone)
        #expect(try summary(f).assignee == nil)
        #expect(try summary(f).trackerURL == "https://tracker/2", "the tracker link is not the assignment's to undo")
        #expect(try f.store.undoIfStanding(t, by: "ana", at: at(4)) == .undone)
        #expect(try summary(f).trackerURL == "https://tracker/old")
    }

    @Test func aStatusSomeoneElseChangedSinceIsLeftAsTheyLeftIt() throws {
        let f = try store()
        let e = try f.store.mark(key, .status(.regressed, version: nil), by: "ana", at: at(1))
        _ = try f.store.mark(key, .status(.open, version: nil), by: "ben", at: at(2))
        #expect(try f.store.undoIfStanding(e, by: "ana", at: at(3)) == .overwritten("ben marked it open since"))
        #expect(try summary(f).status == .open)
        #expect(try f.store.issueDetail(key: key, window: .all, now: now).history.count == 2, "nothing written")
    }

    @Test func aLinkOrAssigneeSomeoneElseChangedSinceIsLeftAlone() throws {
        let f = try store()
        let t = try f.store.mark(key, .tracker("https://tracker/mine"), by: "ana", at: at(1))
        let a = try f.store.mark(key, .assignee("ana"), by: "ana", at: at(2))
        _ = try f.store.mark(key, .tracker("https://tracker/ben"), by: "ben", at: at(3))
        _ = try f.store.assign(key, to: "ben", by: "ben", at: at(4))
        #expect(try f.store.undoIfStanding(a, by: "ana", at: at(5)) == .overwritten("it was assigned to ben since"))
        #expect(try f.store.undoIfStanding(t, by: "ana", at: at(6)) == .overwritten("its tracker link is https://tracker/ben since"))
        #expect(try summary(f).assignee == "ben")
        #expect(try summary(f).trackerURL == "https://tracker/ben")
    }

    @Test func aRemovedNoteIsNotUndoneTwice() throws {
        let f = try store()
        let n = try f.store.mark(key, .note("the CDN again"), by: "ana", at: at(1))
        #expect(try f.store.undoIfStanding(n, by: "ana", at: at(2)) == .undone)
        #expect(try f.store.undoIfStanding(n, by: "ana", at: at(3)) == .overwritten("the note was removed since"))
    }
}
