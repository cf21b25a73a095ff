import Foundation
import Testing

/// The real binary in a real terminal (tmux), driven by keys as a person would.
@Suite(.serialized) struct DashboardTmuxTests: TmuxDriving {
    let session = "errtriage-e2e-\(getpid())"

    /// The dashboard on the shared sample store (read only: tests that mark use a copy).
    func startOnTheSample(cols: Int, rows: Int) throws {
        try start("ERRTRIAGE_STORE='\(SampleStore.path)' '\(CLI.binary)' --now \(SampleStore.end)", cols: cols, rows: rows)
    }

    @Test func aMeetingFindsTheWorstIssueByComplaintsMarksItResolvedAndTheReportShowsIt() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let command = "ERRTRIAGE_STORE='\(store)' USER=tester '\(CLI.binary)' --now \(SampleStore.end)"
        try start(command, cols: 120, rows: 40)
        defer { _ = try? tmux(["kill-session", "-t", session]) }

        try waitFor("rank: events")
        try keys("s")
        let complaints = try waitFor("rank: complaints")
        let firstRow = complaints.split(separator: "\n").first { $0.contains("  1 ") }
        #expect(firstRow?.contains("US14-LO43-AP7-NE8") == true)

        try keys("Enter")
        try waitFor("US14-LO43-AP7-NE8 · Chain")
        try waitFor("root cause")
        try keys("2")
        try waitFor("Device")

        try keys("r")
        try waitFor("in version: 1.14")
        try keys("Enter")
        try waitFor("resolved in 1.14")
        try keys("Escape")
        try waitFor("rank: complaints")
        try keys("q")
        Thread.sleep(forTimeInterval: 0.5)

        let report = try cli.run(["report", "--store", store, "--now", SampleStore.end, "--status", "all", "--top", "200", "--format", "json"]).json
        let issue = (report["issues"] as? [[String: Any]])?.first { $0["key"] as? String == "US14-LO43-AP7-NE8" }
        #expect(issue?["status"] as? String == "resolved")
        let show = try cli.run(["show", "US14-LO43-AP7-NE8", "--store", store, "--now", SampleStore.end, "--format", "json"]).json
        #expect(show["resolved_version"] as? String == "1.14")
        #expect((show["history"] as? [[String: Any]])?.first?["by"] as? String == "tester")
    }

    @Test func undoTakesTheMarkBackAndHelpListsTheKeys() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let command = "ERRTRIAGE_STORE='\(store)' '\(CLI.binary)' --now \(SampleStore.end)"
        try start(command, cols: 80, rows: 24)
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        try waitFor("rank: events")
        try keys("m")
        try waitFor("muted")
        try keys("u")
        try waitFor("Undid")
        try keys("?")
        let help = try waitFor("Marks")
        #expect(help.contains("mute"))
        try keys("Escape", "q")
        Thread.sleep(forTimeInterval: 0.5)
        let show = try cli.run(["show", "US14-LO43-AP7-NE8", "--store", store, "--now", SampleStore.end, "--format", "json"]).json
        #expect(show["status"] as? String == "open")
        #expect((show["history"] as? [[String: Any]])?.map { $0["to"] as? String } == ["open", "muted"])
    }

    @Test func theMeetingWalksTheAgendaFromTheRegressedIssueToTheComplaintsNoCodeExplains() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let agenda = try cli.run(["meeting", "--print", "--store", store, "--now", SampleStore.end]).stdout
        let count = agenda.split(separator: "\n").first.flatMap { $0.split(separator: ",").last }?
            .split(separator: " ").first.map(String.init) ?? "?"
        let command = "ERRTRIAGE_STORE='\(store)' USER=chair '\(CLI.binary)' meeting --now \(SampleStore.end)"
        try start(command, cols: 120, rows: 40)
        defer { _ = try? tmux(["kill-session", "-t", session]) }

        let first = try waitFor("item 1 of \(count) · Regressed")
        #expect(first.contains("US21-IN330-TA150-TB1-HT500-NE29"))
        try keys("n")
        try waitFor("Note on")
        try enter("backend fix ships Monday")
        try waitFor("Added a note")
        try keys("]")
        try waitFor("item 2 of \(count) · Spikes")
        try keys("[")
        try waitFor("item 1 of \(count)")
        for _ in 0..<(Int(count) ?? 0) { try keys("]") }
        let end = try waitFor("Complaints that cite no code")
        #expect(end.contains("end of agenda"))
        try keys("Escape", "q")
        Thread.sleep(forTimeInterval: 0.5)

        let minutes = try cli.run(["report", "--store", store, "--now", SampleStore.end, "--since-meeting", "--format", "markdown"])
        #expect(minutes.status == 0, "\(minutes.stderr)")
        #expect(minutes.stdout.contains("backend fix ships Monday"))
        #expect(minutes.stdout.contains("chair"))
    }

    @Test func thePivotGroupsByRootCauseAndNarrowsTheListToOne() throws {
        try startOnTheSample(cols: 120, rows: 40)
        defer { stop() }
        try waitFor("rank: events")
        try keys("p")
        let pivot = try waitFor("SURFACES AS")
        let firstRow = pivot.split(separator: "\n").first { $0.contains("  1 ") }
        #expect(firstRow?.contains("NE8") == true)
        #expect(firstRow?.contains("NetworkError.timeout") == true)
        try keys("l")
        try waitFor("ROOT CAUSES")
        try keys("l", "Enter")
        let narrowed = try waitForLoaded("only: root cause NE8 timeout")
        #expect(narrowed.contains("US14-LO43-AP7-NE8"))
        #expect(!narrowed.contains("IN500-TA202-TB30-HT400-NE29"))
        try keys("Escape")
        try waitFor("SURFACES AS")
        try keys("Escape")
        try waitFor("IN500-TA202-TB30-HT400-NE29")
        try keys("q")
    }

    /// Issue 46: from 80 columns up the counts and a week's trend stay; the key and the title are
    /// cut in the middle (each key's outermost and root links, the title's root name first).
    @Test func at80x24TheCountsAndTheTrendStayTheKeysKeepTheirEndsAndTheSelectedKeyIsWhole() throws {
        try startOnTheSample(cols: 80, rows: 24)
        defer { stop() }
        let list = try waitForLoaded("rank: events")
        let lines = list.split(separator: "\n").map(String.init)
        for heading in ["KEY", "TITLE", "EVENTS", "USERS", "COMPL", "TREND", "STAT"] {
            #expect(lines[2].contains(heading), "\(heading) gave way:\n\(list)")
        }
        for (key, root) in [("US14-LO43-AP7-NE8", "…NE8"), ("US14-IN156-TA103-HT503-NSn1009", "…NSn1009"),
                            ("IN500-TA202-TB30-HT400-NE29", "…NE29"), ("US9-IN330-TA103-HT404-NSn1005", "…NSn1005")] {
            let outer = String(key.split(separator: "-")[0])
            #expect(lines.contains { $0.contains(" " + outer) && $0.contains(root + " ") }, "\(key) lost an end:\n\(list)")
        }
        #expect(list.contains("connectionIssue … timeout"))
        #expect(list.split(separator: "\n").last?.hasSuffix("US14-LO43-AP7-NE8") == true, "\(list)")
        try keys("Down", "Down")
        let third = try waitFor("IN500-TA202-TB30-HT400-NE29")
        #expect(third.split(separator: "\n").last?.hasSuffix("IN500-TA202-TB30-HT400-NE29") == true)
        try keys("q")
    }

    @Test func rankingByComplaintsThenEnterOpensTheTopIssueByComplaints() throws {
        let cli = try CLI()
        try startOnTheSample(cols: 120, rows: 40)
        defer { stop() }
        let top = try cli.run(["report", "--store", SampleStore.path, "--now", SampleStore.end, "--by", "complaints",
                               "--top", "1", "--format", "json"]).json
        let key = (top["issues"] as? [[String: Any]])?.first?["key"] as? String ?? "?"
        try waitForLoaded("rank: events")
        try keys("Down", "Down", "Down", "Down")
        try keys("s")
        try waitForLoaded("rank: complaints")
        try keys("Enter")
        try waitFor("\(key) · Chain")
        try keys("Escape", "q")
    }

    @Test func aTerminalTooSmallSaysSoAndGrowingBackRestoresTheList() throws {
        try startOnTheSample(cols: 100, rows: 30)
        defer { stop() }
        try waitFor("rank: events")
        try tmux(["resize-window", "-t", session, "-x", "30", "-y", "8"])
        try waitFor("need 40")
        try tmux(["resize-window", "-t", session, "-x", "40", "-y", "12"])
        try waitFor("rank: events")
        try keys("q")
    }
}
