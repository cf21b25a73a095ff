@testable import DashboardCore
import Testing
import TriageModel

/// Marks: prompts, optimistic state, effects, receipts, undo, failures, read-only.
@Suite struct MarkReducerTests {
    let key = Fixtures.login.key

    @Test func rOpensAResolvePromptWithTheNextVersion() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("r"))).isEmpty)
        #expect(state.prompt?.purpose == .resolve(key: key))
        #expect(state.prompt?.text == "1.13")
    }

    @Test func enterAcceptsTheDefaultVersion() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .status(.resolved, version: "1.13"))])
        #expect(state.prompt == nil)
    }

    /// The suggestion stands selected: what is typed replaces it, never follows it.
    @Test func typingReplacesTheSuggestedVersion() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        for c in "2.3.2" { _ = reduce(&state, .key(.char(c))) }
        #expect(state.prompt?.text == "2.3.2")
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .status(.resolved, version: "2.3.2"))])
    }

    /// The suggestion is drawn selected; once typing replaces it, the text is the prompt's own.
    @Test func theSuggestionIsDrawnSelected() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        let size = Size(rows: 24, cols: 80)
        var screen = render(state, size: size)
        let label = "Resolve \(key) in version: "
        #expect(screen.lines[23].hasPrefix(label + "1.13"))
        #expect(screen[23, label.count].style == .selected)
        _ = reduce(&state, .key(.char("2")))
        screen = render(state, size: size)
        #expect(screen.lines[23].hasPrefix(label + "2 "))
        #expect(screen[23, label.count].style == .prompt)
    }

    /// Free text after a version is refused, the prompt kept open with why.
    @Test func freeTextIsNotAVersion() {
        for text in ["2.3.2 maybe", "2.3.2next week", "soon"] {
            var state = Fixtures.loadedState()
            _ = reduce(&state, .key(.char("r")))
            for c in text { _ = reduce(&state, .key(.char(c))) }
            #expect(reduce(&state, .key(.enter)).isEmpty, "\(text)")
            #expect(state.prompt?.error?.contains("is not a version like 1.14") == true, "\(text)")
            #expect(state.list.selectedIssue?.status == .open)
        }
    }

    /// Tab (or →) takes the suggestion into the field to edit it.
    @Test func theVersionCanBeEdited() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        _ = reduce(&state, .key(.tab))
        _ = reduce(&state, .key(.backspace))
        _ = reduce(&state, .key(.char("2")))
        _ = reduce(&state, .key(.char(".")))
        _ = reduce(&state, .key(.char("1")))
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .status(.resolved, version: "1.12.1"))])
    }

    @Test func cursorKeysEditInsideThePrompt() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        _ = reduce(&state, .key(.right))
        _ = reduce(&state, .key(.home))
        _ = reduce(&state, .key(.char("v")))
        _ = reduce(&state, .key(.end))
        _ = reduce(&state, .key(.left))
        _ = reduce(&state, .key(.delete))
        #expect(state.prompt?.text == "v1.1")
    }

    @Test func anEmptyVersionResolvesWithoutOne() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        _ = reduce(&state, .key(.ctrl("u")))
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .status(.resolved, version: nil))])
    }

    @Test func escapeCancelsTheResolvePrompt() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        #expect(reduce(&state, .key(.escape)).isEmpty)
        #expect(state.prompt == nil)
        #expect(state.list.selectedIssue?.status == .open)
    }

    @Test func aMarkShowsAtOnce() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("r")))
        _ = reduce(&state, .key(.enter))
        #expect(state.list.selectedIssue?.status == .resolved)
        #expect(state.message?.text == "Marked \(key) resolved in 1.13 — u to undo")
        #expect(state.marks.pending.count == 1)
    }

    @Test func capitalRMarksRegressed() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("R"))) == [.mark(key: key, .status(.regressed, version: nil))])
        #expect(state.list.selectedIssue?.status == .regressed)
    }

    @Test func oReopens() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.char("o"))) == [.mark(key: Fixtures.sync.key, .status(.open, version: nil))])
        #expect(state.list.selectedIssue?.status == .open)
    }

    @Test func mMutes() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("m"))) == [.mark(key: key, .status(.muted, version: nil))])
        #expect(state.list.selectedIssue?.status == .muted)
    }

    @Test func nAddsANoteThroughAPrompt() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("n")))
        for c in "retry fix" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .note("retry fix"))])
        #expect(state.detail.loaded?.notes.first?.text == "retry fix")
    }

    @Test func anEmptyNoteIsNotAdded() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("n")))
        #expect(reduce(&state, .key(.enter)).isEmpty)
    }

    @Test func tPrefillsTheTrackerLink() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("t")))
        #expect(state.prompt?.text == "https://tracker.example.com/MOB-4821")
    }

    @Test func anEmptyTrackerLinkClearsIt() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("t")))
        _ = reduce(&state, .key(.ctrl("u")))
        #expect(reduce(&state, .key(.enter)) == [.mark(key: key, .tracker(nil))])
        #expect(state.list.selectedIssue?.trackerURL == nil)
    }

    @Test func marksInTheDetailApplyToTheOpenIssue() {
        var state = Fixtures.detailState()
        #expect(reduce(&state, .key(.char("m"))) == [.mark(key: key, .status(.muted, version: nil))])
        #expect(state.detail.loaded?.summary.status == .muted)
        #expect(state.list.loaded?.issues.first?.status == .muted)
    }

    @Test func aReceiptGoesOnTheUndoStackAndReloads() {
        var state = Fixtures.detailState()
        _ = reduce(&state, .key(.char("m")))
        let receipt = Fixtures.receipt(key, .status(.muted, version: nil))
        let effects = reduce(&state, .marked(receipt))
        #expect(effects == [.loadList(IssueQuery()), .loadDetail(key: key, window: .d7)])
        #expect(state.marks.undoStack == [receipt])
        #expect(state.marks.pending.isEmpty)
    }

    @Test func uUndoesTheLastMark() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("m")))
        let receipt = Fixtures.receipt(key, .status(.muted, version: nil))
        _ = reduce(&state, .marked(receipt))
        #expect(reduce(&state, .key(.char("u"))) == [.undo(receipt)])
        #expect(state.list.selectedIssue?.status == .open)
        #expect(state.marks.undoStack.isEmpty)
        #expect(reduce(&state, .undone(receipt)) == [.loadList(IssueQuery())])
        #expect(state.message?.text.hasPrefix("Undid") == true)
    }

    @Test func repeatedUWalksBackThroughTheStack() {
        var state = Fixtures.loadedState()
        let first = Fixtures.receipt(key, .status(.muted, version: nil))
        let second = Fixtures.receipt(Fixtures.sync.key, .status(.open, version: nil), previous: .regressed)
        _ = reduce(&state, .marked(first))
        _ = reduce(&state, .marked(second))
        #expect(reduce(&state, .key(.char("u"))) == [.undo(second)])
        _ = reduce(&state, .undone(second))
        #expect(reduce(&state, .key(.char("u"))) == [.undo(first)])
        _ = reduce(&state, .undone(first))
        #expect(reduce(&state, .key(.char("u"))).isEmpty)
        #expect(state.message?.text == "Nothing to undo.")
    }

    @Test func aFailedMarkIsRevertedAndShown() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("m")))
        _ = reduce(&state, .failed("database is locked"))
        #expect(state.list.selectedIssue?.status == .open)
        #expect(state.marks.pending.isEmpty)
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("database is locked") == true)
        #expect(state.marks.undoStack.isEmpty)
    }

    @Test func aFailedUndoPutsTheReceiptBack() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("m")))
        let receipt = Fixtures.receipt(key, .status(.muted, version: nil))
        _ = reduce(&state, .marked(receipt))
        _ = reduce(&state, .listLoaded(Fixtures.list([{ var i = Fixtures.login; i.status = .muted; return i }()])))
        _ = reduce(&state, .key(.char("u")))
        _ = reduce(&state, .failed("disk full"))
        #expect(state.list.selectedIssue?.status == .muted)
        #expect(state.marks.undoStack == [receipt])
    }

    @Test func readOnlyRefusesMarks() {
        var state = Fixtures.loadedState(readOnly: true)
        for c in "rRomntu" {
            #expect(reduce(&state, .key(.char(c))).isEmpty)
            #expect(state.prompt == nil)
            #expect(state.message?.text == Marks.readOnlyMessage)
        }
        #expect(state.list.selectedIssue?.status == .open)
    }

    @Test func marksWithNothingSelectedSaySo() {
        var state = Fixtures.loadedState(issues: [])
        #expect(reduce(&state, .key(.char("m"))).isEmpty)
        #expect(state.message?.text == "No issue selected.")
    }

    @Test func readOnlyIsShownInTheHeader() {
        let state = Fixtures.loadedState(readOnly: true)
        #expect(render(state, size: state.size).lines[0].contains("read-only"))
    }

    /// On a team store someone else may have changed the status since this screen loaded it:
    /// the mark is taken, and the status bar says whose change it replaced.
    @Test func aMarkOverSomeoneElsesChangeSaysWhoChangedItBefore() {
        var state = Fixtures.loadedState()
        let effects = reduce(&state, .key(.char("m")))
        #expect(effects == [.mark(key: key, .status(.muted, version: nil))])
        var receipt = MarkReceipt(key: key, mark: .status(.muted, version: nil), previousStatus: .resolved,
                                  previousVersion: "1.2", previousTracker: nil, noteID: nil)
        receipt.previousBy = "ben"
        _ = reduce(&state, .marked(receipt))
        #expect(state.message?.text.contains("ben had marked it resolved since this screen loaded it") == true)
        #expect(state.message?.isError == false)
    }

    @Test func aMarkOverTheStatusThisScreenShowedSaysNothingMore() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("m")))
        var receipt = MarkReceipt(key: key, mark: .status(.muted, version: nil), previousStatus: .open,
                                  previousVersion: nil, previousTracker: nil, noteID: nil)
        receipt.previousBy = "ben"
        _ = reduce(&state, .marked(receipt))
        #expect(state.message?.text.contains("ben") == false)
    }
}
