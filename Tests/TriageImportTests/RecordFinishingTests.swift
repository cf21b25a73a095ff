import Foundation
import Testing
@testable import TriageImport
import TriageModel

/// Every record leaves the importers finished: its secrets scrubbed before grouping reads it, its
/// time taken against the receipt (a request) or refused (a file).
@Suite struct RecordFinishingTests {
    static func records(_ text: String, receivedAt: Timestamp? = nil, envelopes: Bool = false) throws -> (events: [ErrorEvent], complaints: [Complaint], rejections: [String], retimed: [EventTime.Adjustment: Int]) {
        let reader = try RecordReader(bytes: Array(text.utf8), name: "request", source: nil, receivedAt: receivedAt, envelopes: envelopes)
        var events: [ErrorEvent] = [], complaints: [Complaint] = [], rejections: [String] = []
        while let result = try reader.next() {
            switch result {
            case .record(_, .event(let e)): events.append(e)
            case .record(_, .complaint(let c)): complaints.append(c)
            case .record(_, .adoption): break
            case .rejected(let line, let reason, _): rejections.append("line \(line): \(reason)")
            }
        }
        return (events, complaints, rejections, reader.retimed)
    }

    static func sentry(_ id: String, value: String, time: String = "2026-11-20T10:00:00Z", extra: String = "") -> String {
        #"{"event_id":"\#(id)","timestamp":"\#(time)","platform":"python","level":"error","tags":{"api_key":"Zk70t","shard":"eu"},\#(extra)"exception":{"values":[{"type":"ValueError","value":"\#(value)"}]}}"#
    }

    /// Grouping reads the scrubbed text: two events that differ only in their token are one issue,
    /// and neither the chain's name nor a tag holds the token.
    @Test func secretsGoBeforeGroupingReadsTheEvent() throws {
        let read = try Self.records(Self.sentry("a1", value: "bad token=Zk70a for user") + "\n" + Self.sentry("a2", value: "bad token=Zk70b for user"))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.events.count == 2)
        #expect(read.events[0].chain == read.events[1].chain)
        #expect(read.events[0].chain.links.first?.name == "bad token=[Filtered] for user")
        #expect(read.events[0].message == "bad token=[Filtered] for user")
        #expect(read.events[0].customKeys.first { $0.key == "api_key" }?.value == "[Filtered]")
        #expect(read.events[0].customKeys.first { $0.key == "shard" }?.value == "eu")
        #expect(!String(decoding: read.events[0].payload ?? [], as: UTF8.self).contains("[Filtered]"),
                "the payload is the item as sent, scrubbed when the writer keeps it")
    }

    /// Every source: a native line's custom keys and message, read by the byte decoder.
    @Test func aNativeLineIsScrubbedToo() throws {
        let line = #"{"event_id":"n1","timestamp":"2026-11-20T10:00:00Z","codes":"US14-NE8","message":"retry with password=Zk71a","keys":{"X-Api-Key":"Zk71b","screen":"cart"}}"#
        let read = try Self.records(line)
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.events.first?.message == "retry with password=[Filtered]")
        #expect(read.events.first?.customKeys.map(\.value) == ["[Filtered]", "cart"])
    }

    /// A file's times out of range are refused with their line and reason; the rest is read.
    @Test func aFilesTimesFromNoClockAreRefused() throws {
        let lines = [Self.sentry("b1", value: "x", time: "9999-12-31T23:59:59Z"), Self.sentry("b2", value: "x", time: "0001-01-01T00:00:00Z"),
                     Self.sentry("b3", value: "x")]
        let read = try Self.records(lines.joined(separator: "\n"))
        #expect(read.events.map(\.eventID) == ["b3"])
        #expect(read.rejections.count == 2)
        #expect(read.rejections[0].hasPrefix("line 1: timestamp 9999-12-31T23:59:59Z is more than a day after this ingest began"))
        #expect(read.rejections[1] == "line 2: timestamp 0001-01-01T00:00:00Z is before 1970")
    }

    /// A request's times: the future and before 1970 become the receipt, a sender's clock drift
    /// (by the envelope's `sent_at`) moves its events; what was done is counted.
    @Test func aRequestsTimesAreTakenAgainstItsReceipt() throws {
        let receipt = Timestamp.parse("2026-11-27T12:00:00Z")!
        let read = try Self.records([Self.sentry("c1", value: "x", time: "9999-12-31T23:59:59Z"), Self.sentry("c2", value: "x", time: "0001-01-01T00:00:00Z"),
                                     Self.sentry("c3", value: "x", time: "2026-11-27T11:00:00Z")].joined(separator: "\n"), receivedAt: receipt)
        #expect(read.events.map(\.timestamp) == [receipt, receipt, Timestamp.parse("2026-11-27T11:00:00Z")!])
        #expect(read.retimed == [.future: 1, .past: 1])
        // A phone a day ahead: its sent_at and its event a day ahead.
        let envelope = #"{"event_id":"d1","sent_at":"2026-11-28T12:00:00Z"}"# + "\n" + #"{"type":"event"}"# + "\n"
            + Self.sentry("d1", value: "x", time: "2026-11-28T11:59:00Z") + "\n"
        let drifted = try Self.records(envelope, receivedAt: receipt, envelopes: true)
        #expect(drifted.events.map(\.timestamp) == [Timestamp.parse("2026-11-27T11:59:00Z")!])
        #expect(drifted.retimed == [.clockDrift: 1])
    }

    /// A user report's words are scrubbed as they are stored.
    @Test func aComplaintsWordsAreScrubbed() throws {
        let report = #"{"event_id":"0123456789abcdef0123456789abcdef","name":"Bob","email":"bob@example.com","comments":"my card 4111 1111 1111 1111 was charged, token=Zk72a"}"#
        let envelope = #"{"event_id":"0123456789abcdef0123456789abcdef","sent_at":"2026-11-20T10:00:00Z"}"# + "\n" + #"{"type":"user_report"}"# + "\n" + report + "\n"
        let read = try Self.records(envelope, envelopes: true)
        #expect(read.complaints.first?.text == "my card [Filtered] was charged, token=[Filtered]")
    }
}
