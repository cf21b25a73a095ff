import Foundation
import TestSupport
import Testing
import TriageModel
@testable import TriageStore

/// A complaint sent with a project's key attaches to that project's events and issues only: a
/// key of one project cannot put complaints on another's issue by naming its event id or its
/// code. Both engines.
@Suite struct ProjectComplaintTests {
    typealias E = EventComplaintTests

    static func event(_ id: String, project: String?, codes: String = E.key) -> ErrorEvent {
        var event = E.event(id, codes: codes)
        event.project = project
        return event
    }

    static func report(_ id: String, about eventID: String?, project: String?, text: String = "it froze", codes: [String] = []) -> Complaint {
        var report = E.report(id, about: eventID, text: text)
        report.project = project
        report.codes = codes
        return report
    }

    @Test func aReportNamingAnotherProjectsEventStaysOffItsIssue() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", project: "shop")], complaints: [])
        _ = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r1", about: "e1", project: "admin")])
        #expect(try E.complaints(f).isEmpty)
        #expect(try E.ranking(f) == [E.key: 0])
        // Its own project's event with that id, when it comes, is its event.
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", project: "admin", codes: E.other)], complaints: [])
        #expect(try E.complaints(f, E.other).map(\.complaintID) == ["r1"])
        #expect(try E.complaints(f).isEmpty)
        #expect(try f.store.verify().isSound)
    }

    @Test func aReportOfTheEventsOwnProjectAttachesInEveryOrder() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", project: "shop")], complaints: [])
        _ = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r1", about: "e1", project: "shop")])
        #expect(try E.complaints(f).map(\.complaintID) == ["r1"])
        // Before its event: it waits for the event of its project, not another's of the same id.
        _ = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r2", about: "e2", project: "shop")])
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e2", project: "admin", codes: E.other)], complaints: [])
        #expect(try E.complaints(f, E.other).isEmpty)
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e2", project: "shop")], complaints: [])
        #expect(Set(try E.complaints(f).map(\.complaintID)) == ["r1", "r2"])
        // In one batch with its event.
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e3", project: "shop")], complaints: [Self.report("r3", about: "e3", project: "shop")])
        #expect(Set(try E.complaints(f).map(\.complaintID)) == ["r1", "r2", "r3"])
        #expect(try f.store.verify().isSound)
    }

    @Test func aReportWithoutAKeyStillTakesAnyEvent() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", project: "shop")], complaints: [Self.report("r1", about: "e1", project: nil)])
        #expect(try E.complaints(f).map(\.complaintID) == ["r1"])
    }

    @Test func theCodesAProjectsReportCitesCountForThatProjectsIssuesOnly() throws {
        let f = try TemporaryStore()
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e1", project: "shop"), Self.event("e2", project: "admin", codes: E.other)],
                                                   complaints: [])
        let words = "failed with \(E.key) and \(E.other)"
        _ = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r1", about: nil, project: "admin", text: words,
                                                                                        codes: [E.key, E.other])])
        #expect(try E.complaints(f).isEmpty)
        #expect(try E.complaints(f, E.other).map(\.complaintID) == ["r1"])
        // The same words through a support desk (no key) cite both.
        _ = try IngestWriter(store: f.store).write(events: [], complaints: [Self.report("r2", about: nil, project: nil, text: words,
                                                                                        codes: [E.key, E.other])])
        #expect(try E.complaints(f).map(\.complaintID) == ["r2"])
        // A new issue of the project in the same batch as the report citing it.
        let third = "US3-LO44-AP7-HT401"
        _ = try IngestWriter(store: f.store).write(events: [Self.event("e3", project: "admin", codes: third)],
                                                   complaints: [Self.report("r3", about: nil, project: "admin", text: third, codes: [third])])
        #expect(try E.complaints(f, third).map(\.complaintID) == ["r3"])
        #expect(try f.store.verify().isSound)
    }
}
