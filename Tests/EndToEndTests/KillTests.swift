import Foundation
import Testing

/// Ingest is atomic per batch: killed at any moment, the store stays consistent and a re-run
/// gives exactly the counts of one clean run.
@Suite struct KillTests {
    @Test func anIngestKilledMidwayAndRerunMatchesACleanRun() throws {
        let cli = try CLI()
        let events = cli.folder.appendingPathComponent("events.ndjson").path
        try cli.run(["generate", "--events", "8000", "--issues", "40", "--seed", "11", "--out", events])
        let clean = try CLI()
        try clean.run(["ingest", events])
        let expected = try clean.run(["report", "--window", "all", "--status", "all", "--top", "1000", "--now", "2026-11-21T00:00:00Z", "--format", "json"]).stdout

        for delay in [0.05, 0.4, 1.0] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["ingest", "--store", cli.store, events]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let integrity = Process()
            integrity.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let pipe = Pipe()
            integrity.arguments = ["sqlite3", cli.store, "PRAGMA integrity_check;"]
            integrity.standardOutput = pipe
            try integrity.run()
            integrity.waitUntilExit()
            let answer = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(answer == "ok\n", "after a kill at \(delay)s")
        }
        try cli.run(["ingest", events])
        let rerun = try cli.run(["report", "--window", "all", "--status", "all", "--top", "1000", "--now", "2026-11-21T00:00:00Z", "--format", "json"]).stdout
        #expect(rerun == expected)
    }
}
