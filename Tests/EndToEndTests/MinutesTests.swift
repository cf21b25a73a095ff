import Foundation
import TestSupport
import Testing

/// The minutes of the sample data's last week, against a golden file (re-record with SNAPSHOT_RECORD=1).
@Suite struct MinutesTests {
    static let golden = CLI.packageRoot.appendingPathComponent("Tests/EndToEndTests/Golden/minutes-7d.md")

    @Test func theSampleWeeksMinutesMatchTheGoldenFile() throws {
        let cli = try CLI()
        let result = try cli.run(["report", "--store", try SampleStore.path, "--now", SampleStore.end, "--window", "7d", "--format", "markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        Snapshot.expect(result.stdout, matches: MinutesTests.golden)
    }

    @Test func theAgendaPutsTheRegressedIssueFirstAndNotTheStragglersFix() throws {
        let cli = try CLI()
        let agenda = try cli.run(["meeting", "--print", "--store", try SampleStore.path, "--now", SampleStore.end])
        let lines = agenda.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("Regressed"))
        let firstItem = lines.first { $0.hasPrefix("   1  ") }
        #expect(firstItem?.contains("US21-IN330-TA150-TB1-HT500-NE29") == true)
        // Resolved in 1.13 three days before the end, with only older versions reporting since: still resolved.
        let show = try cli.run(["show", "IN240-CA7-CD133", "--store", try SampleStore.path, "--now", SampleStore.end, "--format", "json"]).json
        #expect(show["status"] as? String == "resolved")
    }
}
