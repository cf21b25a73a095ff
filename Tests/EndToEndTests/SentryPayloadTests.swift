import Foundation
import Testing

/// Sentry events in the shapes its SDKs and published samples use (Tests/Fixtures/sentry-platforms.ndjson:
/// cocoa's mach exception, react-native's legacy keys and tags, the NDK's signal, a native abort,
/// Java's legacy interfaces, Python's handled errors and errno, JavaScript, Unity, an Android ANR,
/// a Ruby chain; a log record first, an exception that is only null, and one event sent
/// three times with its id in upper case, lower case and dashed), and Crashlytics' kinds.
@Suite struct SentryPayloadTests {
    static let fixture = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/sentry-platforms.ndjson").path
    static let now = "2026-11-20T00:00:00Z"
    static let keys: [String: String] = [
        "EB1": "crash", "EX6": "crash", "SI11": "crash", "SG6": "crash", "SB10": "crash", "AN27471": "anr",
        "AE91832": "non-fatal", "VA46505": "non-fatal", "VL97254": "non-fatal", "OS28": "non-fatal", "TY72036": "non-fatal",
        "DB77915": "non-fatal", "ER45807-NA17360": "non-fatal", "ME87207": "non-fatal",
    ]

    func issues(_ cli: CLI, _ extra: [String] = []) throws -> [String: [String: Any]] {
        let json = try cli.run(["report", "--now", Self.now, "--window", "30d", "--top", "100", "--format", "json"] + extra).json
        var result: [String: [String: Any]] = [:]
        for issue in json["issues"] as? [[String: Any]] ?? [] { result[issue["key"] as! String] = issue }
        return result
    }

    @Test func everyPlatformsEventIsItsOwnIssueWithItsKindAndTheRejectionsSayWhy() throws {
        let cli = try CLI()
        let result = try cli.run(["ingest", Self.fixture])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("ingest: 14 events added, 2 duplicates, 0 complaints added, 14 new issues, 1 rejected lines"), "\(result.stdout)")
        #expect(result.stderr.contains("sentry-platforms.ndjson:15: exception holds no exception value (only null)"))
        let list = try issues(cli)
        #expect(list.mapValues { $0["kind"] as? String ?? "none" } == Self.keys)
        // The log record is an issue of its own, named by its template.
        #expect(list["ME87207"]?["title"] as? String == "Payment %s declined", "\(list["ME87207"] ?? [:])")
        // Rails' `ActionView::Template::Error` repeats its cause's message: the title is the cause's words.
        #expect(list["ER45807-NA17360"]?["title"] as? String == "NameError: undefined local variable or method `foo'", "\(list["ER45807-NA17360"] ?? [:])")
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test func theFilesOrderDoesNotMatter() throws {
        let lines = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n")
        let a = try CLI(), b = try CLI()
        try a.run(["ingest", Self.fixture])
        let reversed = try b.file("reversed.ndjson", lines.reversed().joined(separator: "\n") + "\n")
        let result = try b.run(["ingest", reversed])
        #expect(result.stdout.hasPrefix("ingest: 14 events added, 2 duplicates"), "\(result.stdout)")
        // Which of two colliding domains keeps the first candidate depends on which came first;
        // either way each crash type is its own issue.
        let kinds = try issues(b).values.map { $0["kind"] as? String ?? "none" }.sorted()
        #expect(kinds == Self.keys.values.sorted())
        let decoded = try issues(b).keys.filter { $0.hasPrefix("V") }.map { try b.run(["decode", $0]).stdout }
        #expect(decoded.contains { $0.contains("ValidationError") } && decoded.contains { $0.contains("ValueError") }, "\(decoded)")
        // Each event keeps its own chain: the two mach exceptions decode and export apart.
        for (key, domain) in [("EB1", "EXC_BAD_ACCESS"), ("EX6", "EXC_BREAKPOINT"), ("SI11", "SIGSEGV"), ("SG6", "SIGABRT")] {
            #expect(try a.run(["decode", key]).stdout.contains(domain), "\(key)")
            let export = try a.run(["export", "--key", key, "--window", "30d", "--now", Self.now]).stdout
            #expect(export.contains("\"domain\":\"\(domain)\"") && export.contains("\"kind\":\"crash\""), "\(export)")
        }
    }

    @Test func fieldsComeFromLegacyKeysTagsAndReceivedAndUsersAreHashed() throws {
        let cli = try CLI()
        try cli.run(["ingest", Self.fixture])
        func event(_ key: String) throws -> [String: Any] {
            let show = try cli.run(["show", key, "--now", Self.now, "--window", "30d", "--format", "json"]).json
            return try #require((show["recent_events"] as? [[String: Any]])?.first)
        }
        let rn = try event("EX6")
        #expect(rn["app_version"] as? String == "1.0" && rn["app_build"] as? String == "1")
        #expect(rn["environment"] as? String == "production" && rn["user_id"] as? String == "rn-7")
        #expect(rn["timestamp"] as? String == "2026-11-18T09:01:00Z")
        #expect(rn["event_id"] as? String == "5a1e0000000000000000000000000003")
        let java = try event("AE91832")
        #expect((java["user_id"] as? String)?.hasPrefix("email:") == true && !(java["user_id"] as! String).contains("@"))
        #expect(java["app_version"] as? String == "3.0.2" && java["environment"] as? String == "production")
        #expect((try event("VA46505")["user_id"] as? String)?.hasPrefix("ip:") == true)
        #expect(try event("TY72036")["user_id"] as? String == "js-1")
        let cocoa = try cli.run(["show", "EB1", "--now", Self.now, "--window", "30d", "--format", "json"]).json
        #expect(cocoa["events"] as? Int == 1 && cocoa["users"] as? Int == 1)
        let kinds = (cocoa["breakdowns"] as? [String: [[String: Any]]])?["kind"]
        #expect(kinds?.first?["value"] as? String == "crash")
    }

    @Test func eachLineIsReadAsTheSourceItShowsAndAFailedLineSaysWhichFits() throws {
        let cli = try CLI()
        let mixed = try cli.file("mixed.ndjson", """
            {"event_id":"m1","timestamp":"2026-11-18T09:00:00Z","level":"error","message":"just a message"}
            {"event_id":"m2","timestamp":"2026-11-18T09:01:00Z","codes":"US14-LO43-AP7-NE8"}
            {"event_id":"m3","event_timestamp":"2026-11-18 09:02:00 UTC","issue_title":"NSURLErrorDomain","error_type":"ANR","errors":[{"title":"NSURLErrorDomain","code":-1009}]}
            {"event_id":"m4","timestamp":"2026-11-18T09:03:00Z","exception":{"values":[{"type":"KeyError","value":"x"}]}}

            """)
        let result = try cli.run(["ingest", mixed])
        #expect(result.stdout.hasPrefix("ingest: 4 events added"), "\(result.stdout) \(result.stderr)")
        let forced = try cli.run(["ingest", "--source", "native", Self.fixture])
        #expect(forced.stderr.contains("sentry-platforms.ndjson:2: missing chain"), "\(forced.stderr)")
        #expect(forced.stderr.contains("(the line reads as a sentry record: --source sentry)"))
    }

    @Test func crashlyticsRowsSayCrashNonFatalOrANR() throws {
        let cli = try CLI()
        let rows = try cli.file("crashlytics-kinds.ndjson", """
            {"event_id":"k1","event_timestamp":"2026-11-18 09:00:00 UTC","issue_title":"ST0","error_type":"FATAL","exceptions":[{"type":"StackOverflowError"}]}
            {"event_id":"k2","event_timestamp":"2026-11-18 09:01:00 UTC","issue_title":"IllegalStateException","is_fatal":true,"exceptions":[{"type":"IllegalStateException"}]}
            {"event_id":"k3","event_timestamp":"2026-11-18 09:02:00 UTC","issue_title":"NSURLErrorDomain","error_type":"NON_FATAL","errors":[{"title":"NSURLErrorDomain","code":-1001}]}
            {"event_id":"k4","event_timestamp":"2026-11-18 09:03:00 UTC","issue_title":"main thread blocked","error_type":"ANR","exceptions":[{"type":"ApplicationNotResponding"}]}
            {"event_id":"k5","event_timestamp":"2026-11-18 09:04:00 UTC","issue_title":"NSURLErrorDomain","is_fatal":false,"errors":[{"title":"NSURLErrorDomain","code":-1001}]}

            """)
        #expect(try cli.run(["ingest", rows]).status == 0)
        #expect(try issues(cli).mapValues { $0["kind"] as? String ?? "none" } == ["ST0": "crash", "IS0": "crash", "NSn1001": "non-fatal", "AN0": "anr"])
        #expect(Set(try issues(cli, ["--kind", "crash"]).keys) == ["ST0", "IS0"])
        #expect(Set(try issues(cli, ["--kind", "anr"]).keys) == ["AN0"])
        let minutes = try cli.run(["report", "--kind", "crash", "--format", "markdown", "--now", Self.now])
        #expect(minutes.status == 1 && minutes.stderr.contains("--kind narrows the list"), "\(minutes.stderr)")
        let text = try cli.run(["report", "--now", Self.now, "--window", "30d"]).stdout
        #expect(text.contains("open CRASH") && text.contains("open ANR"), "\(text)")
        let export = try cli.run(["export", "--window", "30d", "--now", Self.now]).stdout
        let again = try CLI()
        try again.run(["ingest", try again.file("export.ndjson", export)])
        #expect(try issues(again).mapValues { $0["kind"] as? String ?? "none" } == ["ST0": "crash", "IS0": "crash", "NSn1001": "non-fatal", "AN0": "anr"])
    }
}
