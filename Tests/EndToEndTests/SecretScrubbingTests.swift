import ChildProcess
import Foundation
import TestSupport
import Testing

/// Issue 44's probe of secrets, run as a user runs errtriage: a table of secret forms in every
/// field they may arrive in, each planted with a marker of its own, sent through every source
/// (Sentry events, native lines, Crashlytics rows, ELK reports) into a store by `ingest`, and by
/// `serve` (curl, and the real Python SDK), then looked for in every byte the store wrote (the
/// SQLite file and its WAL, or a `pg_dump`) and in every output: `show` and its JSON, `export`
/// (NDJSON, CSV, `--whole`), `report --format json`, `event ID` (text, JSON, `--raw`), `ticket`,
/// and the dashboard's screens in tmux. Both engines.
@Suite(.serialized) struct SecretScrubbingTests: TmuxDriving {
    let session = "errtriage-secrets-\(getpid())"

    /// The markers planted, each once: where each went (for a failure to name).
    final class Plants {
        var planted: [(marker: String, place: String)] = []
        var kept: [String] = []

        /// A new marker for a secret at `place`: letters and digits no rule reads as a word.
        func marker(_ place: String) -> String {
            let marker = "Zqk\(planted.count + 10)vq"
            planted.append((marker, place))
            return marker
        }

        /// A new card number (Luhn-valid, 16 digits in groups) at `place`.
        func card(_ place: String, separator: String = " ") -> String {
            var digits = [4, 9, 2, 9] + String(format: "%011ld", 31_415_926_535 + planted.count * 7919).map { Int(String($0))! }
            var sum = 0
            for (k, d) in digits.reversed().enumerated() {
                let v = k % 2 == 0 ? d * 2 : d
                sum += v > 9 ? v - 9 : v
            }
            digits.append((10 - sum % 10) % 10)
            let text = stride(from: 0, to: 16, by: 4).map { digits[$0..<$0 + 4].map(String.init).joined() }.joined(separator: separator)
            planted.append((text, place))
            return text
        }

        /// Where any marker shows in `text`, by place.
        func found(in text: String) -> [String] {
            planted.filter { text.contains($0.marker) }.map { "\($0.marker) (\($0.place))" }
        }
    }

    // MARK: - The events

    /// A Sentry event with a secret in each field where one may arrive.
    static func sentryEvent(_ id: String, _ p: Plants, time: String = "2026-11-20T10:00:00Z") -> String {
        let event: [String: Any] = [
            "event_id": id, "timestamp": time, "platform": "python", "level": "error", "release": "shop@2.1.0",
            "environment": "production", "server_name": "api-1",
            "transaction": "/pay?token=\(p.marker("transaction's query"))",
            "user": ["id": "u-\(id)", "email": "bob@example.com", "ip_address": "10.0.0.7"],
            "tags": ["api_key": p.marker("tag api_key"), "X-Api-Key": p.marker("tag X-Api-Key"), "session": p.marker("tag session"),
                     "sessionid": p.marker("tag sessionid"), "X-Session": p.marker("tag X-Session"), "mysql_pwd": p.marker("tag mysql_pwd"),
                     "privatekey": p.marker("tag privatekey"), "csrf": p.marker("tag csrf"),
                     "note": "password=\(p.marker("password= in a tag"))", "card": p.card("card in a tag"), "shard": "eu-7"],
            "exception": ["values": [
                ["type": "ConnectionError", "value": "connect to postgres://app:\(p.marker("postgres URL password"))@db.internal/shop failed"],
                ["type": "PaymentError", "value": "charge failed: token=\(p.marker("token= in an exception value")) "
                    + "Bearer \(p.marker("Bearer in an exception value")) card \(p.card("card in an exception value", separator: "-"))"],
            ]],
            "logentry": ["formatted": "retry with password=\(p.marker("password= in a message"))"],
            "extra": ["p\u{61}ssword": p.marker("extra password (escaped name)"),
                      "query": "kind=8&password=\(p.marker("Go query string"))",
                      "blob": "{\"password\":\"\(p.marker("JSON inside a string"))\"}",
                      "note": "Authorization: Bearer \(p.marker("Bearer in extra"))", "order": "1234"],
            "request": [
                "method": "POST",
                "url": "https://shop.example/cb?token=\(p.marker("URL query"))#access_token=\(p.marker("URL fragment"))",
                "query_string": "a=1&p%61ssword=\(p.marker("percent-encoded name"))",
                "data": "user=bob&password=\(p.marker("form body"))",
                "cookies": "sessionid=\(p.marker("cookie sessionid")); theme=dark",
                "headers": ["Referer": "https://shop.example/reset?token=\(p.marker("Referer's query"))",
                            "Authorization": "Bearer \(p.marker("Authorization header"))", "X-Api-Key": p.marker("X-Api-Key header"),
                            "Accept": "application/json"],
            ],
            "breadcrumbs": ["values": [
                ["category": "navigation", "data": ["from": "/reset?token=\(p.marker("navigation from"))",
                                                    "to": "/home?sessionid=\(p.marker("navigation to"))"]],
                ["category": "auth", "message": "login with password=\(p.marker("breadcrumb message"))"],
            ]],
        ]
        // Go's JSON writes `&` as `\u0026` and a name may come escaped: the line says so.
        let data = try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "&", with: "\\u0026")
            .replacingOccurrences(of: "\"password\":\"Zq", with: "\"p\\u0061ssword\":\"Zq")
    }

    static func nativeLine(_ id: String, _ p: Plants) -> String {
        #"{"event_id":"\#(id)","timestamp":"2026-11-20T11:00:00Z","codes":"US14-LO43-AP7-NE8","user_id":"nu1","#
            + #""message":"sync failed: token=\#(p.marker("native message"))","#
            + #""keys":{"api_key":"\#(p.marker("native key api_key"))","X-Session":"\#(p.marker("native key X-Session"))","#
            + #""note":"Authorization: Bearer \#(p.marker("native key with Bearer"))","screen":"cart"}}"#
    }

    static func crashlyticsRow(_ id: String, _ p: Plants) -> String {
        #"{"platform":"IOS","bundle_identifier":"ru.example.tasks","event_id":"\#(id)","issue_id":"i1","event_timestamp":"2026-11-20T12:00:00Z","#
            + #""error_type":"NON_FATAL","firebase_session_id":"fs-1","installation_uuid":"inst-1","application":{"build_version":"401","display_version":"1.12"},"#
            + #""user":{"id":"cu1"},"custom_keys":[{"key":"session_token","value":"\#(p.marker("Crashlytics key session_token"))"},"#
            + #"{"key":"screen","value":"map"},{"key":"error_codes_stack","value":"UserError.connectionIssue-NetworkError.timeout"}],"#
            + #""logs":[{"timestamp":"2026-11-20T11:59:00Z","message":"password=\#(p.marker("Crashlytics log"))"}],"breadcrumbs":[],"#
            + #""issue_title":"US14-NE8","errors":[{"title":"US14-NE8","code":0,"frames":[]}]}"#
    }

    static func elkReport(_ p: Plants) -> String {
        #"{"environment":"production","reported_at":"2026-11-20T13:00:00.000Z","message":"token=\#(p.marker("ELK message"))","#
            + #""mobile":{"version":"2.0.0","build_number":2501,"platform":"ios","network":"cellular"},"code":666,"#
            + #""domain":"com.example.ios.feed.decoding","ios.metadata":{"api_key":"\#(p.marker("ELK metadata api_key"))","field":"items"}}"#
    }

    static func envelope(_ event: String, id: String) -> [UInt8] {
        Array((#"{"event_id":"\#(id)","sent_at":"\#(Date().iso8601)"}"# + "\n" + #"{"type":"event"}"# + "\n" + event + "\n").utf8)
    }

    // MARK: - Where to look

    /// Every byte the store wrote: the SQLite file with its WAL and shared memory, or a dump of
    /// the PostgreSQL database.
    static func storeBytes(_ cli: CLI) throws -> String {
        if cli.store.hasPrefix("postgres") {
            let cluster = try PostgresCluster.shared.get()
            let dump = try ChildProcess.run([cluster.tool("pg_dump"), "--no-owner", "-d", cli.store])
            #expect(dump.status == 0, "\(dump.stderr)")
            #expect(dump.stdout.contains("kept_payload"))
            return dump.stdout
        }
        return try [cli.store, cli.store + "-wal", cli.store + "-shm"].map { path in
            FileManager.default.fileExists(atPath: path) ? String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) : ""
        }.joined()
    }

    /// Every output a user reads of the store, by what printed it.
    static func outputs(_ cli: CLI) throws -> [(String, String)] {
        let now = ["--now", "2030-01-01T00:00:00Z"]
        var outputs: [(String, String)] = []
        func run(_ arguments: [String]) throws {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            outputs.append((arguments.joined(separator: " "), result.stdout + result.stderr))
        }
        try run(["report", "--window", "all", "--top", "100", "--format", "json"] + now)
        try run(["report", "--window", "all", "--top", "100"] + now)
        try run(["export", "--window", "all"] + now)
        try run(["export", "--window", "all", "--format", "csv"] + now)
        try run(["export", "--window", "all", "--whole"] + now)
        let issues = try SDKService.issues(cli)
        #expect(!issues.isEmpty)
        for key in issues.keys.sorted() {
            try run(["show", key, "--window", "all"] + now)
            let json = try cli.run(["show", key, "--window", "all", "--format", "json"] + now)
            outputs.append(("show \(key) --format json", json.stdout))
            try run(["ticket", key, "--window", "all"] + now)
            for kept in json.json["kept_events"] as? [[String: Any]] ?? [] {
                let id = try #require(kept["event_id"] as? String)
                try run(["event", id] + now)
                try run(["event", id, "--format", "json"] + now)
                try run(["event", id, "--raw"] + now)
            }
        }
        return outputs
    }

    /// No marker in the store's bytes nor in any output; what is kept is there.
    static func expectNoSecret(_ cli: CLI, _ plants: Plants, kept: [String]) throws {
        let bytes = try storeBytes(cli)
        #expect(bytes.count > 1000)
        #expect(plants.found(in: bytes).isEmpty, "in the store's bytes: \(plants.found(in: bytes))")
        let outputs = try outputs(cli)
        for (command, output) in outputs {
            #expect(plants.found(in: output).isEmpty, "\(command) shows \(plants.found(in: output))")
        }
        let all = outputs.map(\.1).joined()
        #expect(all.contains("[Filtered]"))
        for text in kept { #expect(all.contains(text), "\(text) is kept") }
    }

    // MARK: - The tests

    /// Every source through `ingest`: no planted secret reaches the store or an output.
    @Test func noSecretFormReachesTheStoreThroughIngest() throws {
        let cli = try CLI()
        let plants = Plants()
        _ = try cli.file("sentry.ndjson", [Self.sentryEvent("5e1c0000000000000000000000000001", plants),
                                       Self.sentryEvent("5e1c0000000000000000000000000002", plants, time: "2026-11-20T10:05:00Z")]
            .joined(separator: "\n"))
        _ = try cli.file("native.ndjson", Self.nativeLine("n1", plants))
        _ = try cli.file("crashlytics.ndjson", Self.crashlyticsRow("c1", plants))
        _ = try cli.file("elk.ndjson", Self.elkReport(plants))
        for file in ["sentry.ndjson", "native.ndjson", "crashlytics.ndjson", "elk.ndjson"] {
            let ingest = try cli.run(["ingest", file, "--keep-whole", "all"])
            #expect(ingest.status == 0, "\(file): \(ingest.stdout)\(ingest.stderr)")
        }
        try Self.expectNoSecret(cli, plants, kept: ["eu-7", "10.0.0.7", "shop.example", "cart", "map", "application/json"])

        // The dashboard: the list, each pane of the Sentry issue and its event screen.
        try start("ERRTRIAGE_STORE='\(cli.store)' USER=tester '\(CLI.binary)' --now data", cols: 160, rows: 48)
        defer { stop() }
        var seen = try waitForLoaded("rank: events")
        try keys("/")
        try enter("domain:PaymentError")
        seen += try waitForLoaded("1 issue")
        try keys("Enter")
        seen += try waitFor("Chain")
        for pane in ["2", "4", "5", "6", "3"] {
            try keys(pane)
            Thread.sleep(forTimeInterval: 0.5)
            seen += try screen()
        }
        try keys("Enter")
        seen += try waitFor("Kept whole")
        for _ in 0..<8 {
            try keys("PageDown")
            Thread.sleep(forTimeInterval: 0.2)
            seen += try screen()
        }
        #expect(plants.found(in: seen).isEmpty, "the dashboard shows \(plants.found(in: seen))")
        #expect(seen.contains("[Filtered]"))
    }

    /// `serve` with curl: the same event, sent as an SDK sends it, keeps no secret either.
    @Test func noSecretFormReachesTheStoreThroughServe() async throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli, arguments: ["--keep-whole", "all"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("shop")
        let plants = Plants()
        let id = "5e1c0000000000000000000000000003"
        let now = Date().iso8601
        let status = try await ServeTests.post(server, key: key, project: project, body: Self.envelope(Self.sentryEvent(id, plants, time: now), id: id))
        #expect(status == 200, "\(server.log)")
        let native = try await ServeTests.post(server, key: key, project: project, body: Array(Self.nativeLine("n2", plants).utf8), path: "events")
        #expect(native == 200, "\(server.log)")
        let elk = try await ServeTests.post(server, key: key, project: project, body: Array(Self.elkReport(plants).utf8), path: "elk")
        #expect(elk == 200, "\(server.log)")
        _ = server.stop()
        try Self.expectNoSecret(cli, plants, kept: ["eu-7", "shop.example"])
    }

    /// The real Python SDK (its own scrubber out of the way: the secrets are added after it, in
    /// `before_send`) sends to `serve`: nothing of them is stored.
    @Test func noSecretFromThePythonSDKReachesTheStore() throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let (_, _, dsn) = try server.addKey("shop")
        let plants = Plants()
        let script = """
            import sys
            import sentry_sdk

            def before_send(event, hint):
                event.setdefault("tags", {}).update({"api_key": "\(plants.marker("SDK tag api_key"))", "X-Session": "\(plants.marker("SDK tag X-Session"))", "shard": "eu-7"})
                event.setdefault("extra", {}).update({"note": "Bearer \(plants.marker("SDK extra Bearer"))", "card": "\(plants.card("SDK extra card"))"})
                event["request"] = {"method": "GET", "url": "https://shop.example/pay?token=\(plants.marker("SDK URL query"))",
                                    "headers": {"X-Api-Key": "\(plants.marker("SDK header X-Api-Key"))", "Referer": "https://shop.example/r?sessionid=\(plants.marker("SDK Referer"))"},
                                    "data": "user=bob&password=\(plants.marker("SDK form body"))"}
                return event

            sentry_sdk.init(dsn=sys.argv[1], before_send=before_send, default_integrations=False)
            try:
                raise ValueError("connect to postgres://app:\(plants.marker("SDK exception URL"))@db/shop failed, token=\(plants.marker("SDK exception token"))")
            except ValueError:
                sentry_sdk.capture_exception()
            sentry_sdk.flush()
            """
        let path = try cli.file("secrets_app.py", script)
        let python = PythonSDKTests.python
        try #require(FileManager.default.isExecutableFile(atPath: python), "run make setup: the SDK's .venv is missing")
        let run = try tool(python, path, dsn)
        #expect(run.status == 0, "\(run.stderr)")
        let deadline = Date().addingTimeInterval(20)
        while try ServeTests.storedIDs(cli).isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        _ = server.stop()
        try Self.expectNoSecret(cli, plants, kept: ["eu-7", "shop.example", "ValueError"])
    }
}

extension Date {
    /// ISO 8601 with milliseconds, as SDKs write `sent_at`.
    var iso8601: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: self)
    }
}
