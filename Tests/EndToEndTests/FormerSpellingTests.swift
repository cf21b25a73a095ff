import Foundation
import Testing

/// The commands grouped this release (`release list`, `retention prune`, `alert run`) still answer
/// to their former spellings for a release: the same output, a line on stderr naming the new
/// spelling, and none of them in the help.
@Suite struct FormerSpellingTests {
    static let now = "2026-11-20T18:00:00Z"

    @Test(arguments: [
        (["releases", "--format", "json"], ["release", "list", "--format", "json"], "release list"),
        (["alerts", "--dry-run", "--now", now], ["alert", "run", "--dry-run", "--now", now], "alert run"),
        (["prune", "--keep", "1y", "--now", now], ["retention", "prune", "--keep", "1y", "--now", now], "retention prune"),
    ])
    func aFormerSpellingRunsItsCommandAndSaysTheNewOne(former: [String], current: [String], name: String) throws {
        let cli = try CLI()
        let events = [
            #"{"event_id":"a","timestamp":"2026-11-19T10:00:00Z","codes":"US14-LO43","app":{"version":"1.0"}}"#,
            #"{"event_id":"b","timestamp":"2026-11-20T10:00:00Z","codes":"US3-AP7","app":{"version":"1.1"}}"#,
        ]
        #expect(try cli.run(["ingest", try cli.file("e.ndjson", events.joined(separator: "\n") + "\n")]).status == 0)
        let new = try cli.run(current)
        #expect(new.status == 0 && new.stderr.isEmpty, "\(new.stderr)")
        let old = try cli.run(former)
        #expect(old.status == 0)
        // A prune says the store's size, which its own bookkeeping may change between two runs.
        let cut = { (text: String) in text.components(separatedBy: "; store ").first ?? text }
        #expect(cut(old.stdout) == cut(new.stdout))
        #expect(old.stderr == "errtriage: '\(former[0])' is now 'errtriage \(name)'; the old spelling goes in a later release\n")
        let help = try cli.run(["--help"]).stdout
        #expect(!help.contains("  \(former[0]) "), "\(help)")
    }

    @Test func releaseWithAVersionIsReleaseShow() throws {
        let cli = try CLI()
        let line = #"{"event_id":"a","timestamp":"2026-11-19T10:00:00Z","codes":"US14-LO43","app":{"version":"1.0"}}"#
        #expect(try cli.run(["ingest", try cli.file("e.ndjson", line + "\n")]).status == 0)
        let short = try cli.run(["release", "latest", "--now", Self.now, "--format", "json"])
        let long = try cli.run(["release", "show", "latest", "--now", Self.now, "--format", "json"])
        #expect(short.status == 0 && short.stdout == long.stdout, "\(short.stderr)")
    }
}
