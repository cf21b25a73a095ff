import ChildProcess
import Foundation
import TestSupport
import Testing
import TriageModel

/// The second hostile-traffic probe's findings (issue 44), each against the built binary on
/// loopback with curl or Python clients (`Tests/SDK/hostile_bounds.py`), and `ingest` where a
/// file reaches the same code; both engines where a store is involved. The loads are bounded in
/// count and time; peak memory is read from /proc (VmHWM) and /healthz is timed beside them —
/// printed, and held to generous bounds only where a defect would pass them many times over (its
/// goal, every answer within 100 ms, is measured and its figures are in docs/guide/serve.md: on a
/// shared two-core machine it does not hold reliably enough to assert).
@Suite(.serialized) struct HostileBoundsTests {
    typealias Server = ServeTests.Server

    static let script = CLI.packageRoot.appendingPathComponent("Tests/SDK/hostile_bounds.py").path

    /// Runs one of the probe's loads; its JSON report.
    static func probe(_ command: String, _ server: Server, _ options: [String: Any]) throws -> [String: Any] {
        let python = PythonSDKTests.python
        try #require(FileManager.default.isExecutableFile(atPath: python), "run make setup: the SDK's .venv is missing")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: options), as: UTF8.self)
        let run = try ChildProcess.run([python, script, command, String(server.port), json])
        try #require(run.status == 0, "\(run.stdout)\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    /// POSTs a file with curl: the status and the answer.
    static func curl(_ server: Server, _ path: String, file: String, headers: [String] = []) throws -> (status: Int, answer: String) {
        let run = try ChildProcess.run(["curl", "-sS", "-w", "\n%{http_code}", "--data-binary", "@\(file)"]
                                       + headers.flatMap { ["-H", $0] } + ["\(server.base)\(path)"])
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func auth(_ key: String) -> String { "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=\(key)" }

    /// The server's peak memory so far, from /proc.
    static func vmHWM(_ server: Server) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(server.process.pid)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    // MARK: - A client's number

    /// The 195 bytes that ended the server: a `sessions` aggregate whose `exited` is Int64's
    /// largest. Refused with its reason, item by item, the server living on; four counts at
    /// Sentry's limit are taken; `ingest` of the same file refuses the item (exit 2), not a trap.
    @Test func aSessionCountPastItsRangeIsRefusedWithItsReasonAndTheServerLives() throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        func sessions(_ counts: String) -> String {
            #"{"dsn":"http://\#(key)@127.0.0.1:\#(server.port)/\#(project)"}"# + "\n" + #"{"type":"sessions"}"# + "\n"
                + #"{"attrs":{"release":"a@1"},"aggregates":[{"started":"2026-11-20T10:00:00Z","did":"u",\#(counts)}]}"# + "\n"
        }
        let probe = try cli.file("sessions.envelope", sessions(#""exited":9223372036854775807,"errored":1"#))
        for _ in 0..<3 {
            let (status, answer) = try Self.curl(server, "/api/\(project)/envelope/", file: probe)
            #expect(status == 400 && answer.contains("bad-item") && answer.contains("at most 4294967295"), "\(status) \(answer)")
        }
        let negative = try cli.file("negative.envelope", sessions(#""exited":-1"#))
        #expect(try Self.curl(server, "/api/\(project)/envelope/", file: negative).answer.contains("must not be negative"))
        let edge = try cli.file("edge.envelope", sessions(#""exited":4294967295,"errored":4294967295,"abnormal":4294967295,"crashed":4294967295"#))
        #expect(try Self.curl(server, "/api/\(project)/envelope/", file: edge).status == 200)
        #expect(try tool("curl", "-sS", "\(server.base)/healthz").stdout == "ok\n")
        #expect(server.process.isRunning)
        let stopped = server.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("accepted 1 record "), "the edge's session: \(stopped.stderr)")

        let ingest = try cli.run(["ingest", probe])
        #expect(ingest.status == 2, "\(ingest.status) \(ingest.stderr)")
        #expect(ingest.stderr.contains("at most 4294967295"), "\(ingest.stderr)")
    }

    // MARK: - A compressed envelope's first line

    /// An envelope that names its key only in its header's DSN, compressed, inflating well past
    /// 16 KiB: its first line is read to its newline, the key found, the event stored.
    @Test(arguments: ["gzip", "deflate", "br"]) func aCompressedEnvelopeNamingItsKeyInItsDSNIsTakenWhateverItsSize(encoding: String) throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("browser")
        let id = "d5" + String(repeating: "0", count: 28) + String(encoding.count)
        let padding = (0..<6000).map { "word\($0 * 7919 % 10007)" }.joined(separator: " ")
        let event = #"{"event_id":"\#(id)","timestamp":"2026-11-24T10:00:00Z","platform":"javascript","level":"error","extra":{"padding":"\#(padding)"},"exception":{"values":[{"type":"TypeError","value":"x is undefined"}]}}"#
        let body = #"{"event_id":"\#(id)","dsn":"http://\#(key)@127.0.0.1:\#(server.port)/\#(project)","sdk":{"name":"sentry.javascript.browser"}}"#
            + "\n" + #"{"type":"event"}"# + "\n" + event + "\n"
        #expect(body.utf8.count > 32 << 10)
        let file = try cli.file("browser.envelope", body)
        let result = try Self.probe("compress", server, ["body": file, "encoding": encoding, "path": "/api/\(project)/envelope/"])
        #expect(result["status"] as? Int == 200, "\(result)")
        #expect(server.stop().status == 0)
        #expect(try ServeTests.storedIDs(cli) == [id])
    }

    // MARK: - Long chains

    /// An event of 4,000 chained exceptions: answered, its chain kept to 100 links (the 50
    /// outermost and the 50 innermost) with the count left out said, its key and `show` bounded,
    /// `errtriage event` showing the ends of its exceptions; an honest request after it is answered too.
    @Test func anEventOfFourThousandLinksIsKeptToItsEndsAndEveryOutputIsBounded() throws {
        let cli = try CLI()
        let server = try Server(cli, arguments: ["--keep-whole", "all"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("deep")
        let values = (0..<4000).map { #"{"type":"Layer\#($0)Error","value":"failed at layer \#($0)","mechanism":{"type":"chained","handled":true}}"# }
        let id = "de" + String(repeating: "e", count: 30)
        let event = #"{"event_id":"\#(id)","timestamp":"2026-11-24T10:00:00Z","platform":"python","level":"error","exception":{"values":[\#(values.joined(separator: ","))]}}"#
        let file = try cli.file("deep.envelope", #"{"event_id":"\#(id)"}"# + "\n" + #"{"type":"event"}"# + "\n" + event + "\n")
        let started = ChildProcess.clock()
        let (status, answer) = try Self.curl(server, "/api/\(project)/envelope/", file: file, headers: [Self.auth(key)])
        let took = ChildProcess.clock() - started
        #expect(status == 200, "\(answer)")
        let honest = try cli.file("honest.envelope", String(decoding: ServeTests.envelope("c0ffee" + String(repeating: "0", count: 26)), as: UTF8.self))
        let honestStarted = ChildProcess.clock()
        #expect(try Self.curl(server, "/api/\(project)/envelope/", file: honest, headers: [Self.auth(key)]).status == 200)
        print("a 4,000-link event answered in \(Int(took * 1000)) ms; an honest request after it in \(Int((ChildProcess.clock() - honestStarted) * 1000)) ms")
        #expect(server.stop().status == 0)

        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        let row = try #require(export.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.first { $0["event_id"] as? String == id })
        let shortKey = try #require(row["codes"] as? String, "\(row)")
        #expect(shortKey.split(separator: "-").count == 100, "\(shortKey.prefix(200))")
        #expect(shortKey.utf8.count < 2_000)
        #expect((row["keys"] as? [String: Any])?["exception_chain.links_left_out"] as? String == "3900", "\(row["keys"] ?? "")")
        // The 50 outermost links and the 50 innermost, the root cause last.
        let domains = (row["chain"] as? [[String: Any]] ?? []).compactMap { $0["domain"] as? String }
        #expect(domains.count == 100 && domains.first == "Layer3999Error" && domains[49] == "Layer3950Error"
                && domains[50] == "Layer49Error" && domains.last == "Layer0Error", "\(domains.prefix(3)) … \(domains.suffix(3))")

        let show = try cli.run(["show", shortKey, "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.utf8.count < 64 << 10, "show printed \(show.stdout.utf8.count) bytes")
        let indent = show.stdout.split(separator: "\n").map { (line: Substring) in line.prefix { $0 == " " }.count }.max() ?? 0
        #expect(indent <= 24, "an indent of \(indent)")
        let detail = try cli.run(["event", id])
        #expect(detail.status == 0, "\(detail.stderr)")
        #expect(detail.stdout.utf8.count < 64 << 10, "event printed \(detail.stdout.utf8.count) bytes")
        #expect(detail.stdout.contains("3,900 exceptions left out"), "\(detail.stdout.prefix(2000))")
        #expect(try cli.run(["check"]).status == 0)
    }

    // MARK: - Idle and trickling connections

    /// 1,100 connections without a key — half idle, half trickling a request's head a byte a
    /// second — from one address: keyed envelopes are still taken and /healthz still answers,
    /// each on a connection of its own; the trickling ones are closed at the head's deadline.
    /// Run twice: with the per-address bound (the attacker's own connections make room) and
    /// without it (the server-wide bound: the attacker's waiting connections make room).
    @Test(arguments: [false, true]) func idleAndTricklingConnectionsLockNoClientOut(perAddress: Bool) throws {
        let cli = try CLI()
        let server = try Server(cli, arguments: ["--idle-timeout", "4"] + (perAddress ? [] : ["--max-connections-per-address", "4096"]))
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let result = try Self.probe("idle", server, ["idle": 550, "trickle": 550, "seconds": 6, "key": key, "project": project,
                                                      "source": "127.0.0.2"])
        print("1,100 idle and trickling connections (\(perAddress ? "per-address bound" : "server-wide bound")): \(result)")
        let keyed = result["keyed"] as? [Any] ?? []
        #expect(!keyed.isEmpty && keyed.allSatisfy { $0 as? Int == 200 }, "\(result)")
        #expect(result["health_ok"] as? Int == result["health_count"] as? Int && (result["health_count"] as? Int ?? 0) > 10, "\(result)")
        #expect((result["health_max_ms"] as? Double ?? .infinity) < 2_000, "\(result)")
        #expect((result["closed_by_server"] as? Int ?? 0) >= 550, "\(result)")
        #expect(server.process.isRunning)
    }

    // MARK: - Memory in flight

    /// 64 concurrent gzip bombs of 1 MiB each with a valid key: each refused (too large to
    /// inflate, or past the memory budget), the server's peak memory within the budget and its
    /// own, and /healthz answering beside them.
    @Test func sixtyFourKeyedBombsStayWithinTheMemoryBudget() throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let bomb = cli.temporary.path("bomb.gz")
        let made = try tool("sh", "-c", "head -c 1100000000 /dev/zero | gzip -1 | head -c 1048576 > '\(bomb)'")
        try #require(made.status == 0, "\(made.stderr)")
        let baseline = Self.vmHWM(server) ?? 0
        let result = try Self.probe("bombs", server, ["key": key, "project": project, "count": 64, "body": bomb, "encoding": "gzip",
                                                       "path": "/api/\(project)/envelope/", "pid": Int(server.process.pid)])
        print("64 keyed 1 MiB bombs: \(result); VmHWM before \(baseline / 1024) MiB")
        let statuses = result["statuses"] as? [String: Int] ?? [:]
        #expect(statuses.values.reduce(0, +) == 64 && Set(statuses.keys).isSubset(of: ["400", "413", "503"]), "\(result)")
        let peak = try #require(result["vm_hwm_kib"] as? Int)
        // The budget (128 MiB) and the decoders' working memory (up to 64 MiB, docs/guide/serve.md)
        // over what the process held before; a budget that counted bytes in rather than memory
        // held took it past 430 MiB.
        #expect(peak < baseline + (128 + 64) * 1024, "VmHWM \(peak / 1024) MiB from \(baseline / 1024) MiB")
        #expect(result["health_ok"] as? Int == result["health_count"] as? Int && (result["health_count"] as? Int ?? 0) > 0, "\(result)")
        #expect((result["health_max_ms"] as? Double ?? .infinity) < 2_000, "\(result)")
        #expect(try tool("curl", "-sS", "\(server.base)/healthz").stdout == "ok\n")
    }

    /// One body of 400,000 small events under `--max-records-per-request 1000000`: its records
    /// would take far more memory than the budget, so it is refused (413) once they reach it,
    /// not decoded whole; then four such bodies at once, each refused (413 or 503). The peak
    /// stays within the budget and the decoders' working memory, /healthz answers beside them,
    /// and a request within the budget is taken.
    @Test func aBodyWhoseRecordsPassTheBudgetIsRefusedBeforeTheyAreAllDecoded() throws {
        let cli = try CLI()
        let server = try Server(cli, arguments: ["--max-records-per-request", "1000000", "--rate-limit", "off"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let lines = cli.temporary.path("lines.ndjson.gz")
        let made = try tool("python3", "-c", """
            import gzip
            with gzip.open('\(lines)', 'wt') as f:
                for n in range(400000):
                    f.write('{"event_id":"b%d","timestamp":"2026-11-24T10:00:00Z","codes":"US14-NE8"}\\n' % n)
            """)
        try #require(made.status == 0, "\(made.stderr)")
        let baseline = Self.vmHWM(server) ?? 0
        let one = try Self.probe("bombs", server, ["key": key, "project": project, "count": 1, "body": lines, "encoding": "gzip",
                                                    "path": "/api/\(project)/events", "pid": Int(server.process.pid)])
        print("one 400,000-event body: \(one); VmHWM before \(baseline / 1024) MiB")
        #expect(one["statuses"] as? [String: Int] == ["413": 1], "\(one)")
        #expect((one["answers"] as? [String])?.first?.contains("--max-in-flight") == true, "\(one)")
        let result = try Self.probe("bombs", server, ["key": key, "project": project, "count": 4, "body": lines, "encoding": "gzip",
                                                       "path": "/api/\(project)/events", "pid": Int(server.process.pid)])
        print("four 400,000-event bodies at once: \(result); VmHWM before \(baseline / 1024) MiB")
        let statuses = result["statuses"] as? [String: Int] ?? [:]
        // Each refused: 413 for one that reached the whole budget alone, 503 for those that shared it.
        #expect(statuses.values.reduce(0, +) == 4 && Set(statuses.keys).isSubset(of: ["413", "503"]), "\(result)")
        #expect((result["answers"] as? [String])?.allSatisfy { $0.contains("--max-in-flight") || $0.contains("overloaded") } == true,
                "\(result)")
        let peak = try #require(result["vm_hwm_kib"] as? Int)
        // The budget and the decoders' working memory (docs/guide/serve.md: up to 64 MiB more;
        // measured 129–169 MiB past the start, one body alone 106 MiB).
        #expect(peak < baseline + (128 + 64) * 1024, "VmHWM \(peak / 1024) MiB from \(baseline / 1024) MiB")
        #expect(result["health_ok"] as? Int == result["health_count"] as? Int && (result["health_count"] as? Int ?? 0) > 0, "\(result)")
        #expect((result["health_max_ms"] as? Double ?? .infinity) < 2_000, "\(result)")
        let small = try cli.file("small.ndjson", (0..<2000).map { #"{"event_id":"s\#($0)","timestamp":"2026-11-24T10:00:00Z","codes":"US14-NE8"}"# }
            .joined(separator: "\n"))
        #expect(try Self.curl(server, "/api/\(project)/events", file: small, headers: [Self.auth(key)]).status == 200)
        #expect(server.stop().status == 0)
        let stored = try ServeTests.storedIDs(cli)
        #expect(!stored.contains { $0.hasPrefix("b") } && stored.filter { $0.hasPrefix("s") }.count == 2000)
    }

    // MARK: - The minor points

    /// A body that stalls mid-upload is answered `408 body-timeout` at `--body-timeout`; one
    /// whose Content-Length is over the limit is answered 413 before anything of it is read.
    @Test func aStalledBodyIsAnswered408AndAnOversizedOneAtOnce() throws {
        let cli = try CLI()
        let server = try Server(cli, arguments: ["--body-timeout", "2"])
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let stalled = try Self.probe("stall", server, ["key": key, "project": project, "sent": 100, "declared": 5000, "wait": 20])
        #expect(stalled["status"] as? Int == 408 && (stalled["answer"] as? String)?.contains("body-timeout") == true, "\(stalled)")
        print("a stalled body: \(stalled)")
        let declared = try Self.probe("declared", server, ["key": key, "project": project, "declared": 50_000_000, "wait": 10])
        #expect(declared["status"] as? Int == 413 && (declared["answer"] as? String)?.contains("Content-Length") == true, "\(declared)")
        print("a Content-Length of 50 MB: \(declared)")
    }

    // MARK: - Tags without bound

    /// 300 events with 1,000 distinct tag keys each, ingested: each keeps 50 tags and says how
    /// many it left out; the issue counts the first 100 keys (the first two events') and folds
    /// the tags of the 298 others, which say so; `show` names the 20 tags on the most events, how
    /// many more there are, and the folded events; its output, `check` and the store stay small,
    /// and 300 more such events add only their own rows.
    @Test func eventsOfAThousandTagsKeepFiftyAndEveryOutputIsBounded() throws {
        let cli = try CLI()
        func events(_ range: Range<Int>) throws -> String {
            var lines: [String] = []
            for n in range {
                let tags = (0..<1000).map { #""k\#(n)_\#($0)":"value \#(n * 1000 + $0)""# }.joined(separator: ",")
                lines.append(#"{"event_id":"\#(String(format: "%032x", 0xa9000 + n))","timestamp":"2026-11-24T10:\#(String(format: "%02d", n % 60)):00Z","platform":"python","level":"error","tags":{\#(tags)},"exception":{"values":[{"type":"ShardError","value":"shard down"}]}}"#)
            }
            return try cli.file("tags\(range.lowerBound).ndjson", lines.joined(separator: "\n") + "\n")
        }
        let ingest = try cli.run(["ingest", "--source", "sentry", try events(0..<300)])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        let rows = export.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(rows.count == 300)
        let keys = rows.map { $0["keys"] as? [String: String] ?? [:] }
        #expect(keys.allSatisfy { $0["tags.left_out"] == "950" })
        let folded = keys.filter { $0["tags.folded"] == "50" }
        #expect(folded.count == 298 && folded.allSatisfy { $0.count == 2 }, "\(folded.count) events folded")
        #expect(Set(keys.flatMap { $0.keys }.filter { $0.hasPrefix("k") }).count == 100)
        let issue = try #require(rows.first?["codes"] as? String)
        let show = try cli.run(["show", issue, "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        #expect(show.stdout.utf8.count < 32 << 10, "show printed \(show.stdout.utf8.count) bytes")
        #expect(show.stdout.contains("80 more tags not shown"), "\(show.stdout.suffix(3000))")
        #expect(show.stdout.contains("Tags folded (keys past 100 an issue, 1000 a project)"), "\(show.stdout.suffix(3000))")
        let json = try cli.run(["show", issue, "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        #expect(json["more_tags"] as? Int == 80 && (json["facets"] as? [Any])?.count == 21, "\(json["more_tags"] ?? "")")
        let foldedFacet = (json["facets"] as? [[String: Any]] ?? []).first { $0["facet"] as? String == "tags.folded" }
        #expect("\(foldedFacet ?? [:])".contains("298"), "\(foldedFacet ?? [:])")
        // 300 more events of new keys: no new key is counted.
        let before = TemporaryStore.onPostgres ? 0 : (try? FileManager.default.attributesOfItem(atPath: cli.store)[.size] as? Int) ?? 0
        #expect(try cli.run(["ingest", "--source", "sentry", try events(300..<600)]).status == 0)
        let again = try cli.run(["show", issue, "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"]).json
        #expect(again["more_tags"] as? Int == 80 && (again["facets"] as? [Any])?.count == 21, "\(again["more_tags"] ?? "")")
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        print("600 events of 1,000 tags: show \(show.stdout.utf8.count) bytes, check peak RSS \(check.maxRSSKiB / 1024) MiB")
        if !TemporaryStore.onPostgres {
            let size = (try? FileManager.default.attributesOfItem(atPath: cli.store)[.size] as? Int) ?? 0
            print("  store \(before / 1024) KiB for 300 events, \(size / 1024) KiB for 600")
        }
    }

    /// Twelve issues of two events with 50 new tag keys each (1,200 keys in all, 100 an issue):
    /// the project counts the first 1,000 and the last two issues' events fold theirs and say
    /// so — from a file (`ingest --project`) and through `serve` with a key (its own project,
    /// which counts its own 1,000); `show` names the fold and `check` agrees.
    @Test func aProjectCountsItsFirstThousandTagKeysAcrossItsIssues() throws {
        let cli = try CLI()
        func event(_ prefix: Int, _ issue: Int, _ half: Int) -> String {
            let tags = (0..<50).map { #""k\#(issue)_\#(half * 50 + $0)":"v""# }.joined(separator: ",")
            return #"{"event_id":"\#(String(format: "%032x", prefix << 16 + issue << 4 + half))","timestamp":"2026-11-24T10:\#(String(format: "%02d", issue * 2 + half)):00Z","platform":"python","level":"error","tags":{\#(tags)},"exception":{"values":[{"type":"Shard\#(issue)Error","value":"shard \#(issue) down"}]}}"#
        }
        let file = try cli.file("keys.ndjson", (0..<12).flatMap { issue in (0..<2).map { event(0xa1, issue, $0) } }.joined(separator: "\n") + "\n")
        let ingest = try cli.run(["ingest", "--source", "sentry", "--project", "shop", file])
        #expect(ingest.status == 0, "\(ingest.stderr)")

        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        for issue in 0..<12 {
            for half in 0..<2 {
                let body = try cli.file("e\(issue)_\(half).envelope", #"{}"# + "\n" + #"{"type":"event"}"# + "\n" + event(0xa2, issue, half) + "\n")
                let (status, answer) = try Self.curl(server, "/api/\(project)/envelope/", file: body, headers: [Self.auth(key)])
                #expect(status == 200, "\(answer)")
            }
        }
        #expect(server.stop().status == 0)

        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        let rows = export.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        #expect(rows.count == 48)
        for prefix in ["a1", "a2"] {
            let mine = rows.filter { ($0["event_id"] as? String)?.hasPrefix(String(repeating: "0", count: 26) + prefix) == true }
            let keys = mine.map { $0["keys"] as? [String: String] ?? [:] }
            #expect(Set(keys.flatMap { $0.keys }.filter { $0.hasPrefix("k") }).count == 1_000, "\(prefix)")
            let folded = keys.filter { $0["tags.folded"] == "50" }
            #expect(mine.count == 24 && folded.count == 4 && folded.allSatisfy { $0.count == 1 }, "\(prefix): \(folded.count) events folded")
        }
        let last = try #require(rows.first { ($0["keys"] as? [String: String])?["tags.folded"] != nil }?["codes"] as? String)
        let show = try cli.run(["show", last, "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        #expect(show.stdout.contains("Tags folded (keys past 100 an issue, 1000 a project)"), "\(show.stdout.suffix(2000))")
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    // MARK: - Events without a time

    /// An event without `timestamp` (nor `received`) is taken, as Relay takes it: posted alone
    /// to `/store/` it happened when it came; in an envelope, when the envelope was sent
    /// (`sent_at`), else when it came. `ingest` of a file does the same for an envelope with
    /// `sent_at`, and refuses such a line without one (a file has no receipt time).
    @Test func anEventWithoutATimestampTakesItsReceiptOrItsEnvelopesTime() throws {
        let cli = try CLI()
        let server = try Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("app")
        let sentAt = Timestamp(millis: (Int64(Date().timeIntervalSince1970) - 20) * 1000)
        func event(_ id: String) -> String {
            #"{"event_id":"\#(id)","platform":"python","level":"error","exception":{"values":[{"type":"ClockError","value":"no time"}]}}"#
        }
        let started = Date()
        let alone = try cli.file("alone.json", event("c1" + String(repeating: "0", count: 30)))
        let (status, answer) = try Self.curl(server, "/api/\(project)/store/", file: alone, headers: [Self.auth(key)])
        #expect(status == 200, "\(answer)")
        let sent = try cli.file("sent.envelope", #"{"sent_at":"\#(sentAt.iso8601)"}"# + "\n" + #"{"type":"event"}"# + "\n"
                                + event("c2" + String(repeating: "0", count: 30)) + "\n")
        #expect(try Self.curl(server, "/api/\(project)/envelope/", file: sent, headers: [Self.auth(key)]).status == 200)
        let bare = try cli.file("bare.envelope", #"{}"# + "\n" + #"{"type":"event"}"# + "\n" + event("c3" + String(repeating: "0", count: 30)) + "\n")
        #expect(try Self.curl(server, "/api/\(project)/envelope/", file: bare, headers: [Self.auth(key)]).status == 200)
        let ended = Date()
        #expect(server.stop().status == 0)

        let fileEnvelope = try cli.file("file.envelope", #"{"sent_at":"2026-11-24T09:00:00Z"}"# + "\n" + #"{"type":"event"}"# + "\n"
                                        + event("c4" + String(repeating: "0", count: 30)) + "\n")
        #expect(try cli.run(["ingest", fileEnvelope]).status == 0)
        let line = try cli.file("line.ndjson", event("c5" + String(repeating: "0", count: 30)) + "\n")
        let refused = try cli.run(["ingest", "--source", "sentry", line])
        #expect(refused.stderr.contains("missing timestamp"), "\(refused.status) \(refused.stderr)")

        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        var times: [String: Double] = [:]
        for row in export.split(separator: "\n").compactMap({ (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }) {
            if let id = row["event_id"] as? String, let time = (row["timestamp"] as? String).flatMap(Timestamp.parse) {
                times[String(id.prefix(2))] = Double(time.millis) / 1000
            }
        }
        #expect(times.count == 4, "\(times)")
        for id in ["c1", "c3"] {
            let time = times[id] ?? 0
            #expect(time >= started.timeIntervalSince1970 - 1 && time <= ended.timeIntervalSince1970 + 1, "\(id) at \(time)")
        }
        #expect(times["c2"] == Double(sentAt.millis) / 1000, "\(times)")
        #expect(times["c4"] == Double(Timestamp.parse("2026-11-24T09:00:00Z")!.millis) / 1000, "\(times)")
    }
}
