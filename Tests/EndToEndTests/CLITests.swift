import Foundation
import Testing

/// The CLI contract, through the real binary: commands, outputs, exit codes.
@Suite struct CLITests {
    static let now = "2026-10-06T00:00:00Z"
    static let events = """
        {"event_id":"e1","timestamp":"2026-10-04T22:33:00Z","codes":"US14-LO43-AP7-NE8","chain":"UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout","app":{"version":"1.12","build":"340"},"os":{"name":"iOS","version":"17.4.1"},"device":{"model":"iPhone14,5","orientation":"portrait","app_state":"background","free_ram":99614720,"free_disk":8226663383,"jailbroken":false},"network":"wifi","user_id":"u0727","session_id":"s-19","environment":"production","message":"timed out","keys":{"screen":"map"}}
        {"event_id":"e2","timestamp":"2026-10-05 10:00:00.123456 UTC","codes":"US14-LO43-AP7-NE8","app":{"version":"1.9"},"device":{"model":"iPhone15,2"},"user_id":"u1"}
        {"event_id":"e3","timestamp":1791236000,"codes":"IN500-TA202-TB30-HT400-NE29","chain":"InteractorError.getMapPins-TolokaAPIError.taskSuites-TolokaBackendError.validationFailure(ValidationError.valueOutOfBounds)-HTTPError.no400BadRequest-NetworkError.responseValidationFailed"}
        {"event_id":"e4","timestamp":"2026-10-05T10:00:00+03:00","chain":[{"domain":"NSURLErrorDomain","short":"NS","code":-1009,"name":"notConnectedToInternet"}]}
        {"complaint_id":"c1","timestamp":"2026-10-05T11:00:00Z","channel":"email","text":"App says IN500-TA202-TB30-HT400-NE29","user_id":"u1"}
        {"complaint_id":"c2","timestamp":"2026-10-05T12:00:00Z","channel":"email","text":"Again IN500-TA202-TB30-HT400-NE29 and US14-LO43-AP7-NE8","user_id":"u2"}

        """

    func ingested() throws -> CLI {
        let cli = try CLI()
        let result = try cli.run(["ingest", try cli.file("events.ndjson", CLITests.events)])
        #expect(result.status == 0, "\(result.stderr)")
        return cli
    }

    @Test func ingestPrintsOneSummaryLine() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", try cli.file("events.ndjson", CLITests.events)])
        #expect(result.status == 0)
        #expect(result.stdout == "ingest: 4 events added, 0 duplicates, 2 complaints added, 3 new issues, 0 rejected lines\n")
    }

    @Test func reportJSONRanksByEventsAndByComplaints() throws {
        let cli = try ingested()
        let byEvents = try cli.run(["report", "--now", CLITests.now, "--format", "json"]).json
        let issues = byEvents["issues"] as? [[String: Any]] ?? []
        #expect(issues.first?["key"] as? String == "US14-LO43-AP7-NE8")
        #expect(issues.first?["events"] as? Int == 2)
        #expect(issues.first?["users"] as? Int == 2)
        #expect(issues.first?["chain"] as? String == "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
        #expect(issues.first?["first_version"] as? String == "1.9")
        #expect(issues.first?["last_version"] as? String == "1.12")
        #expect((issues.first?["daily"] as? [Int])?.count == 7)
        let totals = byEvents["totals"] as? [String: Any]
        #expect(totals?["events"] as? Int == 4)
        let byComplaints = try cli.run(["report", "--now", CLITests.now, "--by", "complaints", "--format", "json"]).json
        let top = (byComplaints["issues"] as? [[String: Any]])?.first
        #expect(top?["key"] as? String == "IN500-TA202-TB30-HT400-NE29")
        #expect(top?["complaints"] as? Int == 2)
    }

    @Test func showGivesLinksBreakdownsEventsAndComplaints() throws {
        let cli = try ingested()
        let show = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now, "--format", "json"])
        #expect(show.status == 0)
        let json = show.json
        let links = json["links"] as? [[String: Any]] ?? []
        #expect(links.map { $0["short"] as? String } == ["US", "LO", "AP", "NE"])
        #expect(links.map { $0["code"] as? Int } == [14, 43, 7, 8])
        let devices = (json["breakdowns"] as? [String: Any])?["device"] as? [[String: Any]] ?? []
        #expect(devices.count == 2)
        #expect(devices.first?["percent"] as? Double == 50.0)
        #expect((json["recent_events"] as? [[String: Any]])?.count == 2)
        #expect((json["complaints"] as? [[String: Any]])?.count == 1)
    }

    @Test func breakdownsNameDevicesAsPeopleKnowThem() throws {
        let cli = try ingested()
        let json = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now, "--format", "json"]).json
        let breakdowns = json["breakdowns"] as? [String: [[String: Any]]] ?? [:]
        let devices = breakdowns["device"] ?? []
        #expect(Set(devices.compactMap { $0["value"] as? String }) == ["iPhone14,5", "iPhone15,2"])
        #expect(Set(devices.compactMap { $0["name"] as? String }) == ["iPhone 13", "iPhone 14 Pro"])
        #expect(breakdowns["os"]?.allSatisfy { $0["name"] == nil } == true)
        let text = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now]).stdout
        #expect(text.contains("iPhone 13 (iPhone14,5)"))
        #expect(text.contains("iPhone 14 Pro (iPhone15,2)"))
    }

    /// The environment and level breakdowns (issue 47): a section of `show`, an entry of its
    /// JSON's `breakdowns`, and the `env:` and `level:` terms of `report --query`.
    @Test func showBreaksEventsDownByEnvironmentAndLevelAndTheTermsKeepThem() throws {
        let cli = try CLI()
        let lines = (1...6).map { i in
            let environment = i <= 4 ? ",\"environment\":\"production\"" : i == 5 ? ",\"environment\":\"staging\"" : ""
            let level = i <= 3 ? "error" : "warning"
            return "{\"event_id\":\"l\(i)\",\"timestamp\":\"2026-10-05T0\(i):00:00Z\",\"codes\":\"US14-LO43-AP7-NE8\",\"level\":\"\(level)\"\(environment)}"
        } + ["{\"event_id\":\"o1\",\"timestamp\":\"2026-10-05T09:00:00Z\",\"codes\":\"IN500-TA202-TB30-HT400-NE29\",\"environment\":\"staging\",\"level\":\"fatal\"}"]
        #expect(try cli.run(["ingest", try cli.file("levels.ndjson", lines.joined(separator: "\n") + "\n")]).status == 0)
        let json = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now, "--format", "json"]).json
        let breakdowns = json["breakdowns"] as? [String: [[String: Any]]] ?? [:]
        func counts(_ name: String) -> [String] {
            (breakdowns[name] ?? []).map { "\($0["value"] as? String ?? "?") \($0["count"] as? Int ?? -1)" }
        }
        #expect(counts("environment") == ["production 4", "staging 1", "unknown 1"])
        #expect(counts("level") == ["error 3", "warning 3"])
        let text = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now]).stdout
        #expect(text.contains("\nEnvironment\n") && text.contains("\nLevel\n"), "\(text)")
        func listed(_ query: String) throws -> [String] {
            let report = try cli.run(["report", "--query", query, "--now", CLITests.now, "--format", "json"])
            #expect(report.status == 0, "\(report.stderr)")
            return (report.json["issues"] as? [[String: Any]] ?? []).filter { ($0["events"] as? Int ?? 0) > 0 }
                .map { "\($0["key"] as? String ?? "?") \($0["events"] as? Int ?? -1)" }
        }
        #expect(Set(try listed("env:staging")) == ["US14-LO43-AP7-NE8 1", "IN500-TA202-TB30-HT400-NE29 1"])
        #expect(try listed("level:warning") == ["US14-LO43-AP7-NE8 3"])
        #expect(try listed("level:fatal env:staging") == ["IN500-TA202-TB30-HT400-NE29 1"])
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test func markOfAnUnknownKeyFailsWithExitCode1AndWritesNothing() throws {
        let cli = try ingested()
        for arguments in [["mark", "US1-NE1", "resolved"], ["mark", "US1-NE1", "muted", "--events", "3"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "errtriage: no issue has the key US1-NE1\n")
        }
    }

    @Test func aCommandLineTheParserRefusesExitsWith1() throws {
        let cli = try ingested()
        let result = try cli.run(["report", "--window", "3y"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'3y' is invalid for '--window"))
        #expect(try cli.run(["report", "--help"]).status == 0)
    }

    @Test func backupCopiesTheStoreAndNeverOverwrites() throws {
        let cli = try ingested()
        _ = try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", "1.13", "--note", "retry added"])
        let copy = cli.folder.appendingPathComponent("copy.sqlite").path
        let made = try cli.run(["backup", copy])
        #expect(made.status == 0, "\(made.stderr)")
        let original = try cli.run(["report", "--status", "all", "--window", "all", "--format", "json", "--now", "2026-10-05T00:00:00Z"])
        let fromCopy = try cli.run(["report", "--store", copy, "--status", "all", "--window", "all", "--format", "json", "--now", "2026-10-05T00:00:00Z"])
        #expect(fromCopy.status == 0)
        #expect(fromCopy.stdout == original.stdout.replacingOccurrences(of: cli.store, with: copy))
        let again = try cli.run(["backup", copy])
        #expect(again.status == 1)
        #expect(again.stderr.contains("exists already"))
        let nowhere = try cli.run(["backup", cli.folder.appendingPathComponent("missing/dir/copy.sqlite").path])
        #expect(nowhere.status == 3)
    }

    @Test func aTextThatIsNotAShortKeyIsRefusedByEveryCommandThatTakesOne() throws {
        let cli = try ingested()
        for arguments in [["show", "nonsense"], ["decode", "US-"], ["mark", "1-2", "open"], ["export", "--key", "x y"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("not a short key (e.g. US14-LO43-AP7-NE8)"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func showOfAnUnknownKeyFailsWithExitCode1() throws {
        let cli = try ingested()
        let result = try cli.run(["show", "US1-NE1"])
        #expect(result.status == 1)
        #expect(result.stderr == "errtriage: no issue has the key US1-NE1\n")
    }

    @Test func markResolvedShowsInTheReport() throws {
        let cli = try ingested()
        let mark = try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--in-version", "1.13", "--note", "retry added", "--at", CLITests.now])
        #expect(mark.status == 0, "\(mark.stderr)")
        #expect(mark.stdout == "US14-LO43-AP7-NE8: open → resolved in 1.13\n")
        let report = try cli.run(["report", "--now", CLITests.now, "--status", "all", "--format", "json"]).json
        let issue = (report["issues"] as? [[String: Any]])?.first { $0["key"] as? String == "US14-LO43-AP7-NE8" }
        #expect(issue?["status"] as? String == "resolved")
        let history = try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now, "--format", "json"]).json["history"] as? [[String: Any]]
        #expect(history?.first?["by"] as? String == "tester")
        #expect(history?.first?["version"] as? String == "1.13")
    }

    /// `--at` stamps the change; a time it cannot read is refused, as `key add --at` refuses it, and nothing is marked.
    @Test func markStampsTheChangeAtAndRefusesATimeItCannotRead() throws {
        let cli = try ingested()
        let bad = try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--at", "yesterday"])
        #expect(bad.status == 1)
        #expect(bad.stderr == "errtriage: --at 'yesterday' is not a time (use ISO 8601, e.g. 2026-10-04T22:33:00Z)\n", "\(bad.stderr)")
        let show = { try cli.run(["show", "US14-LO43-AP7-NE8", "--now", CLITests.now, "--format", "json"]).json }
        #expect((try show()["history"] as? [[String: Any]])?.isEmpty == true)
        #expect(try cli.run(["mark", "US14-LO43-AP7-NE8", "muted", "--at", "2026-10-04T21:00:00Z"]).status == 0)
        let history = try show()["history"] as? [[String: Any]]
        #expect(history?.first?["at"] as? String == "2026-10-04T21:00:00Z", "\(String(describing: history))")
    }

    @Test func decodeNamesKnownLinksAndSaysUnknownForOthers() throws {
        let cli = try ingested()
        let result = try cli.run(["decode", "US14-LO43-TA103"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("US14  UserError.connectionIssue"))
        #expect(result.stdout.contains("LO43  LogicError.loginFailed"))
        #expect(result.stdout.contains("TA103  unknown"))
    }

    @Test func badLinesAreRejectedWithFileAndLineAndTheRestIsKept() throws {
        let cli = try CLI()
        let path = try cli.file("mixed.ndjson", """
            {"event_id":"ok1","timestamp":"2026-10-04T22:33:00Z","codes":"US14-LO43-AP7-NE8"}
            {"event_id":"bad1","timestamp":"yesterday","codes":"US14"}
            {"event_id":"trunc
            [1,2]
            {"event_id":"nochain","timestamp":"2026-10-04T22:33:00Z"}
            {"event_id":"ok2","timestamp":"2026-10-04T22:34:00Z","codes":"US14-LO43-AP7-NE8"}
            """)
        let result = try cli.run(["ingest", path])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("ingest: 2 events added"))
        #expect(result.stderr.contains("mixed.ndjson:2: timestamp 'yesterday' is not a time"))
        #expect(result.stderr.contains("mixed.ndjson:3: not valid JSON"))
        #expect(result.stderr.contains("mixed.ndjson:4: expected a JSON object, found an array"))
        #expect(result.stderr.contains("mixed.ndjson:5: missing chain"))
        let rejects = try String(contentsOfFile: cli.rejects, encoding: .utf8)
        #expect(rejects.split(separator: "\n").count == 4)
    }

    @Test func stdinAndGzipAreRead() throws {
        let cli = try CLI()
        let piped = try cli.run(["ingest", "-"], stdin: CLITests.events)
        #expect(piped.stdout.hasPrefix("ingest: 4 events added"))
        let plain = try cli.file("again.ndjson", CLITests.events)
        #expect(try tool("gzip", "-f", plain).status == 0)
        let zipped = try cli.run(["ingest", plain + ".gz"])
        #expect(zipped.stdout.hasPrefix("ingest: 0 events added, 4 duplicates"))
    }

    @Test func aStoreInAMissingFolderFailsWithExitCode3() throws {
        let cli = try CLI()
        let result = try cli.run(["report", "--store", cli.folder.appendingPathComponent("no/such/dir/s.sqlite").path])
        #expect(result.status == 3)
        #expect(result.stderr.hasPrefix("errtriage: "))
    }

    @Test func aMissingInputFileIsAClearError() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", "nope.ndjson"])
        #expect(result.status == 2)
        #expect(result.stderr == "errtriage: nope.ndjson: no such file\n")
    }

    @Test func generateIsDeterministicForASeed() throws {
        let cli = try CLI()
        let a = try cli.run(["generate", "--events", "300", "--issues", "20", "--seed", "5"]).stdout
        let b = try cli.run(["generate", "--events", "300", "--issues", "20", "--seed", "5"]).stdout
        #expect(a == b)
        #expect(a.split(separator: "\n").count == 300 + 7)
        let ingest = try cli.run(["ingest", "-"], stdin: a)
        #expect(ingest.status == 0)
        #expect(ingest.stdout.hasPrefix("ingest: 300 events added"))
    }
}

@Suite struct PivotCLITests {
    @Test func reportByLayerGroupsIssuesByTheirRootCause() throws {
        let cli = try CLI()
        try cli.run(["ingest", try cli.file("e.ndjson", CLITests.events)])
        let json = try cli.run(["report", "--now", CLITests.now, "--by-layer", "root", "--format", "json"]).json
        let groups = json["groups"] as? [[String: Any]] ?? []
        #expect(groups.compactMap { ($0["link"] as? [String: Any])?["code"] as? String } == ["NE8", "NE29", "NSn1009"])
        let bad = try cli.run(["report", "--by-layer", "sideways"])
        #expect(bad.status == 1)
    }
}

@Suite struct ExportTests {
    func summary(_ cli: CLI) throws -> [String] {
        let json = try cli.run(["report", "--now", "2026-11-21T00:00:00Z", "--window", "all", "--top", "1000", "--format", "json"]).json
        return (json["issues"] as? [[String: Any]] ?? []).map { "\($0["key"]!) \($0["events"]!) \($0["users"]!) \($0["chain"]!)" }.sorted()
    }

    @Test func exportedNDJSONIngestsIntoTheSameIssues() throws {
        let source = try CLI()
        try source.run(["ingest", "-"], stdin: try source.run(["generate", "--events", "500", "--issues", "15", "--seed", "9"]).stdout)
        let exported = try source.run(["export", "--window", "all", "--now", "2026-11-21T00:00:00Z"])
        #expect(exported.status == 0)
        #expect(exported.stdout.split(separator: "\n").count == 500)
        let copy = try CLI()
        let ingest = try copy.run(["ingest", "-"], stdin: exported.stdout)
        #expect(ingest.stdout.hasPrefix("ingest: 500 events added"))
        #expect(try summary(copy) == summary(source))
    }

    @Test func exportedCSVHasAHeaderAndOneRowPerEventOfTheKey() throws {
        let cli = try CLI()
        try cli.run(["ingest", try cli.file("e.ndjson", CLITests.events)])
        let csv = try cli.run(["export", "--window", "7d", "--now", CLITests.now, "--format", "csv", "--key", "US14-LO43-AP7-NE8"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("event_id,timestamp,key,chain,") == true)
        #expect(lines.count == 3)
        #expect(lines.dropFirst().allSatisfy { $0.contains(",US14-LO43-AP7-NE8,") })
    }
}
