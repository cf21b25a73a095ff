import Foundation
import TestSupport
import Testing

/// `releases`, `release` and the adoption file, on the built binary.
@Suite struct ReleaseCLITests {
    /// Two versions over two days; a worse issue in 1.2, and an adoption file for both.
    func prepared() throws -> CLI {
        let cli = try CLI()
        var lines: [String] = []
        for (version, prefix) in [("1.1", "a"), ("1.2", "b")] {
            for u in 0..<100 {
                lines.append(TemporaryStore.event("\(prefix)\(u)", "2026-11-19T10:00:00Z", codes: "US1-NE1", version: version, user: "\(prefix)\(u)"))
            }
        }
        for u in 0..<60 {
            lines.append(TemporaryStore.event("w\(u)", "2026-11-20T10:00:00Z", codes: "US2-NE2", version: "1.2", user: "b\(u)"))
        }
        for u in 0..<10 {
            lines.append(TemporaryStore.event("v\(u)", "2026-11-20T10:00:00Z", codes: "US2-NE2", version: "1.1", user: "a\(u)"))
        }
        for u in 0..<5 {
            lines.append(TemporaryStore.event("n\(u)", "2026-11-20T11:00:00Z", codes: "US5-NE5", version: "1.2", user: "b\(u)"))
        }
        let events = try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")
        #expect(try cli.run(["ingest", events]).status == 0)
        return cli
    }

    @Test func releasesListsEveryVersionWithErrorFreeUsersOnceAdoptionIsIngested() throws {
        let cli = try prepared()
        let before = try cli.run(["release", "list"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("No adoption data"))
        let adoption = try cli.file("adoption.csv", "date,version,users\n2026-11-19,1.1,1000\n2026-11-20,1.1,1000\n2026-11-19,1.2,500\n2026-11-20,1.2,500\n")
        let ingest = try cli.run(["ingest", adoption])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.contains("4 adoption rows"))
        let json = try cli.run(["release", "list", "--format", "json"]).json
        let rows = try #require(json["releases"] as? [[String: Any]])
        #expect(rows.map { $0["version"] as? String } == ["1.1", "1.2"])
        // 1.2: 100 users with an error on the 19th, 60 on the 20th, of 500 active each day.
        #expect(rows[1]["error_free_users_percent"] as? Double == 84.0)
        #expect(rows[1]["new_issues"] as? Int == 1)
        let markdown = try cli.run(["release", "list", "--format", "markdown"]).stdout
        #expect(markdown.contains("| 1.2 | 2026-11-19 | 2026-11-20 | 100 | 165 | 3 | 1 | 0 | 84.0% |"))
        let text = try cli.run(["release", "list"]).stdout
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("1.2 ") && $0.hasSuffix("84.0%") })
    }

    @Test func releaseComparesWithThePreviousVersionAndNamesTheWorseIssue() throws {
        let cli = try prepared()
        let result = try cli.run(["release", "latest", "--now", "2026-11-20T18:00:00Z", "--window", "7d"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("errtriage release 1.2 against 1.1, window 7d\n"))
        #expect(result.stdout.contains("no adoption data"))
        let json = try cli.run(["release", "1.2", "--now", "2026-11-20T18:00:00Z", "--format", "json"]).json
        let worse = try #require(json["worse"] as? [[String: Any]])
        #expect(worse.map { $0["key"] as? String } == ["US2-NE2"])
        #expect(worse.first?["users"] as? Int == 60 && worse.first?["previous_users"] as? Int == 10)
        let markdown = try cli.run(["release", "1.2", "--against", "1.1", "--now", "2026-11-20T18:00:00Z", "--format", "markdown"]).stdout
        #expect(markdown.contains("### Worse than 1.1 (1)"))
    }

    @Test func theReportMarksIssuesNewInTheLatestVersion() throws {
        let cli = try prepared()
        let issues = try #require(try cli.run(["report", "--format", "json", "--window", "all", "--now", "2026-11-20T18:00:00Z"]).json["issues"] as? [[String: Any]])
        #expect(issues.filter { $0["new_in"] != nil }.map { $0["key"] as? String } == ["US5-NE5"])
        #expect(issues.first { $0["key"] as? String == "US5-NE5" }?["new_in"] as? String == "1.2")
    }

    @Test func anUnknownVersionIsAUsageErrorInOneSentence() throws {
        let cli = try prepared()
        let result = try cli.run(["release", "9.9"])
        #expect(result.status == 1)
        #expect(result.stderr == "errtriage: no event names version 9.9; errtriage release list lists the versions\n")
        let against = try cli.run(["release", "1.2", "--against", "0.1"])
        #expect(against.status == 1)
        #expect(against.stderr == "errtriage: no event names version 0.1; errtriage release list lists the versions\n")
    }

    @Test func aBadAdoptionRowIsReportedWithItsFileAndLine() throws {
        let cli = try prepared()
        let adoption = try cli.file("adoption.csv", "date,version,users\n2026-11-19,1.1,lots\n")
        let result = try cli.run(["ingest", adoption])
        #expect(result.stderr.contains("adoption.csv:2: users 'lots' is not a count\n"))
    }
}

/// `merge --suggest` on the built binary and the sample data.
@Suite struct MergeSuggestCLITests {
    @Test func theRefactoredChainOfTheSampleIsTheFirstSuggestion() throws {
        let cli = try CLI()
        let result = try cli.run(["merge", "--suggest", "--store", try SampleStore.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[2].hasPrefix("US9-IN240-TA120-HT429 "))
        #expect(lines[3].hasPrefix("US9-IN240-RE3-TA120-HT429 "))
        #expect(lines[4] == "  why: one layer added: RE3 RepositoryError.reserveFailed")
        let json = try cli.run(["merge", "--suggest", "--format", "json", "--store", try SampleStore.path]).json
        let first = (json["suggestions"] as? [[String: Any]])?.first
        #expect((first?["newer"] as? [String: Any])?["first_version"] as? String == "1.13")
    }

    @Test func mergeWithoutKeysOrSuggestIsAUsageError() throws {
        let cli = try CLI()
        let result = try cli.run(["merge"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("merge takes two keys or more (or one key and --into KEY), or --suggest"))
    }
}
