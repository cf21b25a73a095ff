import Foundation
import Testing

/// The real binary in a real terminal (tmux), driven by keys as a person would.
@Suite(.serialized) struct DashboardTmuxTests {
    let session = "errtriage-e2e-\(getpid())"

    /// Runs a tmux command and returns what it printed. It spawns and reaps tmux itself
    /// (posix_spawn + waitpid): Foundation's Process misses the exit of a tmux client that
    /// started the server when the test runner's threads block SIGCHLD, and then waits forever.
    /// Output goes to a file, not a pipe, since a server started here would hold a pipe open.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
        guard spawned == 0 else { throw TmuxError.spawn(spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    enum TmuxError: Error { case spawn(Int32) }

    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", session]) }

    /// Waits until the screen shows `text`; fails with the screen if it never does.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if last.contains(text) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the screen never showed '\(text)'; it shows:\n\(last)")
        return last
    }

    func keys(_ keys: String...) throws { try tmux(["send-keys", "-t", session] + keys) }

    @Test func aMeetingFindsTheWorstIssueByComplaintsMarksItResolvedAndTheReportShowsIt() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let command = "ERRTRIAGE_STORE='\(store)' USER=tester '\(CLI.binary)' --now \(SampleStore.end)"
        try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command])
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
        try tmux(["new-session", "-d", "-s", session, "-x", "80", "-y", "24", command])
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
        try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command])
        defer { _ = try? tmux(["kill-session", "-t", session]) }

        let first = try waitFor("item 1 of \(count) · Regressed")
        #expect(first.contains("US21-IN330-TA150-TB1-HT500-NE29"))
        try keys("n")
        try waitFor("Note on")
        try keys("-l", "backend fix ships Monday")
        try keys("Enter")
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
        let cli = try CLI()
        let command = "ERRTRIAGE_STORE='\(SampleStore.path)' '\(CLI.binary)' --now \(SampleStore.end)"
        try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        _ = cli
        try waitFor("rank: events")
        try keys("p")
        let pivot = try waitFor("SURFACES AS")
        let firstRow = pivot.split(separator: "\n").first { $0.contains("  1 ") }
        #expect(firstRow?.contains("NE8") == true)
        #expect(firstRow?.contains("NetworkError.timeout") == true)
        try keys("l")
        try waitFor("ROOT CAUSES")
        try keys("l", "Enter")
        let narrowed = try waitFor("only: root cause NE8 timeout")
        #expect(narrowed.contains("US14-LO43-AP7-NE8"))
        #expect(!narrowed.contains("IN500-TA202-TB30-HT400-NE29"))
        try keys("Escape")
        try waitFor("IN500-TA202-TB30-HT400-NE29")
        try keys("q")
    }

    @Test func aTerminalTooSmallSaysSoAndGrowingBackRestoresTheList() throws {
        let cli = try CLI()
        let command = "ERRTRIAGE_STORE='\(SampleStore.path)' '\(CLI.binary)' --now \(SampleStore.end)"
        try tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        _ = cli
        try waitFor("rank: events")
        try tmux(["resize-window", "-t", session, "-x", "30", "-y", "8"])
        try waitFor("need 40")
        try tmux(["resize-window", "-t", session, "-x", "40", "-y", "12"])
        try waitFor("rank: events")
        try keys("q")
    }
}
