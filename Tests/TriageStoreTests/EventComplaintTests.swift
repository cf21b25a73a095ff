import Foundation
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// Complaints about one event (a Sentry user report or feedback: `Complaint.eventID`) land on the
/// issue of the stored event with that id, on both engines: written after the event, in the same
/// batch, or before it (they wait, unattached, and attach when it lands).
@Suite struct EventComplaintTests {
    static let now = Timestamp.parse("2026-11-21T00:00:00Z")!
    static let key = "US14-LO43-AP7-NE8"
    static let other = "US2-NE2"

    static func event(_ id: String, _ time: String = "2026-11-20T10:00:00Z", codes: String = key) -> ErrorEvent {
        let links = (try? ShortKey.parse(codes))!.map { ChainLink(short: $0.short, code: $0.code) }
        return ErrorEvent(eventID: id, timestamp: Timestamp.parse(time)!, chain: ErrorChain(links: links), source: "test")
    }

    static func report(_ id: String, about eventID: String?, at time: String = "2026-11-20T10:05:00Z", text: String = "it froze") -> Complaint {
        Complaint(complaintID: id, timestamp: Timestamp.parse(time)!, channel: "sentry", category: "user_report", text: text,
                  codes: [], eventID: eventID)
    }

    static func complaints(_ f: TemporaryStore, _ key: String = key) throws -> [Complaint] {
        try f.store.issueDetail(key: key, window: .all, now: now).complaints
    }

    static func ranking(_ f: TemporaryStore) throws -> [String: Int] {
        let list = try f.store.issueList(IssueQuery(window: .all, mode: .complaints, filter: .all, top: 10), now: now)
        return Dictionary(uniqueKeysWithValues: list.issues.map { ($0.key, $0.complaints) })
    }

    @Test func aReportAboutAStoredEventIsOnThatEventsIssue() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        _ = try writer.write(events: [Self.event("e1"), Self.event("e2", codes: Self.other)], complaints: [])
        let counts = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r1", about: "e2")])
        #expect(counts.complaintsAdded == 1)
        #expect(try Self.complaints(f, Self.other).map(\.complaintID) == ["r1"])
        #expect(try Self.complaints(f, Self.other).first?.codes == [Self.other])
        #expect(try Self.complaints(f).isEmpty)
        #expect(try Self.ranking(f) == [Self.other: 1, Self.key: 0])
        #expect(try f.store.unlinkedComplaints(window: .all, now: Self.now).groups.isEmpty)
        #expect(try f.store.verify().isSound)
    }

    @Test func aReportInTheSameBatchAsItsEventIsOnItsIssue() throws {
        let f = try TemporaryStore()
        let counts = try IngestWriter(store: f.store).write(events: [Self.event("e1")], complaints: [Self.report("r1", about: "e1")])
        #expect(counts.eventsAdded == 1 && counts.complaintsAdded == 1)
        #expect(try Self.complaints(f).map(\.complaintID) == ["r1"])
        #expect(try Self.ranking(f) == [Self.key: 1])
        #expect(try f.store.verify().isSound)
    }

    @Test func aReportStampedLongAfterItsEventInTheSameBatchStillFindsIt() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", "2026-10-01T10:00:00Z")],
                                                   complaints: [Self.report("r1", about: "e1", at: "2026-11-20T10:00:00Z")])
        #expect(try Self.complaints(f).map(\.complaintID) == ["r1"])
    }

    @Test func aReportWhoseEventIsNotStoredWaitsUnattachedAndAttachesWhenTheEventComes() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1")], complaints: [Self.report("r1", about: "missing")])
        #expect(try Self.complaints(f).isEmpty)
        let unlinked = try f.store.unlinkedComplaints(window: .all, now: Self.now)
        #expect(unlinked.groups.map(\.category) == ["user_report"] && unlinked.groups.first?.count == 1)
        #expect(try f.store.verify().isSound)
        // A later ingest (a new writer, which reads what waits from the store) brings the event.
        let counts = try IngestWriter(store: f.store).write(events: [Self.event("missing", codes: Self.other)], complaints: [])
        #expect(counts.eventsAdded == 1)
        #expect(try Self.complaints(f, Self.other).map(\.complaintID) == ["r1"])
        #expect(try Self.complaints(f, Self.other).first?.codes == [Self.other])
        #expect(try Self.ranking(f)[Self.other] == 1)
        #expect(try f.store.unlinkedComplaints(window: .all, now: Self.now).groups.isEmpty)
        #expect(try f.store.verify().isSound)
    }

    @Test func theSameWriterAttachesAWaitingReportWhenItsEventLandsInALaterBatch() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        var batches = [IngestWriter.Batch(events: [], complaints: [Self.report("r1", about: "e9")]),
                       IngestWriter.Batch(events: [Self.event("e9")], complaints: [])]
        let counts = try writer.write(batches: { batches.isEmpty ? nil : batches.removeFirst() })
        #expect(counts.eventsAdded == 1 && counts.complaintsAdded == 1)
        #expect(try Self.complaints(f).map(\.complaintID) == ["r1"])
        #expect(try Self.ranking(f) == [Self.key: 1])
        #expect(try f.store.verify().isSound)
    }

    @Test func theSameReportTwiceIsStoredOnceAndCountedOnce() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        _ = try writer.write(events: [Self.event("e1")], complaints: [Self.report("r1", about: "e1")])
        let again = try writer.write(events: [], complaints: [Self.report("r1", about: "e1")])
        #expect(again.complaintsAdded == 0 && again.complaintDuplicates == 1)
        #expect(try Self.ranking(f) == [Self.key: 1])
        #expect(try f.store.verify().isSound)
    }

    /// One rule on both engines' write paths (row by row, COPY): a complaint counts once for each
    /// known issue it cites, never for the event it waits for, and a complaint id met twice in one
    /// batch is stored once.
    @Test func aMixedBatchOfComplaintsCountsEachForTheIssuesItCitesAndNoneForWhatItWaitsFor() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1"), Self.event("e2", codes: Self.other)], complaints: [])
        var waiting = Self.report("r2", about: "e9", text: "again \(Self.key)")
        waiting.codes = [Self.key]
        var unknown = Self.report("r3", about: nil, text: "ZZ9 broke")
        unknown.codes = ["ZZ9"]
        unknown.category = "support"
        let counts = try IngestWriter(store: f.store).write(events: [], complaints: [
            Self.report("r1", about: "e2"), waiting, unknown, Self.report("r1", about: "e1"),
        ])
        #expect(counts.complaintsAdded == 3 && counts.complaintDuplicates == 1)
        #expect(try Self.ranking(f) == [Self.key: 1, Self.other: 1])
        #expect(try Self.complaints(f).map(\.complaintID) == ["r2"])
        #expect(try f.store.unlinkedComplaints(window: .all, now: Self.now).groups.map(\.category) == ["support"])
        // The awaited event lands in the other issue: r2 counts there too, once.
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e9", codes: Self.other)], complaints: [])
        #expect(try Self.ranking(f) == [Self.key: 1, Self.other: 2])
        #expect(try Self.complaints(f, Self.other).map(\.complaintID).sorted() == ["r1", "r2"])
        #expect(try f.store.verify().isSound)
    }

    @Test func aReportWhoseWordsCiteItsOwnIssueIsCountedOnce() throws {
        let f = try TemporaryStore()
        var report = Self.report("r1", about: "e1", text: "error \(Self.key) again")
        report.codes = [Self.key]
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1")], complaints: [report])
        #expect(try Self.complaints(f).first?.codes == [Self.key])
        #expect(try Self.ranking(f) == [Self.key: 1])
        #expect(try f.store.verify().isSound)
    }

    @Test func sessionsOfOneSessionIdCountOnceAndUsersAreDistinctPerDay() throws {
        let f = try TemporaryStore()
        let writer = try IngestWriter(store: f.store)
        let at = Timestamp.parse("2026-11-20T09:00:00Z")!
        var batch = IngestWriter.Batch(events: [Self.event("e1")], complaints: [])
        batch.adoption = [.session(id: "s1", at: at, version: "1.4.0", installation: "u1"),
                          .session(id: "s1", at: at, version: "1.4.0", installation: "u1"),
                          .session(id: "s2", at: at, version: "1.4.0", installation: "u1"),
                          .session(id: "s3", at: at, version: "1.4.0", installation: "u2")]
        var pending: IngestWriter.Batch? = batch
        let counts = try writer.write(batches: { defer { pending = nil }; return pending })
        #expect(counts.sessionsAdded == 3 && counts.adoptionRows == 3)
        // The session's update, sent again later, changes nothing.
        batch.events = []
        batch.adoption = [.session(id: "s1", at: at, version: "1.4.0", installation: "u1")]
        pending = batch
        #expect(try writer.write(batches: { defer { pending = nil }; return pending }).sessionsAdded == 0)
        let active = try f.store.read { db in try TriageStore.activeUsers(db, days: nil) }
        #expect(active["1.4.0"] == [at.day: 2])
    }
}
