import Foundation
import Testing
import TestSupport

/// `mark resolved --in-version` takes what the dashboard's prompt takes: a version as releases are
/// written, or one the store has seen; free text is refused with exit 1 and nothing marked.
@Suite struct FixVersionCommandTests {
    @Test func freeTextIsRefusedAndASeenVersionTaken() throws {
        let cli = try CLI()
        let lines = [TemporaryStore.event("v1", "2026-11-20T10:00:00Z", version: "2024.11 hotfix")]
        try cli.run(["ingest", try cli.file("e.ndjson", lines.joined(separator: "\n") + "\n")])
        for text in ["soon", "2.3.2 maybe", "2.3.2next week"] {
            let refused = try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", text])
            #expect(refused.status == 1, "\(text): \(refused.stdout)")
            #expect(refused.stderr.contains("is not a version like 1.14"), "\(refused.stderr)")
        }
        #expect(try cli.run(["show", "US14-LO43-AP7-NE8", "--format", "json"]).json["status"] as? String == "open")
        for text in ["2.3.2-beta.1", "2024.11 hotfix"] {
            let taken = try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", text])
            #expect(taken.status == 0, "\(text): \(taken.stderr)")
        }
    }
}
