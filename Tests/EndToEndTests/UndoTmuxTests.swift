import Foundation
import TestSupport
import TriageModel
import Testing

/// Undo in the real dashboard, at 80×24, with the store read after every key: each `u` takes back
/// exactly the newest change of this user's that still stands (both engines).
@Suite(.serialized) struct UndoTmuxTests: TmuxDriving {
    let session = "errtriage-undo-\(getpid())"
    static let now = "2026-11-20T18:00:00Z"
    static let key = "US14-LO43-AP7-NE8"

    /// A store with two issues, the dashboard on it as `tester`.
    func open() throws -> CLI {
        let cli = try CLI()
        let lines = (0..<6).map { TemporaryStore.event("a\($0)", "2026-11-20T1\($0):00:00Z", user: "u\($0)") }
            + [TemporaryStore.event("b1", "2026-11-20T12:00:00Z", codes: "IN500-TA202-TB30-HT400-NE29", user: "u9")]
        let ingest = try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        try start("ERRTRIAGE_STORE='\(cli.store)' USER=tester '\(CLI.binary)' --now \(Self.now)", cols: 80, rows: 24)
        try waitForLoaded(Self.key)
        return cli
    }

    /// The issue as `show --format json` reads it from the store now.
    func stored(_ cli: CLI) throws -> [String: Any] {
        try cli.run(["show", Self.key, "--now", Self.now, "--format", "json"]).json
    }

    func expectStored(_ cli: CLI, _ field: String, _ value: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let deadline = Date().addingTimeInterval(5)
        var seen: Any?
        repeat {
            seen = try stored(cli)[field]
            if (seen as? String) == value { return }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        Issue.record("\(field) is \(String(describing: seen)), not \(value ?? "null")", sourceLocation: sourceLocation)
    }

    @Test func capitalRMUUInTheDetailUndoesTheMuteThenTheRegression() throws {
        let cli = try open()
        defer { stop() }
        try keys("Enter")
        try waitFor("\(Self.key) · Chain")
        try keys("R")
        try waitFor("Marked \(Self.key) regressed")
        try expectStored(cli, "status", "regressed")
        try keys("m")
        try waitFor("Marked \(Self.key) muted")
        try expectStored(cli, "status", "muted")
        try keys("u")
        try waitFor("muted, back to regressed")
        try expectStored(cli, "status", "regressed")
        try keys("u")
        try waitFor("regressed, back to open")
        try expectStored(cli, "status", "open")
        try keys("u")
        try waitFor("Nothing to undo.")
        try expectStored(cli, "status", "open")
    }

    @Test func aThenUUndoesTheAssignment() throws {
        let cli = try open()
        defer { stop() }
        try keys("a")
        try waitFor("Assign \(Self.key) to")
        try enter("ana")
        try waitFor("Assigned \(Self.key) to ana")
        try expectStored(cli, "assignee", "ana")
        try keys("u")
        try waitFor("assigned to ana, unassigned again")
        try expectStored(cli, "assignee", nil)
    }

    @Test func tAUUUndoesTheAssignmentThenTheTrackerLink() throws {
        let cli = try open()
        defer { stop() }
        try keys("t")
        try waitFor("Tracker link for")
        try enter("https://tracker.example.com/MOB-1")
        try waitFor("Linked \(Self.key)")
        try expectStored(cli, "tracker", "https://tracker.example.com/MOB-1")
        try keys("a")
        try enter("bob")
        try waitFor("Assigned \(Self.key) to bob")
        try expectStored(cli, "assignee", "bob")
        try keys("u")
        try waitFor("unassigned again")
        try expectStored(cli, "assignee", nil)
        try expectStored(cli, "tracker", "https://tracker.example.com/MOB-1")
        try keys("u")
        try waitFor("Undid: \(Self.key) with tracker https://tracker.example.com/MOB-1,")
        try expectStored(cli, "tracker", nil)
    }

    @Test func aMarkSomeoneElseOverwroteIsSkippedWithASentenceNotReverted() throws {
        let cli = try open()
        defer { stop() }
        try keys("R")
        try waitFor("Marked \(Self.key) regressed")
        try keys("m")
        try waitFor("Marked \(Self.key) muted")
        let ben = try cli.run(["mark", Self.key, "open", "--by", "ben"])
        #expect(ben.status == 0, "\(ben.stderr)")
        try keys("u")
        let screen = try waitFor("ben marked it open since")
        #expect(screen.contains("Skipped"))
        try expectStored(cli, "status", "open")
        #expect((try stored(cli)["history"] as? [[String: Any]])?.first?["by"] as? String == "ben", "ben's mark stays the latest")
    }
}

/// A store whose data ended days before the clock: the header says so, `N` and `--now data` end
/// the windows at the newest event (both engines).
@Suite(.serialized) struct StaleStoreTmuxTests: TmuxDriving {
    let session = "errtriage-stale-\(getpid())"

    /// A store whose newest event is three and a half days old by the clock, at any time of day
    /// (events at the early hours of the day three days back were under three days old when the
    /// tests ran before 03:00 UTC).
    func staleStore() throws -> CLI {
        let cli = try CLI()
        let newest = Int64(Date().timeIntervalSince1970 * 1000) - 84 * 3_600_000
        let lines = (0..<4).map {
            TemporaryStore.event("s\($0)", Timestamp(millis: newest - Int64(3 - $0) * 3_600_000).iso8601, user: "u\($0)")
        }
        let ingest = try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return cli
    }

    @Test func theHeaderSaysTheDataEndedAndNEndsTheWindowsThere() throws {
        let cli = try staleStore()
        try start("ERRTRIAGE_STORE='\(cli.store)' '\(CLI.binary)'", cols: 80, rows: 24)
        defer { stop() }
        let stale = try waitForLoaded("rank: events")
        #expect(stale.contains("last event 3d ago (N)"), "\(stale)")
        try keys("w", "w", "w", "w")  // 7d → 30d → 90d → all → 24h: nothing in the clock's last day
        let empty = try waitForLoaded("24h to")
        #expect(empty.contains("No issues match"))
        try keys("N")
        // The header says "(last event)" at once; the list follows when its reload lands (later on a busy machine).
        let anchored = try waitUntil("the list anchored at the last event") {
            $0.contains("(last event)") && $0.contains("US14-LO43-AP7-NE8") && !$0.contains("loading")
        }
        #expect(anchored.contains("US14-LO43-AP7-NE8"), "the 24 hours before the last event hold it: \(anchored)")
        #expect(!anchored.contains("ago (N)"))
    }

    @Test func nowDataStartsAnchoredAndReportSaysTheSame() throws {
        let cli = try staleStore()
        try start("ERRTRIAGE_STORE='\(cli.store)' '\(CLI.binary)' --now data", cols: 80, rows: 24)
        defer { stop() }
        let screen = try waitForLoaded("(last event)")
        #expect(screen.contains("US14-LO43-AP7-NE8"))
        let report = try cli.run(["report"])
        #expect(report.stdout.contains("Note: last event 3d ago"), "\(report.stdout)")
        let anchored = try cli.run(["report", "--now", "data"])
        #expect(anchored.status == 0, "\(anchored.stderr)")
        #expect(!anchored.stdout.contains("Note:"))
        #expect(anchored.stdout.contains("US14-LO43-AP7-NE8"))
    }
}
