import DashboardCore
import Testing
import TriageModel

/// `u` walks this run's changes newest first; one someone else changed since is skipped with a sentence.
@Suite struct UndoReducerTests {
    let key = Fixtures.login.key

    /// `R`, `m` in the detail, each confirmed by the store.
    func regressedThenMuted() -> (DashboardState, MarkReceipt, MarkReceipt) {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("R")))
        let e = Fixtures.receipt(key, .status(.regressed, version: nil))
        _ = reduce(&state, .marked(e))
        _ = reduce(&state, .key(.char("m")))
        let m = Fixtures.receipt(key, .status(.muted, version: nil), previous: .regressed)
        _ = reduce(&state, .marked(m))
        return (state, e, m)
    }

    @Test func eMUUUndoesTheMuteThenTheRegressionAndSaysWhatEachIsBackTo() {
        var (state, e, m) = regressedThenMuted()
        #expect(reduce(&state, .key(.char("u"))) == [.undo(m)])
        #expect(state.detail.loaded?.summary.status == .regressed)
        _ = reduce(&state, .undone(m))
        #expect(state.message?.text == "Undid: \(key) muted, back to regressed")
        #expect(reduce(&state, .key(.char("u"))) == [.undo(e)])
        _ = reduce(&state, .undone(e))
        #expect(state.message?.text == "Undid: \(key) regressed, back to open")
        #expect(state.detail.loaded?.summary.status == .open)
        #expect(reduce(&state, .key(.char("u"))).isEmpty)
        #expect(state.message?.text == "Nothing to undo.")
    }

    @Test func aChangeSomeoneElseOverwroteIsSkippedAndTheOneBeforeItIsUndone() {
        var (state, e, m) = regressedThenMuted()
        _ = reduce(&state, .key(.char("u")))
        // The store says ben changed the status since: the screen shows it as it was, and `R` is next.
        #expect(reduce(&state, .undoSkipped(m, "ben marked it open since")) == [.undo(e)])
        _ = reduce(&state, .undone(e))
        #expect(state.message?.text == "Skipped \(key) muted (ben marked it open since); Undid: \(key) regressed, back to open")
        #expect(state.marks.undoStack.isEmpty)
    }

    @Test func whenEveryChangeWasOverwrittenNothingIsUndoneAndUSaysSo() {
        var state = Fixtures.loadedState()
        let t = Fixtures.receipt(key, .tracker("https://tracker/mine"))
        _ = reduce(&state, .marked(t))
        _ = reduce(&state, .key(.char("u")))
        #expect(reduce(&state, .undoSkipped(t, "its tracker link is https://tracker/ben since")) == [.loadList(state.query)],
                "reads the store again, to show the other's change")
        #expect(state.message?.text == "Skipped \(key) with tracker https://tracker/mine (its tracker link is https://tracker/ben since); nothing else of yours to undo.")
        #expect(state.list.selectedIssue?.trackerURL == Fixtures.login.trackerURL, "put back as the screen showed it")
    }

    @Test func anAssignmentIsUndoneToThePreviousAssignee() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("a")))
        for c in "ana" { _ = reduce(&state, .key(.char(c))) }
        _ = reduce(&state, .key(.enter))
        var a = Fixtures.receipt(key, .assignee("ana"))
        a.previousAssignee = nil
        _ = reduce(&state, .marked(a))
        #expect(reduce(&state, .key(.char("u"))) == [.undo(a)])
        #expect(state.list.selectedIssue?.assignee == nil)
        _ = reduce(&state, .undone(a))
        #expect(state.message?.text == "Undid: \(key) assigned to ana, unassigned again")
    }
}
