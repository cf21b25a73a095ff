import Foundation
import Testing

/// `merge KEY KEY…` and `unmerge KEY` on the built binary and a copy of the sample data.
@Suite struct MergeCLITests {
    static let older = "US9-IN240-TA120-HT429"
    static let newer = "US9-IN240-RE3-TA120-HT429"

    /// Every report and detail a user reads about the store, as text and JSON.
    static func reports(_ cli: CLI, _ store: String) throws -> [String] {
        var out: [String] = []
        for window in ["24h", "7d", "all"] {
            for format in ["text", "json", "markdown"] {
                out.append(try cli.run(["report", "--store", store, "--now", SampleStore.end, "--window", window,
                                        "--status", "all", "--top", "500", "--format", format]).stdout)
            }
            for key in [older, newer] {
                for format in ["text", "json"] {
                    out.append(try cli.run(["show", key, "--store", store, "--now", SampleStore.end, "--window", window,
                                            "--format", format]).stdout)
                }
            }
        }
        return out
    }

    @Test func mergingTheRefactoredPairShowsOneRowAndUnmergingRestoresEveryReportByteForByte() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let before = try Self.reports(cli, store)
        let merged = try cli.run(["merge", Self.older, Self.newer, "--store", store, "--now", SampleStore.end])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == "\(Self.older): merged \(Self.newer) into this group\n")
        let list = try cli.run(["report", "--store", store, "--now", SampleStore.end, "--window", "all", "--top", "500"]).stdout
        let rows = list.split(separator: "\n").filter { $0.contains(Self.older) || $0.contains(Self.newer) }
        #expect(rows.count == 1)
        #expect(rows.first?.contains("open +1") == true)
        let json = try cli.run(["show", Self.newer, "--store", store, "--now", SampleStore.end, "--window", "all", "--format", "json"]).json
        let members = json["members"] as? [[String: Any]] ?? []
        #expect(members.compactMap { $0["key"] as? String } == [Self.older, Self.newer])
        #expect(json["events"] as? Int == members.compactMap { $0["events"] as? Int }.reduce(0, +))
        #expect(try cli.run(["check", "--store", store]).status == 0)
        #expect(try cli.run(["merge", "--suggest", "--store", store]).stdout.contains(Self.newer) == false)
        let unmerged = try cli.run(["unmerge", Self.newer, "--store", store])
        #expect(unmerged.status == 0, "\(unmerged.stderr)")
        #expect(try Self.reports(cli, store) == before)
    }

    @Test func badKeysAreOneSentenceAndExitOne() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        let cases: [([String], String)] = [
            (["merge", Self.older, "US1-XX1"], "errtriage: no issue has the key US1-XX1\n"),
            (["merge", Self.older, Self.older], "errtriage: \(Self.older) cannot be merged into itself; name another key\n"),
            (["merge", Self.older, "--into", Self.older], "errtriage: \(Self.older) cannot be merged into itself; name another key\n"),
            (["unmerge", Self.newer], "errtriage: \(Self.newer) is not a member of a merged group; unmerge takes a member's key, not a head's\n"),
            (["unmerge", "US1-XX1"], "errtriage: no issue has the key US1-XX1\n"),
        ]
        for (arguments, sentence) in cases {
            let result = try cli.run(arguments + ["--store", store])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == sentence, "\(arguments)")
        }
    }

    @Test func intoNamesTheHeadAndAMarkOnAMemberMarksTheGroup() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        #expect(try cli.run(["merge", Self.older, "--into", Self.newer, "--store", store]).status == 0)
        #expect(try cli.run(["mark", Self.older, "muted", "--store", store]).status == 0)
        let muted = try cli.run(["report", "--store", store, "--now", SampleStore.end, "--window", "all", "--status", "muted",
                                 "--format", "json"]).json
        let keys = (muted["issues"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        #expect(keys.contains(Self.newer))
        #expect(!keys.contains(Self.older))
    }
}
