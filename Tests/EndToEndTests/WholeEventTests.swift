import Foundation
import Testing

/// Where it happened, as a newcomer with a Python service finds it: the events the real
/// sentry-python SDK sent (Tests/SDK/python_shop.py), through files and over HTTP, are kept
/// whole; `show --format json` lists an issue's kept events and `event ID` gives back the frames,
/// breadcrumbs, tags and extra the SDK wrote, the planted secret filtered. Both engines.
@Suite struct WholeEventTests {
    /// The KeyError of `catalog.setting`: the kept events, and the newest one's detail.
    static func keyErrorEvent(_ cli: CLI, sent: [SDKService.Sent]) throws -> (key: String, kept: [[String: Any]], event: [String: Any]) {
        let grouping = Grouping(sent, keys: try SDKService.keys(cli))
        let key = try #require(grouping.key("key-setting"))
        let show = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z", "--format", "json"])
        #expect(show.status == 0, "\(show.stderr)")
        let kept = try #require(show.json["kept_events"] as? [[String: Any]])
        let id = try #require(kept.first?["event_id"] as? String)
        let event = try cli.run(["event", id, "--format", "json"])
        #expect(event.status == 0, "\(event.stderr)")
        return (key, kept, event.json)
    }

    static func checkDetail(_ event: [String: Any], sent: [SDKService.Sent]) throws {
        #expect(event["source"] as? String == "sentry")
        #expect(event["release"] as? String == "pyshop@2.0.0")
        #expect(event["environment"] as? String == "production")
        #expect((event["sdk"] as? String)?.hasPrefix("sentry.python ") == true)
        let exceptions = try #require(event["exceptions"] as? [[String: Any]])
        #expect(exceptions.first?["type"] as? String == "KeyError")
        #expect(exceptions.first?["raised_at"] as? String == "pyshop/catalog.py:11 in setting")
        let frames = try #require(exceptions.first?["frames"] as? [[String: Any]])
        let inner = try #require(frames.first)
        #expect(inner["file"] as? String == "pyshop/catalog.py")
        #expect(inner["function"] as? String == "setting")
        #expect(inner["line"] as? Int == 11)
        #expect(inner["in_app"] as? Bool == true)
        #expect(inner["context_line"] as? String == "    return SETTINGS[key]")
        let tags = try #require(event["tags"] as? [String: String])
        #expect(["7", "8", "9"].contains(tags["shard"] ?? ""))
        let crumbs = try #require(event["breadcrumbs"] as? [[String: Any]])
        #expect(crumbs.contains { ($0["message"] as? String)?.hasPrefix("key-setting attempt ") == true && $0["category"] as? String == "shop" })
        let extra = try #require(event["extra"] as? [String: String])
        #expect(extra["api_token"] == "[Filtered]")
        let user = try #require(event["user"] as? [String: String])
        #expect(user["id"]?.hasPrefix("user-") == true)
        #expect(sent.contains { $0.eventID == event["event_id"] as? String })
    }

    @Test func thePythonSDKsEventsThroughFilesAreKeptWholeAndReadBack() throws {
        let cli = try CLI()
        let (file, sent) = try SDKService.python.capture(into: cli.temporary.path("sdk"))
        let ingest = try cli.run(["ingest", file])
        #expect(ingest.status == 0, "\(ingest.stdout)\(ingest.stderr)")
        let (key, kept, event) = try Self.keyErrorEvent(cli, sent: sent)
        // show names where the link was raised, and the title reads `Type: template`.
        let show = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        #expect(show.stdout.contains("    raised at pyshop/catalog.py:11 in setting\n"), "\(show.stdout)")
        // Recent events under their column names, a backend's empty columns left out; each kept event
        // marked and followed by the command that opens it, every line within 80 columns.
        let recent = try #require(show.stdout.components(separatedBy: "\nRecent events").last)
        #expect(recent.hasPrefix("   ◆ kept whole: the line under it opens it\n    TIME                VERSION      USER         MESSAGE\n"), "\(recent)")
        #expect(!recent.contains("DEVICE") && !recent.contains("NETWORK"))
        let keptIDs = kept.compactMap { $0["event_id"] as? String }
        for id in keptIDs { #expect(recent.contains("\n      errtriage event \(id)\n"), "\(recent)") }
        let marked = recent.split(separator: "\n").filter { $0.hasPrefix("  ◆ ") }
        #expect(marked.count == keptIDs.count)
        // The message is the exception's value, as the SDK sent it (`'theme_dark'`).
        #expect(marked.allSatisfy { $0.contains(" pyshop@2.0.0 ") && $0.contains(" user-") && $0.hasSuffix("'") }, "\(marked)")
        #expect(recent.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(recent)")
        let opened = try cli.run(["event", keptIDs[0]])
        #expect(opened.status == 0 && opened.stdout.contains("  > pyshop/catalog.py:11 in setting"))
        // Three events of one day and release: every one is kept (the first, the latest, the day's).
        #expect(kept.count == 3)
        #expect((kept.first?["kept_as"] as? [String])?.contains("latest") == true)
        try Self.checkDetail(event, sent: sent)

        // --raw is the envelope item as the SDK wrote it, the secret aside.
        let id = try #require(event["event_id"] as? String)
        let envelope = try String(contentsOfFile: file, encoding: .utf8)
        let item = try #require(envelope.split(separator: "\n").first { $0.hasPrefix("{") && $0.contains("\"event_id\":\"\(id)\"") && $0.contains("\"exception\"") })
        let raw = try cli.run(["event", id, "--raw"])
        #expect(raw.status == 0)
        let planted = try #require(item.firstMatch(of: /"api_token": ?"(PLANTED-SDK-TOKEN-\d)"/))
        #expect(raw.stdout == item.replacingOccurrences(of: "\"\(planted.1)\"", with: "\"[Filtered]\"") + "\n")
        #expect(!raw.stdout.contains(String(planted.1)))

        // The text names where it was raised and what came before.
        let text = try cli.run(["event", id])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Exception: KeyError: "))
        #expect(text.stdout.contains("  > pyshop/catalog.py:11 in setting"))
        #expect(text.stdout.contains("[shop]  info  key-setting attempt "))
        #expect(text.stdout.contains("  shard: "))

        // export --whole: the kept payloads of a window for a script, one JSON object a line.
        let export = try cli.run(["export", "--whole", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--key", key])
        #expect(export.status == 0, "\(export.stderr)")
        let rows = try export.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { (($0["payload"] as? [String: Any])?["exception"] as? [String: Any]) != nil && $0["issue"] as? String == key })
        #expect(!export.stdout.contains(String(planted.1)))

        let missing = try cli.run(["event", "no-such-event"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no event no-such-event is kept whole"))
    }

    @Test func thePythonSDKsEventsOverHTTPAreKeptWholeAndReadBack() throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let (_, _, dsn) = try server.addKey("shop")
        let sent = try SDKService.python.send(to: dsn, manifest: cli.temporary.path("sent.json"))
        // The day sample keeps the 1st and 2nd event at once; the 3rd takes the latest role when
        // the server is next quiet for two seconds (a busy server writes it every ten).
        var (_, kept, event) = try Self.keyErrorEvent(cli, sent: sent)
        let deadline = Date().addingTimeInterval(15)
        while kept.count < 3 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            (_, kept, event) = try Self.keyErrorEvent(cli, sent: sent)
        }
        #expect(kept.count == 3, "\(server.log)")
        #expect((kept.first?["kept_as"] as? [String])?.contains("latest") == true)
        try Self.checkDetail(event, sent: sent)
    }

    /// `serve --keep-whole` sets the store's sample as `ingest --keep-whole` does: by default the
    /// server keeps an event whole; with `none` it keeps no payload, and the setting holds for the
    /// next run that names none. Events posted with curl, read back through the CLI.
    @Test func serveKeepsWholeWhatItsOptionSays() throws {
        let cli = try CLI()
        let now = "2030-01-01T00:00:00Z"
        /// Posts one envelope with curl to a server started with `arguments`, then stops it; the event's issue key.
        func post(_ id: String, chain: Int, arguments: [String]) throws -> String {
            let server = try ServeTests.Server(cli, arguments: arguments)
            defer { #expect(server.stop().status == 0) }
            let (key, project, _) = try server.addKey("app-\(chain)")
            let body = try cli.file("\(id).envelope", String(decoding: ServeTests.envelope(id, chain: chain), as: UTF8.self))
            let posted = try tool("curl", "-sS", "-w", "\n%{http_code}", "-X", "POST", "--data-binary", "@\(body)",
                                  "-H", "X-Sentry-Auth: Sentry sentry_version=7, sentry_key=\(key)", "\(server.base)/api/\(project)/envelope/")
            #expect(posted.stdout.hasSuffix("\n200"), "\(posted.stdout)\(posted.stderr)\(server.log)")
            let report = try cli.run(["report", "--window", "all", "--now", now, "--query", "project:app-\(chain)", "--format", "json"]).json
            return try #require((report["issues"] as? [[String: Any]])?.first?["key"] as? String, "\(report)")
        }
        func kept(_ key: String) throws -> [String] {
            let show = try cli.run(["show", key, "--window", "all", "--now", now, "--format", "json"])
            return try #require(show.json["kept_events"] as? [[String: Any]]).compactMap { $0["event_id"] as? String }
        }
        let byDefault = "11111111111111111111111111111111", none = "22222222222222222222222222222222", after = "33333333333333333333333333333333"
        #expect(try kept(try post(byDefault, chain: 0, arguments: [])) == [byDefault])
        #expect(try cli.run(["event", byDefault]).stdout.contains("NetworkError"))
        #expect(try kept(try post(none, chain: 1, arguments: ["--keep-whole", "none"])) == [])
        #expect(try kept(try post(after, chain: 2, arguments: [])) == [], "the store's setting holds for the next run")
        for id in [none, after] {
            let missing = try cli.run(["event", id])
            #expect(missing.status == 1 && missing.stderr.contains("no event \(id) is kept whole"))
        }
        #expect(try ServeTests.storedIDs(cli) == [byDefault, none, after], "every event is counted, kept whole or not")
        let export = try cli.run(["export", "--whole", "--window", "all", "--now", now])
        #expect(export.stdout.split(separator: "\n").count == 1 && export.stdout.contains(byDefault), "\(export.stdout)")
        let bad = try cli.run(["serve", "--keep-whole", "some"])
        #expect(bad.status == 1 && bad.stderr.contains("--keep-whole takes a number of events a day, all or none, not 'some'"), "\(bad.stderr)")
    }
}
