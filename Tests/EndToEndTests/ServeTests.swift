import ChildProcess
import Foundation
import LoopbackHTTP
import TestSupport
import TriageModel
import Testing

/// `errtriage serve` as a user runs it: the built binary on a free loopback port, a key from
/// `errtriage key add`, and real clients: the Python Sentry SDK, curl, an HTTP client of our own
/// for load; then the store read back through the CLI.
@Suite(.serialized) struct ServeTests: TmuxDriving {
    let session = "errtriage-serve-\(getpid())"

    /// A running `errtriage serve` and the DSN of a key made for it.
    final class Server: @unchecked Sendable {
        let process: ChildProcess
        let port: Int
        let cli: CLI

        init(_ cli: CLI, arguments: [String] = [], store: String? = nil) throws {
            self.cli = cli
            var environment = cli.environment
            if let store { environment["ERRTRIAGE_STORE"] = store }
            process = try ChildProcess([CLI.binary, "serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment,
                                       directory: cli.folder.path, output: .capture)
            let deadline = ChildProcess.clock() + 30
            var found: Int?
            while found == nil && ChildProcess.clock() < deadline && process.isRunning {
                if let range = process.stderrSoFar.range(of: #"listening on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                    found = Int(process.stderrSoFar[range].split(separator: ":").last!)
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            guard let found else {
                process.signal(SIGKILL)
                throw ServeFailure(log: process.wait().stderr)
            }
            port = found
        }

        var base: String { "http://127.0.0.1:\(port)" }
        var log: String { process.stderrSoFar }

        /// `errtriage key add NAME` against this server's address: (key, project id, DSN).
        func addKey(_ name: String, store: String? = nil) throws -> (key: String, project: Int, dsn: String) {
            let result = try cli.run(["key", "add", name, "--url", base] + (store.map { ["--store", $0] } ?? []))
            let dsn = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("DSN: ") }?.dropFirst(5), "\(result.stdout)\(result.stderr)")
            let url = try #require(URL(string: String(dsn)))
            return (url.user!, Int(url.lastPathComponent)!, String(dsn))
        }

        /// SIGTERM, and how it ended.
        func stop() -> ChildProcess.Result {
            process.signal(SIGTERM)
            return process.wait()
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "serve did not start: \(log)" }
    }

    /// The root causes of the chains the tests send: `chain` picks one.
    static let causes = ["timeout", "connectionRefused", "connectionReset", "hostNotFound", "notConnected"]

    static func envelope(_ id: String, chain: Int = 0, time: String = "2026-11-24T10:00:00Z") -> [UInt8] {
        let cause = causes[chain % causes.count]
        let event = #"{"event_id":"\#(id)","timestamp":"\#(time)","platform":"python","level":"error","release":"app@1.0.0","user":{"id":"u\#(chain)"},"exception":{"values":[{"type":"NetworkError","value":"\#(cause): request took 3 s","mechanism":{"type":"generic","handled":true}},{"type":"APIError","value":"getTokenFailed: token request failed","mechanism":{"type":"generic","handled":true}}]}}"#
        return Array((#"{"event_id":"\#(id)"}"# + "\n" + #"{"type":"event"}"# + "\n" + event + "\n").utf8)
    }

    /// POSTs an envelope; the status.
    static func post(_ server: Server, key: String, project: Int, body: [UInt8], path: String = "envelope/",
                     timeout: Int64 = 30) async throws -> UInt {
        let request = LoopbackRequest(.POST, "/api/\(project)/\(path)", headers: [("X-Sentry-Auth", "Sentry sentry_version=7, sentry_key=\(key)")],
                                      body: body)
        return UInt(try await LoopbackConnection.send(request, port: server.port, timeout: Double(timeout)).status)
    }

    /// Every stored event id.
    static func storedIDs(_ cli: CLI) throws -> Set<String> {
        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        return Set(export.stdout.split(separator: "\n").compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["event_id"] as? String
        })
    }

    // MARK: - The real SDK

    /// Tests/SDK/serve_app.py: chained errors handled and unhandled, a session and a user report,
    /// sent by the real sentry-sdk over HTTP (br, then gzip).
    @Test(arguments: ["br", "gzip"]) func thePythonSDKSendsStraightToServe(compression: String) throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (_, _, dsn) = try server.addKey("shop")
        let python = PythonSDKTests.python
        try #require(FileManager.default.isExecutableFile(atPath: python), "run make setup: the SDK's .venv is missing")
        let out = cli.temporary.path("sent.json")
        let run = try tool(python, CLI.packageRoot.appendingPathComponent("Tests/SDK/serve_app.py").path, dsn, out, compression)
        try #require(run.status == 0, "\(run.stderr)")
        let sent = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let events = try #require(sent["events"] as? [String: [String]])
        #expect(events["login"]?.count == 3 && events["refused"]?.count == 1 && events["unhandled"]?.count == 1, "\(sent)")

        // Every event the SDK sent is stored (a 200 came only after its commit, and flush waited for it).
        let all = Set(events.values.flatMap { $0 })
        #expect(try Self.storedIDs(cli) == all, "\(server.log)")
        let report = try cli.run(["report", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(issues.count == 2, "\(issues)")
        let login = try #require(issues.first { ($0["events"] as? Int) == 4 }, "\(issues)")
        let key = try #require(login["key"] as? String)
        #expect(key.hasPrefix("US") && key.split(separator: "-").count == 4)
        #expect(login["kind"] as? String == "unhandled", "the uncaught one (excepthook) makes the issue unhandled: \(login)")
        #expect(login["complaints"] as? Int == 1)
        #expect(login["projects"] as? [String] == ["shop"])
        let show = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        #expect(show.contains("my wifi works"), "\(show)")
        #expect(show.contains("shop@2.1.0"), "a release keeps its package: \(show)")
        #expect(!show.contains("ada@example.com"))
        let releases = try #require(try cli.run(["release", "list", "--format", "json"]).json["releases"] as? [[String: Any]])
        let release = try #require(releases.first { $0["version"] as? String == "shop@2.1.0" }, "\(releases)")
        #expect(release["active_user_days"] as? Int == 1, "the session's user: \(release)")
        #expect(try cli.run(["report", "--query", "project:shop", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"])
            .json["issues"].map { ($0 as? [Any])?.count } == 2)
        let stopped = server.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped: accepted"), "\(stopped.stderr)")
        #expect(try cli.run(["check"]).status == 0)
    }

    // MARK: - Other clients

    @Test func theELKReporterPostsWithCurl() throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("ios")
        let body = try cli.file("report.json", """
            {"code":666,"domain":"com.example.ios.feed.decoding","message":"keyNotFound: feed item 7",
             "environment":"production","reported_at":"2026-11-24T09:00:00.000Z",
             "mobile":{"version":"2.0.0","build_number":2500,"platform":"ios","network":"wifi"}}
            """)
        let posted = try tool("curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", "@\(body)",
                              "\(server.base)/api/\(project)/elk?token=\(key)")
        #expect(posted.stdout.hasSuffix("\n200"), "\(posted.stdout)\(posted.stderr)")
        let refused = try tool("curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", "@\(body)",
                               "\(server.base)/api/\(project)/elk?token=0000000000000000000000000000dead")
        #expect(refused.stdout.hasSuffix("\n401"), "\(refused.stdout)")
        let report = try cli.run(["report", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        #expect(report.contains("DE666"), "\(report)")
        _ = try cli.run(["key", "revoke", key])
        Thread.sleep(forTimeInterval: 2.5)  // the server reads its keys every 2 s
        let revoked = try tool("curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", "@\(body)",
                               "\(server.base)/api/\(project)/elk?token=\(key)")
        #expect(revoked.stdout.hasSuffix("\n403"), "\(revoked.stdout)")
    }

    /// `serve --retention 30d` sets the store's retention and applies it at start (the clock is
    /// the machine's: the sample's year is older than 30 days), while it takes events.
    @Test func serveAppliesTheRetentionItIsGiven() async throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 1_200, issues: 6, days: 400)
        try cli.run(["ingest", try cli.file("a.ndjson", lines.joined(separator: "\n") + "\n")])
        let report = try cli.run(["report", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        let top = try #require((report["issues"] as? [[String: Any]])?.first?["key"] as? String)
        let now = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
        /// The issue's months before this one, which nothing sent now can change.
        func pastMonths() throws -> String {
            let months = try #require(try cli.run(["history", top, "--format", "json"]).json["months"] as? [[String: Any]])
            return try RetentionTests.canonical(months.filter { ($0["month"] as! String) < String(now.dateText.prefix(7)) })
        }
        let before = try pastMonths()
        let server = try Server(cli, arguments: ["--retention", "30d"])
        let deadline = ChildProcess.clock() + 30
        while !server.log.contains("prune: ") && ChildProcess.clock() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(server.log.contains(#/prune: kept 30d; [1-9][0-9]* events and [0-9]+ complaints deleted; raw events kept since/#), "\(server.log)")
        let (key, project, _) = try server.addKey("app")
        #expect(try await Self.post(server, key: key, project: project, body: Self.envelope("ab12cd34ab12cd34ab12cd34ab12cd34", time: now.iso8601)) == 200)
        #expect(server.stop().status == 0)
        #expect(try cli.run(["retention"]).stdout.contains("raw events kept 30d"))
        #expect(try Self.storedIDs(cli).contains("ab12cd34ab12cd34ab12cd34ab12cd34"))
        // Every month of the issue's life is still there, from the rollups.
        #expect(try pastMonths() == before)
        #expect(try cli.run(["check"]).status == 0)
    }

    // MARK: - Nothing acknowledged is lost

    /// Load from 16 connections, `kill -9` at a random moment, three times: every event answered
    /// 200 is in the store, and the store is sound.
    @Test func killNineMidLoadLosesNoAcknowledgedEvent() async throws {
        let cli = try CLI()
        var acknowledged = Set<String>()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3 {
            let server = try Server(cli, arguments: ["--rate-limit", "off"])
            let (key, project, _) = try server.addKey("load\(round)")
            let acks = Acks()
            let killed = Acks()
            let killAt = Double.random(in: 0.1...0.9, using: &generator)
            let started = ChildProcess.clock()
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<16 {
                    group.addTask {
                        var n = 0
                        // A request sent after the kill would only wait for a connection that never comes.
                        while ChildProcess.clock() - started < 70 && killed.all.isEmpty {
                            let id = String(format: "%08x%08x%016x", round, worker, n)
                            n += 1
                            // A request that failed before the kill (a slow answer on a loaded machine)
                            // is tried again with the next id; after it, the worker stops.
                            guard let status = try? await Self.post(server, key: key, project: project, body: Self.envelope(id, chain: n % 5),
                                                                    timeout: 10) else { if killed.all.isEmpty { continue } else { break } }
                            if status == 200 { acks.add(id) }
                        }
                    }
                }
                group.addTask {
                    // At a random moment once the load is on (the first answer came): on a loaded
                    // machine a fixed moment could come before any request was answered (beside
                    // the whole suite and a release build, none was in 20 s once).
                    while acks.all.isEmpty && ChildProcess.clock() - started < 60 {
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                    try? await Task.sleep(for: .milliseconds(Int(killAt * 1000)))
                    server.process.signal(SIGKILL)
                    killed.add("killed")
                }
            }
            _ = server.process.wait()
            acknowledged.formUnion(acks.all)
            #expect(!acks.all.isEmpty, "no request was answered before the kill")
        }
        let stored = try Self.storedIDs(cli)
        #expect(acknowledged.subtracting(stored).isEmpty, "acknowledged but not stored: \(acknowledged.subtracting(stored).count) of \(acknowledged.count)")
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    final class Acks: @unchecked Sendable {
        private let lock = NSLock()
        private var ids = Set<String>()
        func add(_ id: String) { lock.lock(); ids.insert(id); lock.unlock() }
        var all: Set<String> { lock.lock(); defer { lock.unlock() }; return ids }
    }

    // MARK: - Alerts

    /// An alert rule fires once into a loopback webhook receiver (and the on-alert command) as
    /// events arrive; more events of the same issue fire nothing again.
    @Test func alertsFireOnceIntoAWebhook() async throws {
        let cli = try CLI()
        let received = cli.temporary.path("webhook.jsonl")
        let receiver = try ChildProcess(["python3", "-c", Self.webhookReceiver, received], output: .capture)
        defer { receiver.signal(SIGKILL); _ = receiver.wait() }
        var hookPort: Int?
        let deadline = ChildProcess.clock() + 10
        while hookPort == nil && ChildProcess.clock() < deadline {
            hookPort = Int(receiver.stderrSoFar.split(separator: "\n").first { $0.hasPrefix("port ") }?.dropFirst(5) ?? "")
            usleep(50_000)
        }
        let port = try #require(hookPort, "the webhook receiver did not start: \(receiver.stderrSoFar)")
        _ = try cli.run(["alert", "add", "timeouts", "--query", "status:open", "--events", "3", "--within", "24h"])
        let commandOut = cli.temporary.path("on-alert.jsonl")
        let server = try Server(cli, arguments: ["--webhook", "http://127.0.0.1:\(port)/hook", "--on-alert", "cat >> '\(commandOut)'"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let now = Timestamp.iso(Date())
        for n in 0..<5 {
            #expect(try await Self.post(server, key: key, project: project, body: Self.envelope(String(format: "%032x", n), time: now)) == 200)
        }
        func lines(_ path: String) -> [String] {
            (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        let waitUntil = ChildProcess.clock() + 10
        while ChildProcess.clock() < waitUntil && !lines(received).joined().contains("ALERT timeouts") {
            try await Task.sleep(for: .milliseconds(100))
        }
        // More events of the same issue: the alert has fired for it already.
        for n in 5..<10 {
            #expect(try await Self.post(server, key: key, project: project, body: Self.envelope(String(format: "%032x", n), time: now)) == 200)
        }
        try await Task.sleep(for: .seconds(2))
        let hooks = lines(received)
        let alertPosts = hooks.filter { $0.contains("ALERT timeouts") }
        #expect(alertPosts.count == 1, "\(hooks)\n\(server.log)")
        let first = try #require(hooks.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((first["text"] as? String)?.contains("NEW") == true, "\(first)")
        let payload = try #require(first["errtriage"] as? [String: Any])
        #expect((payload["new_issues"] as? [Any])?.count == 1)
        let commands = lines(commandOut)
        #expect(commands.filter { $0.contains("\"alert\":\"timeouts\"") }.count == 1, "\(commands)")
        #expect(server.log.contains("→ webhook answered 200"), "\(server.log)")
    }

    /// Prints `port N` on stderr, appends each POSTed body as one line to argv[1], answers 200.
    static let webhookReceiver = """
        import http.server, sys
        out = sys.argv[1]
        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
                with open(out, 'ab') as f: f.write(body.replace(b'\\n', b' ') + b'\\n')
                self.send_response(200); self.end_headers(); self.wfile.write(b'ok')
            def log_message(self, *a): pass
        s = http.server.HTTPServer(('127.0.0.1', 0), H)
        sys.stderr.write('port %d\\n' % s.server_address[1]); sys.stderr.flush()
        s.serve_forever()
        """

    // MARK: - The dashboard live

    /// A dashboard open on the store shows an event sent to `serve` moments later, with no key pressed.
    @Test func anOpenDashboardShowsAServedEventAtOnce() async throws {
        let cli = try CLI()
        let server = try Server(cli, arguments: ["--log-every", "1"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("live")
        let now = Timestamp.iso(Date())
        #expect(try await Self.post(server, key: key, project: project, body: Self.envelope(String(repeating: "1", count: 32), chain: 1, time: now)) == 200)
        try start("ERRTRIAGE_STORE='\(cli.store)' '\(CLI.binary)'", cols: 120, rows: 40)
        defer { stop() }
        try waitFor("connectionRefused")
        let sent = ChildProcess.clock()
        #expect(try await Self.post(server, key: key, project: project, body: Self.envelope(String(repeating: "2", count: 32), chain: 2, time: now)) == 200)
        _ = try waitFor("connectionReset", seconds: 10)
        let seconds = ChildProcess.clock() - sent
        // The dashboard polls the store's revision every 500 ms; on a loaded machine allow more.
        #expect(seconds < 3, "the event took \(seconds) s to show")
        // A refused request: the server records its minute's refusals, and the status line says so.
        #expect(try await Self.post(server, key: "0000000000000000000000000000dead", project: project,
                                    body: Self.envelope(String(repeating: "3", count: 32))) == 401)
        let screen = try waitFor("serve refused 1 request", seconds: 10)
        #expect(screen.contains("unknown-key 1"), "\(screen)")
        // Beside the key line, never over it: `? help` stays.
        #expect(screen.split(separator: "\n").last?.contains("? help") == true, "\(screen)")
        #expect(screen.contains("in the minute to "), "\(screen)")
    }

    // MARK: - Many servers, one team store

    /// Two `serve` processes on one PostgreSQL store, sent to at once with events of the same
    /// issues: every event counted once, no deadlock, the store sound.
    @Test func twoServersOnOneTeamStore() async throws {
        let cli = try CLI(postgres: ())
        let first = try Server(cli, arguments: ["--rate-limit", "off"])
        defer { _ = first.stop() }
        let second = try Server(cli, arguments: ["--rate-limit", "off"])
        defer { _ = second.stop() }
        let (key, project, _) = try first.addKey("team")
        let statuses = Acks()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for n in 0..<25 {
                        let id = String(format: "%016x%016x", worker, n)
                        let server = (worker + n) % 2 == 0 ? first : second
                        let status = (try? await Self.post(server, key: key, project: project, body: Self.envelope(id, chain: n % 4))) ?? 0
                        statuses.add(status == 200 ? id : "status \(status) from \(server === first ? "first" : "second") at \(n)")
                    }
                }
            }
        }
        #expect(statuses.all.filter { !$0.hasPrefix("status") }.count == 200, "\(statuses.all.filter { $0.hasPrefix("status") })\n\(first.log)\n\(second.log)")
        let report = try cli.run(["report", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(issues.count == 4)
        #expect(issues.reduce(0) { $0 + ($1["events"] as? Int ?? 0) } == 200)
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}

extension Timestamp {
    /// Now, as the ISO 8601 the events carry.
    static func iso(_ date: Date) -> String {
        Timestamp(millis: Int64(date.timeIntervalSince1970 * 1000)).iso8601
    }
}
