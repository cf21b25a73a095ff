import Foundation
import Testing

/// Events as the official Python Sentry SDK writes them: `Tests/SDK/sentry_app.py` raises layered
/// errors (`raise … from …`) through the real `sentry-sdk` (pinned in Tests/SDK/requirements.txt,
/// installed by `make setup` into `.venv`), captures what it serialises with an in-memory
/// transport, and the binary ingests it: as event lines, as envelopes, as gzip'd envelopes. The
/// envelopes carry the SDK's release health (sessions, and request-mode aggregates without users)
/// and a `user_report` about one event.
@Suite struct PythonSDKTests {
    static let python = CLI.packageRoot.appendingPathComponent(".venv/bin/python").path
    static let app = CLI.packageRoot.appendingPathComponent("Tests/SDK/sentry_app.py").path

    /// What one run of the app wrote: its folder, and each event's scenario and whether it was handled.
    struct Capture {
        let folder: String
        let groups: [String: String]
        let handled: [String: Bool]
        /// Envelopes written (the big event's left out), session items, distinct sessions, and distinct users per day in them.
        let envelopes: Int
        let sessions: Int
        let sessionIDs: Int
        let sessionUserDays: Int
        /// `sessions` items: request-mode aggregates, which name no user.
        let aggregates: Int
        /// The user reports sent: their event id and words.
        let userReports: [(eventID: String, comments: String)]
    }

    static func capture(_ cli: CLI) throws -> Capture {
        try #require(FileManager.default.isExecutableFile(atPath: python),
                     "the SDK's virtual environment is missing: run `make setup` (it installs Tests/SDK/requirements.txt into .venv)")
        let folder = cli.folder.appendingPathComponent("sdk").path
        let run = try tool(python, app, folder)
        try #require(run.status == 0, "\(run.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))) as? [String: Any])
        let events = manifest["events"] as? [[String: Any]] ?? []
        return Capture(folder: folder,
                       groups: Dictionary(uniqueKeysWithValues: events.map { ($0["event_id"] as! String, $0["group"] as! String) }),
                       handled: Dictionary(uniqueKeysWithValues: events.map { ($0["event_id"] as! String, $0["handled"] as! Bool) }),
                       envelopes: manifest["envelopes"] as? Int ?? 0, sessions: manifest["sessions"] as? Int ?? 0,
                       sessionIDs: manifest["session_ids"] as? Int ?? 0, sessionUserDays: manifest["session_user_days"] as? Int ?? 0,
                       aggregates: manifest["aggregates"] as? Int ?? 0,
                       userReports: (manifest["user_reports"] as? [[String: Any]] ?? []).map {
                           (eventID: $0["event_id"] as? String ?? "", comments: $0["comments"] as? String ?? "")
                       })
    }

    /// Every stored event's issue key, by event id.
    static func keys(_ cli: CLI) throws -> [String: String] {
        var keys: [String: String] = [:]
        for line in try cli.run(["export", "--window", "all"]).stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            keys[event["event_id"] as! String] = event["codes"] as? String
        }
        return keys
    }

    static func report(_ cli: CLI) throws -> [String: [String: Any]] {
        let json = try cli.run(["report", "--window", "all", "--top", "100", "--format", "json"]).json
        var result: [String: [String: Any]] = [:]
        for issue in json["issues"] as? [[String: Any]] ?? [] { result[issue["key"] as! String] = issue }
        return result
    }

    @Test func eachDistinctFailureIsOneIssueWhereverItsCodesAre() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        let result = try cli.run(["ingest", capture.folder + "/events.ndjson"])
        let stored = try Self.keys(cli)
        // Every event but the big one is stored; each scenario is one issue, and no two share one.
        let expected = capture.groups.filter { $0.value != "big" }
        #expect(Set(stored.keys) == Set(expected.keys), "\(result.stdout)\n\(result.stderr)")
        var keyOfGroup: [String: Set<String>] = [:]
        for (id, group) in expected { keyOfGroup[group, default: []].insert(stored[id] ?? "missing") }
        for (group, keys) in keyOfGroup { #expect(keys.count == 1, "\(group) split into \(keys)") }
        let owners = Dictionary(grouping: keyOfGroup, by: { $0.value.first! }).mapValues { $0.map(\.key).sorted() }
        for (key, groups) in owners { #expect(groups.count == 1, "\(key) holds \(groups)") }
        #expect(owners.count == Set(expected.values).count)
    }

    @Test func codesInErrnoOrTheMessageKeepTheirValuesAndTheMessagesOwnCodesSayWhereTheyCameFrom() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        try cli.run(["ingest", capture.folder + "/events.ndjson"])
        let stored = try Self.keys(cli)
        let key = { (group: String) in stored[capture.groups.first { $0.value == group }!.key] ?? "missing" }
        #expect(key("errno-timeout") == "US14-LO43-AP7-NE110")
        #expect(key("errno-refused") == "US14-LO43-AP7-NE111")
        #expect(key("msg-timeout") == "US14-LO43-AP7-NE8")
        #expect(key("msg-notconnected") == "US14-LO43-AP7-NE29")
        #expect(key("msg-middle") == "US14-LO43-AP9-NE8")
        #expect(key("apple-style") == "US14-LO43-AP7-NE2")
        let decoded = try cli.run(["decode", key("msg-timeout")]).stdout
        #expect(decoded.contains("NE8  NetworkError.timeout  [8, from the message]  (root cause)"), "\(decoded)")
        let errno = try cli.run(["decode", key("errno-timeout")]).stdout
        #expect(errno.contains("[110]  (root cause)"), "\(errno)")
        // With no code anywhere, each link's code is derived, and says so.
        let derived = try cli.run(["decode", key("nocode-timeout")]).stdout
        #expect(derived.components(separatedBy: "derived from type and raise site or message").count == 5, "\(derived)")
    }

    @Test func titlesAndNamesCarryNoOneEventsData() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        try cli.run(["ingest", capture.folder + "/events.ndjson"])
        for (key, issue) in try Self.report(cli) {
            let title = issue["title"] as? String ?? ""
            let chain = issue["chain"] as? String ?? ""
            for text in [title, chain] {
                #expect(!text.contains("2026-"), "\(key): \(text)")
                #expect(!text.contains("req-") || text.contains("req-<id>"), "\(key): \(text)")
                #expect(text.range(of: #"\d{2,}"#, options: .regularExpression) == nil, "\(key): \(text)")
            }
        }
        let report = try Self.report(cli)
        #expect(report["US14-LO43-AP7-NE8"]?["title"] as? String == "connectionIssue … timeout")
    }

    @Test func anExceptionGroupFollowsItsFirstBranchAndKeepsTheOthers() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        try cli.run(["ingest", capture.folder + "/events.ndjson"])
        let stored = try Self.keys(cli)
        let id = capture.groups.first { $0.value == "exception-group" }!.key
        let key = try #require(stored[id])
        let decoded = try cli.run(["decode", key]).stdout
        let lines = decoded.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.count == 3, "\(decoded)")
        #expect(lines.first?.contains("ExceptionGroup.batch failed") == true)
        #expect(lines.dropFirst().first?.contains("APIError.getTokenFailed") == true)
        #expect(lines.last?.contains("NetworkError.timeout") == true && lines.last?.contains("root cause") == true)
        let export = try cli.run(["export", "--key", key, "--window", "all"]).stdout
        #expect(export.contains("exception_group.other_branches") && export.contains("LogicError.validationFailed"), "\(export)")
        // A LogicError raised from a group: the group is its cause.
        let fromGroup = try #require(stored[capture.groups.first { $0.value == "logic-from-group" }!.key])
        #expect(fromGroup.hasPrefix("LO43-"), "\(fromGroup)")
    }

    @Test func handledAndUnhandledEventsOfOneChainAreOneIssueThatCrashed() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        try cli.run(["ingest", capture.folder + "/events.ndjson"])
        let stored = try Self.keys(cli)
        let ids = capture.groups.filter { $0.value == "handled-unhandled" }.map(\.key)
        #expect(Set(ids.map { capture.handled[$0]! }) == [true, false])
        let keys = Set(ids.compactMap { stored[$0] })
        #expect(keys.count == 1)
        // Uncaught through sys.excepthook on a server platform: unhandled, not a crash (the program went on).
        #expect(try Self.report(cli)[keys.first ?? ""]?["kind"] as? String == "unhandled")
    }

    @Test func aFingerprintMakesTwoChainsOneIssue() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        try cli.run(["ingest", capture.folder + "/events.ndjson"])
        let stored = try Self.keys(cli)
        let keys = Set(capture.groups.filter { $0.value == "fingerprint" }.compactMap { stored[$0.key] })
        #expect(keys.count == 1)
        #expect(try Self.report(cli)[keys.first ?? ""]?["title"] as? String == "payment-provider-down")
    }

    @Test func theBigEventIsRefusedWithItsSizeAndTheLinesAfterItAreKept() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        let result = try cli.run(["ingest", capture.folder + "/events.ndjson"])
        #expect(result.status == 2)
        #expect(result.stderr.range(of: #"events\.ndjson:1: line of \d{7} bytes is over the limit of 1048576 bytes for one record"#,
                                    options: .regularExpression) != nil, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("ingest: \(capture.groups.count - 1) events added"), "\(result.stdout)")
    }

    @Test func envelopesPlainAndGzipReadAsTheSDKPostsThem() throws {
        let app = try CLI()
        let capture = try Self.capture(app)
        var stores: [[String: String]] = []
        for file in ["envelopes.envelope", "envelopes.envelope.gz"] {
            let cli = try CLI()
            let result = try cli.run(["ingest", capture.folder + "/" + file])
            #expect(result.status == 0, "\(result.stderr)")
            let events = capture.groups.count - 1
            #expect(result.stdout.contains("\(events) events added"), "\(result.stdout)")
            #expect(result.stdout.contains("\(capture.userReports.count) complaints added"), "\(result.stdout)")
            #expect(result.stdout.contains("\(capture.sessionIDs) sessions, \(capture.envelopes) envelopes (\(capture.aggregates) item not stored: "
                                           + "\(capture.aggregates) sessions)"), "\(result.stdout)")
            stores.append(try Self.keys(cli))
        }
        #expect(stores[0] == stores[1])
        let lines = try CLI()
        try lines.run(["ingest", capture.folder + "/events.ndjson"])
        #expect(try Self.keys(lines) == stores[0])
        withExtendedLifetime(app) {}
    }

    @Test func sessionsGiveEachVersionsActiveUsersAndTheUserReportIsOnItsEventsIssue() throws {
        let cli = try CLI()
        let capture = try Self.capture(cli)
        #expect(capture.sessions > capture.sessionIDs, "the app sends one session twice, as an update")
        let result = try cli.run(["ingest", capture.folder + "/envelopes.envelope"])
        #expect(result.status == 0, "\(result.stderr)")
        // Active users: each session's user once per day, from the SDK's sessions alone.
        let releases = try #require(try cli.run(["release", "list", "--format", "json"]).json["releases"] as? [[String: Any]])
        let release = try #require(releases.first { $0["version"] as? String == "shop@1.4.0" }, "\(releases)")
        #expect(release["active_user_days"] as? Int == capture.sessionUserDays, "\(release)")
        #expect(release["error_free_users_percent"] as? Double != nil, "\(release)")
        // The report is on its event's issue, its words inert, the reporter's e-mail and name nowhere.
        let report = try #require(capture.userReports.first)
        let key = try #require(try Self.keys(cli)[report.eventID])
        let show = try cli.run(["show", key, "--window", "all"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("sentry  Paying froze again and the app lost my basket ^[[2J"), "\(show.stdout)")
        #expect(!show.stdout.contains("\u{1B}") && !show.stdout.contains("jane@example.com") && !show.stdout.contains("Jane Roe"))
        let ranking = try cli.run(["report", "--window", "all", "--by", "complaints", "--top", "1", "--format", "json"]).json
        let top = try #require((ranking["issues"] as? [[String: Any]])?.first)
        #expect(top["key"] as? String == key && top["complaints"] as? Int == 1, "\(top)")
        #expect(try cli.run(["check"]).status == 0)
    }
}
