import DashboardCore
import Testing
import TriageModel

/// `a`: assigning the selected or open issue to a person.
@Suite struct AssignReducerTests {
    static func assigned(_ issue: IssueSummary, _ name: String) -> IssueSummary {
        var copy = issue
        copy.assignee = name
        return copy
    }

    @Test func aAsksForAPersonAndEnterAssigns() {
        var state = Fixtures.loadedState()
        #expect(reduce(&state, .key(.char("a"))).isEmpty)
        #expect(state.prompt?.purpose == .assign(key: Fixtures.login.key))
        for c in "ana" { _ = reduce(&state, .key(.char(c))) }
        #expect(reduce(&state, .key(.enter)) == [.mark(key: Fixtures.login.key, .assignee("ana"))])
        #expect(state.list.selectedIssue?.assignee == "ana", "shown at once, as a mark is")
    }

    @Test func anEmptyPromptClearsTheAssignee() {
        var state = Fixtures.loadedState(issues: [Self.assigned(Fixtures.login, "bob")] + Fixtures.issues.dropFirst())
        _ = reduce(&state, .key(.char("a")))
        #expect(state.prompt?.text == "bob")
        _ = reduce(&state, .key(.ctrl("u")))
        #expect(reduce(&state, .key(.enter)) == [.mark(key: Fixtures.login.key, .assignee(nil))])
    }

    @Test func theStoresAnswerGoesOnTheUndoStackReloadsAndSaysSo() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("a")))
        for c in "ana" { _ = reduce(&state, .key(.char(c))) }
        _ = reduce(&state, .key(.enter))
        let receipt = Fixtures.receipt(Fixtures.login.key, .assignee("ana"))
        let effects = reduce(&state, .marked(receipt))
        #expect(effects == [.loadList(state.query)])
        #expect(state.marks.undoStack == [receipt])
        #expect(state.message?.text == "Assigned \(Fixtures.login.key) to ana — u to undo")
    }

    @Test func aReadOnlyStoreRefusesAssigning() {
        var state = Fixtures.loadedState(readOnly: true)
        _ = reduce(&state, .key(.char("a")))
        #expect(state.prompt == nil)
        #expect(state.message?.isError == true)
    }

    @Test func theListShowsAssigneesWhereThereIsRoomAt160x48() {
        let size = Size(rows: 48, cols: 160)
        let state = Fixtures.loadedState(size, issues: [Self.assigned(Fixtures.login, "ana")] + Fixtures.issues.dropFirst())
        expectSnapshot(render(state, size: size), "list-assignee-160x48")
    }

    @Test func theAssigneeGivesWayFirstAt80x24() {
        let size = Size(rows: 24, cols: 80)
        let plain = render(Fixtures.loadedState(size), size: size)
        let state = Fixtures.loadedState(size, issues: [Self.assigned(Fixtures.login, "ana")] + Fixtures.issues.dropFirst())
        #expect(render(state, size: size).lines == plain.lines)
    }
}

/// `T`: a ticket draft for the selected or open issue.
@Suite struct TicketReducerTests {
    @Test func tAsksForTheSelectedIssuesTicketInTheListsWindow() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.down))
        #expect(reduce(&state, .key(.char("T"))) == [.writeTicket(key: Fixtures.sync.key, window: .d7)])
    }

    @Test func theWrittenTicketIsNamedAndCopied() {
        var state = Fixtures.loadedState()
        let effects = reduce(&state, .ticketWritten(key: Fixtures.login.key, path: "/tmp/t.md", text: "# ticket"))
        #expect(effects == [.copy("# ticket")])
        #expect(state.message?.text.contains("/tmp/t.md") == true)
    }

    @Test func theStatusBarNamesTheFileAt80x24() {
        var state = Fixtures.loadedState(Size(rows: 24, cols: 80))
        _ = reduce(&state, .ticketWritten(key: Fixtures.login.key, path: "errtriage-ticket-US14-LO43-AP7-NE8.md", text: "x"))
        expectSnapshot(render(state, size: state.size), "list-ticket-written-80x24")
    }
}
