import ChildProcess
import Foundation
import TestSupport
import Testing

/// Issue 44's times from no clock and complaints across projects, on the real binary: a file's
/// years 9999 and 1 are refused with their lines while the rest is kept, and `check` and
/// `--now data` stay within the data; `serve` takes such times as Sentry does (the receipt time,
/// a sender's clock drift corrected); a key of one project cannot put complaints on another
/// project's issue by naming its event. Both engines.
@Suite(.serialized) struct ClientTimeTests {
    static func sentry(_ id: String, _ time: String, type: String = "TimeoutError") -> String {
        #"{"event_id":"\#(id)","timestamp":"\#(time)","platform":"python","level":"error","exception":{"values":[{"type":"\#(type)","value":"timed out"}]}}"#
    }

    @Test func aFilesTimesFromNoClockAreRefusedAndTheRestKept() throws {
        let cli = try CLI()
        let file = try cli.file("times.ndjson", [
            Self.sentry("0000000000000000000000000000a001", "9999-12-31T23:59:59Z"),
            Self.sentry("0000000000000000000000000000a002", "0001-01-01T00:00:00Z"),
            Self.sentry("0000000000000000000000000000a003", "2026-11-20T10:00:00Z"),
            #"{"complaint_id":"c1","timestamp":"9999-01-01T00:00:00Z","text":"it failed","codes":[]}"#,
        ].joined(separator: "\n"))
        let ingest = try cli.run(["ingest", file])
        #expect(ingest.status == 2, "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stderr.contains("times.ndjson:1: timestamp 9999-12-31T23:59:59Z is more than a day after this ingest began"), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("times.ndjson:2: timestamp 0001-01-01T00:00:00Z is before 1970"), "\(ingest.stderr)")
        #expect(ingest.stderr.contains("times.ndjson:4: the complaint's time 9999-01-01T00:00:00Z is more than a day"), "\(ingest.stderr)")
        let rejects = try String(contentsOfFile: cli.rejects, encoding: .utf8)
        #expect(rejects.contains("9999-12-31T23:59:59Z") && rejects.contains("0001-01-01"), "the refused lines are kept as they came")
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let report = try cli.run(["report", "--now", "data", "--format", "json"]).json
        #expect(report["now"] as? String == "2026-11-20T10:00:00Z")
    }

    @Test func serveTakesTimesAsSentryDoes() async throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let (key, project, _) = try server.addKey("shop")
        let before = Date()
        func envelope(_ id: String, _ time: String, sentAt: String? = nil) -> [UInt8] {
            Array((#"{"event_id":"\#(id)""# + (sentAt.map { #","sent_at":"\#($0)""# } ?? "") + "}\n" + #"{"type":"event"}"# + "\n"
                   + Self.sentry(id, time) + "\n").utf8)
        }
        #expect(try await ServeTests.post(server, key: key, project: project, body: envelope("0000000000000000000000000000b001", "9999-12-31T23:59:59Z")) == 200)
        #expect(try await ServeTests.post(server, key: key, project: project, body: envelope("0000000000000000000000000000b002", "0001-01-01T00:00:00Z")) == 200)
        // A phone whose clock is a day ahead: its event and its sent_at a day ahead.
        let ahead = Date().addingTimeInterval(86_400)
        #expect(try await ServeTests.post(server, key: key, project: project,
                                          body: envelope("0000000000000000000000000000b003", ahead.addingTimeInterval(-60).iso8601, sentAt: ahead.iso8601)) == 200)
        let metrics = try ChildProcess.run(["curl", "-s", "\(server.base)/metrics"]).stdout
        #expect(metrics.contains(#"errtriage_records_retimed_total{reason="future_timestamp"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"errtriage_records_retimed_total{reason="past_timestamp"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"errtriage_records_retimed_total{reason="clock_drift"} 1"#), "\(metrics)")
        _ = server.stop()
        let after = Date()
        let export = try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        var times: [String: Date] = [:]
        for line in export.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let text = try #require(event["timestamp"] as? String)
            times[event["event_id"] as! String] = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
        }
        #expect(times.count == 3)
        for (id, time) in times {
            #expect(time >= before.addingTimeInterval(-120) && time <= after.addingTimeInterval(60), "\(id) at \(time)")
        }
        #expect(try cli.run(["check"]).status == 0)
        let report = try cli.run(["report", "--now", "data", "--format", "json"]).json
        #expect((report["now"] as? String)?.hasPrefix("9999") == false, "\(report["now"] ?? "")")
    }

    /// A user report or feedback names an event: only an event of the key's own project.
    @Test func complaintsStayWithinTheirProject() async throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let shop = try server.addKey("shop"), admin = try server.addKey("admin")
        let id = "0000000000000000000000000000c001"
        let now = Date().iso8601
        let event = Array((#"{"event_id":"\#(id)"}"# + "\n" + #"{"type":"event"}"# + "\n" + Self.sentry(id, now, type: "PaymentError") + "\n").utf8)
        #expect(try await ServeTests.post(server, key: shop.key, project: shop.project, body: event) == 200)
        func report(_ comments: String) -> [UInt8] {
            let item = #"{"event_id":"\#(id)","name":"Eve","email":"eve@example.com","comments":"\#(comments)"}"#
            return Array((#"{"event_id":"\#(id)","sent_at":"\#(now)"}"# + "\n" + #"{"type":"user_report"}"# + "\n" + item + "\n").utf8)
        }
        func feedback(_ message: String) -> [UInt8] {
            let item = #"{"event_id":"0000000000000000000000000000c0f1","timestamp":"\#(now)","contexts":{"feedback":{"message":"\#(message)","associated_event_id":"\#(id)"}}}"#
            return Array((#"{"event_id":"0000000000000000000000000000c0f1","sent_at":"\#(now)"}"# + "\n" + #"{"type":"feedback"}"# + "\n" + item + "\n").utf8)
        }
        #expect(try await ServeTests.post(server, key: admin.key, project: admin.project, body: report("planted by another project")) == 200)
        #expect(try await ServeTests.post(server, key: admin.key, project: admin.project, body: feedback("planted feedback")) == 200)
        let issues = try SDKService.issues(cli)
        let key = try #require(issues.keys.first)
        #expect(issues[key]?["complaints"] as? Int == 0, "\(issues)")
        #expect(try await ServeTests.post(server, key: shop.key, project: shop.project, body: report("it froze while paying")) == 200)
        _ = server.stop()
        let show = try cli.run(["show", key, "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout
        #expect(show.contains("it froze while paying"), "\(show)")
        #expect(!show.contains("planted"), "\(show)")
        #expect(try SDKService.issues(cli)[key]?["complaints"] as? Int == 1)
    }
}
