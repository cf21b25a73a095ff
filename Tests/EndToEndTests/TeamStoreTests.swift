import ChildProcess
import Foundation
import TestSupport
import Testing
import ThrowawayPostgres
import TriageStore

/// The team store as a team uses it, always on the run's PostgreSQL cluster (whatever the pass):
/// two dashboards on one store, the same answers as SQLite byte for byte, copies both ways, a
/// read-only role, and a server that is not there.
@Suite(.serialized) struct TeamStoreTests {
    static let now = "2026-10-05T00:00:00Z"

    /// A CLI on a new PostgreSQL database, with the end-to-end events ingested.
    func teamStore() throws -> CLI {
        let cli = try CLI(postgres: ())
        let result = try cli.run(["ingest", try cli.file("events.ndjson", CLITests.events)])
        #expect(result.status == 0, "\(result.stderr)")
        return cli
    }

    /// One tmux session (and server) per dashboard.
    struct Terminal: TmuxDriving { let session: String }

    @Test func aMarkInOneDashboardShowsInAnotherAndAReadOnlyRoleGetsReadOnly() throws {
        let cli = try teamStore()
        let reader = try Self.readOnlyRole(on: cli.store)
        let key = "US14-LO43-AP7-NE8"
        let a = Terminal(session: "errtriage-team-a-\(getpid())"), b = Terminal(session: "errtriage-team-b-\(getpid())")
        let c = Terminal(session: "errtriage-team-c-\(getpid())")
        defer { a.stop(); b.stop(); c.stop() }
        for (terminal, user, store) in [(a, "ana", cli.store), (b, "ben", cli.store), (c, "cy", reader)] {
            try terminal.start("ERRTRIAGE_STORE='\(store)' USER=\(user) '\(CLI.binary)' --now \(Self.now)", cols: 120, rows: 40)
            try terminal.waitForLoaded(key)
        }
        // Both open the same issue; Ben's shows it open.
        for terminal in [a, b] {
            try terminal.keys("/")
            try terminal.enter("key:\(key)")
            try terminal.waitForLoaded("1 issues")
            try terminal.keys("Enter")
            try terminal.waitFor("\(key) · Chain")
        }
        try b.waitFor("· open")
        // Ana resolves it; Ben's screen follows within a second or so (LISTEN/NOTIFY), no key pressed.
        try a.keys("r")
        try a.waitFor("in version:")
        try a.keys("Enter")
        try a.waitFor("resolved")
        let seen = try b.waitFor("· resolved", seconds: 5)
        #expect(seen.contains(key))
        // The read-only role sees the store, marked read-only, and its marks are refused.
        try c.waitFor("[read-only]")
        try c.keys("r")
        try c.waitFor("Read-only store")
        // The mark is Ana's, one transaction with its history row.
        let show = try cli.run(["show", key, "--now", Self.now, "--format", "json"]).json
        #expect(show["status"] as? String == "resolved")
        #expect((show["history"] as? [[String: Any]])?.first?["by"] as? String == "ana")
    }

    @Test func theSameInputAndMarksGiveByteIdenticalJSONOnBothEngines() throws {
        let team = try teamStore()
        let file = try CLI(sqlite: ())
        #expect(try file.run(["ingest", try file.file("events.ndjson", CLITests.events)]).status == 0)
        for cli in [team, file] {
            #expect(try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", "1.13", "--note", "retry added",
                                 "--now", Self.now]).status == 0)
            #expect(try cli.run(["assign", "US14-LO43-AP7-NE8", "ana", "--now", Self.now]).status == 0)
            #expect(try cli.run(["mark", "IN500-TA202-TB30-HT400-NE29", "muted", "--now", Self.now]).status == 0)
        }
        var commands: [[String]] = []
        for window in ["24h", "7d", "all"] {
            for rank in ["events", "users", "complaints"] {
                commands.append(["report", "--window", window, "--by", rank, "--status", "all", "--format", "json"])
            }
        }
        commands += [["show", "US14-LO43-AP7-NE8", "--format", "json"], ["show", "IN500-TA202-TB30-HT400-NE29", "--format", "json"],
                     ["export", "--key", "US14-LO43-AP7-NE8"], ["release", "list", "--format", "json"], ["meeting", "--print"]]
        for command in commands {
            let x = try team.run(command + ["--now", Self.now]), y = try file.run(command + ["--now", Self.now])
            #expect(x.status == 0 && y.status == 0, "\(command): \(x.stderr)\(y.stderr)")
            #expect(x.stdout == y.stdout, "\(command) differs between PostgreSQL and SQLite")
            #expect(!x.stdout.isEmpty)
        }
    }

    @Test func copyMovesEverythingToPostgreSQLAndBackAndRefusesAFullTarget() throws {
        let file = try CLI(sqlite: ())
        #expect(try file.run(["ingest", try file.file("events.ndjson", CLITests.events)]).status == 0)
        #expect(try file.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", "1.13", "--now", Self.now]).status == 0)
        #expect(try file.run(["view", "save", "net", "--query", "key:US14-*"]).status == 0)
        let team = try PostgresCluster.database()
        let there = try file.run(["copy", "--from", file.store, "--to", team])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.contains("check: sound on both"))
        let back = file.temporary.path("back.sqlite")
        let again = try file.run(["copy", "--from", team, "--to", back])
        #expect(again.status == 0, "\(again.stderr)")
        for command in [["report", "--window", "all", "--status", "all", "--format", "json"], ["show", "US14-LO43-AP7-NE8", "--format", "json"],
                        ["view", "list"], ["export", "--key", "US14-LO43-AP7-NE8"]] {
            let original = try file.run(command + ["--now", Self.now]).stdout
            #expect(try file.run(command + ["--now", Self.now, "--store", team]).stdout == original, "\(command)")
            #expect(try file.run(command + ["--now", Self.now, "--store", back]).stdout == original, "\(command)")
        }
        // Ids go on after the copied ones: a new mark on the team store lands.
        #expect(try file.run(["mark", "US14-LO43-AP7-NE8", "open", "--store", team, "--now", Self.now]).status == 0)
        let full = try file.run(["copy", "--from", file.store, "--to", team])
        #expect(full.status == 1)
        #expect(full.stderr.contains("holds data already"))
    }

    @Test func aServerThatIsNotThereOrAnUnknownDatabaseIsOneSentenceAndExitThree() throws {
        let cli = try CLI(sqlite: ())
        let down = try cli.run(["report", "--store", "postgresql://someone:s3cret@/db?host=/nonexistent-errtriage&port=1&connect_timeout=2"])
        #expect(down.status == 3)
        #expect(down.stderr.hasPrefix("errtriage: cannot connect to [local]:1/db: "))
        #expect(!down.stderr.contains("s3cret"))
        #expect(down.stderr.split(separator: "\n").count == 1)
        let cluster = try PostgresCluster.shared.get()
        let unknown = try cli.run(["ingest", "--store", cluster.uri("no_such_database"), try cli.file("e.ndjson", CLITests.events)])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("no_such_database"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let empty = try cli.run(["report", "--store", try PostgresCluster.database()])
        #expect(empty.status == 3)
        #expect(empty.stderr.contains("no store at"))
    }

    /// The server goes away under an open dashboard: its last screen stays, marked offline; when
    /// the server is back the dashboard reconnects and reloads by itself. (A cluster of its own.)
    @Test func aDashboardWhoseServerGoesAwayStaysOfflineAndComesBackByItself() throws {
        let cluster = try ThrowawayPostgres(port: 54332)
        let cli = try CLI(sqlite: ())
        let store = try cluster.createDatabase()
        #expect(try cli.run(["ingest", "--store", store, try cli.file("events.ndjson", CLITests.events)]).status == 0)
        let terminal = Terminal(session: "errtriage-team-offline-\(getpid())")
        defer { terminal.stop() }
        try terminal.start("ERRTRIAGE_STORE='\(store)' USER=ana '\(CLI.binary)' --now \(Self.now)", cols: 100, rows: 30)
        try terminal.waitForLoaded("US14-LO43-AP7-NE8")
        try cluster.stop()
        let offline = try terminal.waitFor("[offline]", seconds: 5)
        #expect(offline.contains("US14-LO43-AP7-NE8"), "the last screen stays")
        try cluster.start()
        try terminal.waitUntil("back online", seconds: 10) { !$0.contains("[offline]") && $0.contains("US14-LO43-AP7-NE8") }
        // A mark works again on the new connection.
        try terminal.keys("m")
        try terminal.waitFor("Marked US14-LO43-AP7-NE8 muted")
    }

    /// The server drops an ingest's connection in mid-batch: one sentence naming the store, exit 3,
    /// no part of the batch kept; running the ingest again completes it.
    @Test func anIngestWhoseConnectionIsDroppedStopsWithOneSentenceAndARerunCompletesIt() throws {
        let cli = try CLI(postgres: ())
        let file = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "30000", "--issues", "40", "--seed", "9", "--out", file])
        let ingest = try cli.start(["ingest", "--store", cli.store, file], output: .capture)
        Thread.sleep(forTimeInterval: 1.0)
        let name = PostgresCluster.databaseName(cli.store)
        let admin = try PGConnection(try PostgresCluster.shared.get().uri("postgres"))
        try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name])
        let ended = ingest.wait()
        #expect(ended.status == 3, "\(ended.stdout)\(ended.stderr)")
        #expect(ended.stderr.contains("[local]:54329/\(name)"), "\(ended.stderr)")
        #expect(ended.stderr.split(separator: "\n").count == 1, "\(ended.stderr)")
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try cli.run(["ingest", file]).status == 0)
        #expect(try cli.run(["check"]).stdout.contains("30000 events"))
    }

    /// A role that may only read the store at `uri` (README's SQL), and its URI.
    static func readOnlyRole(on uri: String) throws -> String {
        let cluster = try PostgresCluster.shared.get()
        let name = PostgresCluster.databaseName(uri)
        let role = "reader_\(getpid())_\(name.split(separator: "_").last ?? "")"
        let admin = try PGConnection(uri)
        try admin.executeScript("""
            CREATE ROLE \(role) LOGIN;
            GRANT CONNECT ON DATABASE \(name) TO \(role);
            GRANT USAGE ON SCHEMA public TO \(role);
            GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role);
            """)
        return cluster.uri(name, user: role)
    }
}
