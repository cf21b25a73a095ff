import Foundation
import Testing
@testable import TriageImport
import TriageModel

/// The envelope items besides events that errtriage keeps, in the shapes SDKs send: `session` and
/// `sessions` as sessions of installations per version, `user_report` and `feedback` as complaints
/// about the event they name. Read through `RecordReader` over a request's bytes, as `serve` and
/// `ingest` read them.
@Suite struct EnvelopeItemTests {
    static let eventID = "5a1c3e9f0b7d4e2a8c6f1d3b5e7a9c0d"
    static let header = #"{"event_id":"\#(eventID)","sent_at":"2026-11-20T10:05:00.500000Z","sdk":{"name":"sentry.python","version":"2.75.0"}}"#

    static func envelope(_ items: [(type: String, payload: String)], header: String = header) -> [UInt8] {
        Array((header + "\n" + items.map { #"{"type":"\#($0.type)","content_type":"application/json","length":\#($0.payload.utf8.count)}"# + "\n" + $0.payload + "\n" }
            .joined()).utf8)
    }

    struct Read {
        var adoption: [AdoptionRecord] = []
        var complaints: [Complaint] = []
        var events: [ErrorEvent] = []
        var rejections: [String] = []
        var skipped: [String: Int] = [:]
    }

    static func read(_ bytes: [UInt8], receivedAt: Timestamp? = nil) throws -> Read {
        let reader = try RecordReader(bytes: bytes, name: "request", source: nil, receivedAt: receivedAt)
        var read = Read()
        while let result = try reader.next() {
            switch result {
            case .record(_, .adoption(let record)): read.adoption.append(record)
            case .record(_, .complaint(let complaint)): read.complaints.append(complaint)
            case .record(_, .event(let event)): read.events.append(event)
            case .rejected(_, let reason, _): read.rejections.append(reason)
            }
        }
        read.skipped = reader.skippedItems
        return read
    }

    // MARK: - Sessions

    /// `Session.to_json` of the Python SDK: a session that ended after an error.
    static let session = #"{"sid":"c0ffee00-1234-4abc-8def-0123456789ab","init":true,"started":"2026-11-20T09:58:12.345678Z","#
        + #""timestamp":"2026-11-20T10:05:00.000000Z","status":"exited","errors":1,"did":"user-42","duration":407.7,"#
        + #""attrs":{"release":"shop@1.4.0+12","environment":"production"}}"#

    @Test func aSessionItemIsASessionOfItsUserInTheReleasesVersion() throws {
        let read = try Self.read(Self.envelope([("session", Self.session)]))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        #expect(read.adoption == [.session(id: "c0ffee0012344abc8def0123456789ab", at: Timestamp.parse("2026-11-20T09:58:12.345Z")!,
                                           version: "shop@1.4.0", installation: "user-42")])
        #expect(read.skipped.isEmpty)
    }

    @Test func anUpdateOfTheSameSessionIsTheSameSession() throws {
        let update = Self.session.replacingOccurrences(of: #""init":true,"#, with: "").replacingOccurrences(of: "exited", with: "ok")
        let read = try Self.read(Self.envelope([("session", Self.session)]) + Self.envelope([("session", update)]))
        #expect(read.adoption.count == 2 && Set(read.adoption.map { "\($0)" }).count == 1, "\(read.adoption)")
    }

    @Test func aSessionWithoutAUserIsItsOwnUser() throws {
        let anonymous = #"{"sid":"d1","init":true,"started":1794304800.5,"status":"ok","attrs":{"release":"2.0"}}"#
        let read = try Self.read(Self.envelope([("session", anonymous)]))
        #expect(read.adoption == [.session(id: "d1", at: Timestamp(epochSeconds: 1794304800.5)!, version: "2.0", installation: "d1")])
    }

    @Test func aSessionWithoutAReleaseIsRejectedAndTheNextItemIsRead() throws {
        let read = try Self.read(Self.envelope([("session", #"{"sid":"x","started":"2026-11-20T10:00:00Z","status":"ok"}"#),
                                                ("session", Self.session)]))
        #expect(read.rejections == ["envelope 1, item 1 (session): missing attrs.release"])
        #expect(read.adoption.count == 1)
    }

    /// `make_aggregate_envelope` of the Python SDK (request-mode sessions: no `did`), and buckets
    /// of a mobile SDK that names its users.
    @Test func aggregatesGiveOneSessionPerNamedUserAndDayAndBucketsWithoutAUserAreNoOne() throws {
        let aggregates = #"{"attrs":{"release":"shop@1.4.0","environment":"production"},"aggregates":["#
            + #"{"started":"2026-11-20T10:01:00.000000Z","exited":3,"errored":1},"#
            + #"{"started":"2026-11-20T10:01:00.000000Z","did":"u1","exited":2},"#
            + #"{"started":"2026-11-20T11:07:00.000000Z","did":"u1","crashed":1},"#
            + #"{"started":"2026-11-20T11:07:00.000000Z","did":"u2","abnormal":1}]}"#
        let read = try Self.read(Self.envelope([("sessions", aggregates)]))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        let installations = read.adoption.map { record -> String in
            guard case .session(_, _, let version, let installation) = record else { return "not a session" }
            return version + " " + installation
        }
        #expect(installations == ["shop@1.4.0 u1", "shop@1.4.0 u1", "shop@1.4.0 u2"])
        // u1 twice on one day is one session id: the store keeps it once.
        let ids = read.adoption.map { record -> String in
            guard case .session(let id, _, _, _) = record else { return "" }
            return id
        }
        #expect(Set(ids).count == 2)
        let anonymous = #"{"attrs":{"release":"shop@1.4.0"},"aggregates":[{"started":"2026-11-20T10:01:00Z","exited":5}]}"#
        let none = try Self.read(Self.envelope([("sessions", anonymous)]))
        #expect(none.adoption.isEmpty && none.rejections.isEmpty && none.skipped == ["sessions": 1])
    }

    @Test func aggregatesThatAreNotAnArrayAreRejected() throws {
        let read = try Self.read(Self.envelope([("sessions", #"{"attrs":{"release":"1.0"},"aggregates":{"started":"x"}}"#)]))
        #expect(read.rejections == ["envelope 1, item 1 (sessions): aggregates must be an array, found an object"])
    }

    // MARK: - User feedback

    /// A `user_report` as the SDKs' `capture_user_feedback` / crash-report dialogs send it.
    static let userReport = #"{"event_id":"5A1C3E9F-0B7D-4E2A-8C6F-1D3B5E7A9C0D","name":"Jane Roe","email":"jane@example.com","#
        + #""comments":"The app froze when I tapped Pay, error US14-LO43 again"}"#

    @Test func aUserReportIsAComplaintAboutItsEventThatKeepsTheEmailOnlyAsAHash() throws {
        let read = try Self.read(Self.envelope([("user_report", Self.userReport)]))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        let complaint = try #require(read.complaints.first)
        #expect(complaint.eventID == Self.eventID)
        #expect(complaint.text == "The app froze when I tapped Pay, error US14-LO43 again")
        #expect(complaint.timestamp == Timestamp.parse("2026-11-20T10:05:00.500Z"))
        #expect(complaint.channel == "sentry" && complaint.category == "user_report")
        #expect(complaint.userID == "email:" + StableHash.hex("jane@example.com"))
        #expect(complaint.codes == ["US14-LO43"])
        let all = "\(complaint)"
        #expect(!all.contains("jane@") && !all.contains("Jane Roe"))
    }

    @Test func theSameReportSentTwiceHasOneIdAndAnotherReportAnother() throws {
        let twice = try Self.read(Self.envelope([("user_report", Self.userReport)]) + Self.envelope([("user_report", Self.userReport)]))
        #expect(twice.complaints.count == 2 && Set(twice.complaints.map(\.complaintID)).count == 1)
        let other = Self.userReport.replacingOccurrences(of: "froze", with: "crashed")
        let both = try Self.read(Self.envelope([("user_report", Self.userReport), ("user_report", other)]))
        #expect(Set(both.complaints.map(\.complaintID)).count == 2)
    }

    @Test func aUserReportWithoutATimeTakesTheEnvelopesSentAtElseWhenItWasReceived() throws {
        let bare = #"{"dsn":"http://key@127.0.0.1:8000/1"}"#
        let received = Timestamp.parse("2026-11-21T08:00:00Z")!
        let read = try Self.read(Self.envelope([("user_report", Self.userReport)], header: bare), receivedAt: received)
        #expect(read.complaints.first?.timestamp == received)
        let none = try Self.read(Self.envelope([("user_report", Self.userReport)], header: bare))
        #expect(none.rejections == ["envelope 1, item 1 (user_report): no time: neither the item's timestamp nor the envelope's sent_at"])
    }

    @Test func aUserReportWithoutWordsIsRejected() throws {
        let empty = #"{"event_id":"\#(Self.eventID)","name":"","email":"","comments":""}"#
        let read = try Self.read(Self.envelope([("user_report", empty)]))
        #expect(read.rejections == ["envelope 1, item 1 (user_report): no comments: the report says nothing"])
    }

    /// A `feedback` item as the JavaScript SDK's `captureFeedback` sends it: an event of its own.
    static let feedback = #"{"type":"feedback","event_id":"f00dfeed00000000000000000000beef","timestamp":1794305100.25,"#
        + #""platform":"javascript","level":"info","release":"shop@1.4.0","environment":"production","#
        + #""user":{"id":"user-42","email":"jane@example.com"},"#
        + #""contexts":{"feedback":{"message":"Checkout spins forever\u001b[2J","contact_email":"jane@example.com","#
        + #""name":"Jane Roe","url":"https://shop.example.com/pay","source":"widget","associated_event_id":"\#(eventID)"},"#
        + #""trace":{"trace_id":"4c79f60c11214eb38604f4ae0781bfb2","span_id":"fa90fdead5f74052"}}}"#

    @Test func aFeedbackItemIsAComplaintAboutItsAssociatedEvent() throws {
        let read = try Self.read(Self.envelope([("feedback", Self.feedback)]))
        #expect(read.rejections.isEmpty, "\(read.rejections)")
        let complaint = try #require(read.complaints.first)
        #expect(complaint.complaintID == "sentry-feedback-f00dfeed00000000000000000000beef")
        #expect(complaint.eventID == Self.eventID)
        #expect(complaint.text == "Checkout spins forever\u{1B}[2J")  // kept as sent; outputs sanitise it
        #expect(complaint.timestamp == Timestamp(epochSeconds: 1794305100.25))
        #expect(complaint.category == "feedback" && complaint.userID == "user-42")
        #expect(!"\(complaint)".contains("jane@") && !"\(complaint)".contains("shop.example.com"))
    }

    @Test func feedbackWithoutAnAssociatedEventIsAComplaintAboutNoEvent() throws {
        let general = #"{"type":"feedback","event_id":"aa00000000000000000000000000000a","timestamp":"2026-11-20T10:00:00Z","#
            + #""contexts":{"feedback":{"message":"Love the new search","contact_email":"sam@example.com"}}}"#
        let complaint = try #require(try Self.read(Self.envelope([("feedback", general)])).complaints.first)
        #expect(complaint.eventID == nil && complaint.userID == "email:" + StableHash.hex("sam@example.com"))
    }

    @Test func theOtherItemsStayCountedAndUnstored() throws {
        let read = try Self.read(Self.envelope([
            ("attachment", "plain text log"), ("client_report", #"{"timestamp":1794305100,"discarded_events":[]}"#),
            ("transaction", #"{"type":"transaction"}"#), ("profile", "{}"), ("replay_event", "{}"), ("check_in", #"{"check_in_id":"x"}"#),
            ("statsd", "a:1|c"),
        ]))
        #expect(read.skipped == ["attachment": 1, "client_report": 1, "transaction": 1, "profile": 1, "replay_event": 1,
                                 "check_in": 1, "statsd": 1])
        #expect(read.adoption.isEmpty && read.complaints.isEmpty && read.events.isEmpty && read.rejections.isEmpty)
    }
}
