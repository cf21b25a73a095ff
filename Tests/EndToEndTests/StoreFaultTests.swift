import Foundation
import Testing

/// A store that is damaged, not a store, read-only, missing, newer, or on a full disk: every
/// command says so in one sentence and exits 3, and the file is left exactly as it was.
@Suite struct StoreFaultTests {
    static let now = "2026-11-21T00:00:00Z"

    /// A small store of generated events; returns the CLI and the events file.
    func filled() throws -> (CLI, String) {
        let cli = try CLI(sqlite: ())
        let events = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "1500", "--issues", "15", "--seed", "4", "--end", "2026-11-20T18:00:00Z", "--out", events])
        #expect(try cli.run(["ingest", events]).status == 0)
        return (cli, events)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func overwrite(_ path: String, at offset: Int, count: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(offset))
        handle.write(Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }))
        try handle.close()
    }

    /// Each command fails with exit code 3 and one sentence naming the store, and leaves it as it was.
    func expectRefused(_ cli: CLI, _ commands: [[String]], saying words: String, events: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try bytes(cli.store)
        for command in commands {
            let arguments = command.map { $0 == "EVENTS" ? events : $0 }
            let result = try cli.run(arguments)
            #expect(result.status == 3, "\(command): \(result.stderr)", sourceLocation: sourceLocation)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("errtriage: ") && lines[0].contains(cli.store) && lines[0].contains(words),
                    "\(command): \(result.stderr)", sourceLocation: sourceLocation)
        }
        #expect(try bytes(cli.store) == before, "the file changed", sourceLocation: sourceLocation)
    }

    static let everyCommand = [["report"], ["show", "US14-LO43-AP7-NE8"], ["ingest", "EVENTS"], ["mark", "US14-LO43-AP7-NE8", "open"],
                               ["check"], ["meeting", "--print"], ["export", "--key", "US14-LO43-AP7-NE8"], ["backup", "copy.sqlite"]]

    @Test func aFileThatIsNotSQLite() throws {
        let (cli, events) = try filled()
        try Data(String(repeating: "hello, this is not a database\n", count: 400).utf8).write(to: URL(fileURLWithPath: cli.store))
        try expectRefused(cli, Self.everyCommand, saying: "not an errtriage store", events: events)
    }

    @Test func aStoreWhoseFirstPageIsDamaged() throws {
        let (cli, events) = try filled()
        try overwrite(cli.store, at: 100, count: 3000)
        try expectRefused(cli, Self.everyCommand, saying: "damaged", events: events)
    }

    @Test func aStoreDamagedInTheMiddleFailsItsCheckAndNoCommandCrashesOrWritesIt() throws {
        let (cli, _) = try filled()
        let size = try bytes(cli.store).count
        try overwrite(cli.store, at: size / 2, count: 12_000)
        let before = try bytes(cli.store)
        let check = try cli.run(["check"])
        #expect(check.status == 3)
        #expect(check.stdout.contains("problem: "))
        for command in [["report", "--window", "all", "--now", Self.now], ["report", "--format", "json"], ["show", "US14-LO43-AP7-NE8"]] {
            let result = try cli.run(command)
            #expect(result.status == 0 || (result.status == 3 && result.stderr.contains("damaged")), "\(command): \(result.status) \(result.stderr)")
        }
        #expect(try bytes(cli.store) == before)
    }

    @Test func aStoreFromANewerErrtriage() throws {
        let (cli, events) = try filled()
        #expect(try tool("sqlite3", cli.store, "PRAGMA user_version = 99;").status == 0)
        try expectRefused(cli, Self.everyCommand, saying: "newer errtriage (schema 99", events: events)
    }

    @Test func aReadOnlyStoreIsReadAndRefusesWrites() throws {
        let (cli, events) = try filled()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: cli.store)
        let before = try bytes(cli.store)
        #expect(try cli.run(["report", "--now", Self.now]).status == 0)
        #expect(try cli.run(["check"]).status == 0)
        try expectRefused(cli, [["mark", "US14-LO43-AP7-NE8", "resolved"], ["ingest", "EVENTS"]], saying: "read-only", events: events)
        #expect(try bytes(cli.store) == before)
    }

    @Test func aStoreInAMissingFolder() throws {
        let (cli, events) = try filled()
        let missing = cli.folder.appendingPathComponent("no/such/folder/store.sqlite").path
        for command in [["report"], ["ingest", events], ["mark", "US14-LO43-AP7-NE8", "open"], ["check"]] {
            let result = try cli.run(command + ["--store", missing])
            #expect(result.status == 3, "\(command)")
            #expect(result.stderr.hasPrefix("errtriage: ") && result.stderr.contains(missing), "\(command): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func aFullDiskStopsTheIngestKeepsWhatWasCommittedAndARerunCompletesIt() throws {
        let cli = try CLI(sqlite: ())
        let events = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "12000", "--issues", "30", "--seed", "9", "--out", events])
        let full = try cli.run(["ingest", events], environment: ["ERRTRIAGE_MAX_PAGES": "700"])
        #expect(full.status == 3)
        #expect(full.stderr.contains("is full"), "\(full.stderr)")
        #expect(full.stderr.contains("committed before it are kept"))
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)")
        let kept = Int(check.stdout.split(separator: ";").last?.split(separator: " ").first ?? "") ?? -1
        #expect(kept > 0 && kept < 12_000, "\(check.stdout)")

        let rerun = try cli.run(["ingest", events])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("\(12_000 - kept) events added, \(kept) duplicates"), "\(rerun.stdout)")
        #expect(try cli.run(["check"]).stdout.contains("12000 events"))
    }
}
