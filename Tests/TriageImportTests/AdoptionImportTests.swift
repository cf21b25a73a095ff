import Foundation
import TestSupport
import Testing
import TriageImport
import TriageModel

@Suite struct AdoptionImportTests {
    func records(_ text: String) throws -> [RecordResult] {
        let folder = try TemporaryFolder()
        let reader = try RecordReader(path: try folder.file("in", text), source: nil)
        var results: [RecordResult] = []
        while let r = try reader.next() { results.append(r) }
        return results
    }

    @Test func anAdoptionCSVIsToldByItsHeaderAndReadPerRow() throws {
        let results = try records("date,version,users,sessions\n2026-11-19,1.13,26000,80000\n2026-11-19,1.12,9000,\n")
        guard case .record(2, .adoption(.daily(let day, "1.13", 26000, 80000))) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(day == Timestamp.parse("2026-11-19")!.day)
        guard case .record(3, .adoption(.daily(_, "1.12", 9000, nil))) = results[1] else { Issue.record("\(results[1])"); return }
    }

    @Test func aBadAdoptionRowIsRejectedWithItsReason() throws {
        let results = try records("Date,App Version,Active Users\n2026-11-19,1.13,many\nyesterday,1.13,5\n")
        guard case .rejected(2, let reason, _) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(reason == "users 'many' is not a count")
        guard case .rejected(3, let second, _) = results[1] else { Issue.record("\(results[1])"); return }
        #expect(second == "date 'yesterday' is not a date")
    }

    @Test func aFirebaseSessionRowIsASessionNotACrash() throws {
        let line = #"{"event_type":"SESSION_START","session_id":"abc","first_session_id":"abc","session_index":0,"installation_uuid":"inst-1","event_timestamp":"2026-11-19 08:00:00.000000 UTC","application":{"display_version":"1.13","build_version":"402"}}"#
        let results = try records(line + "\n")
        guard case .record(1, .adoption(.session("abc", let at, "1.13", "inst-1"))) = results[0] else { Issue.record("\(results[0])"); return }
        #expect(at == Timestamp.parse("2026-11-19T08:00:00Z"))
    }

    @Test func aSessionRowWithoutAnInstallationIsRejected() throws {
        let line = #"{"event_type":"SESSION_START","session_id":"abc","session_index":0,"event_timestamp":"2026-11-19T08:00:00Z","application":{"display_version":"1.13"}}"#
        guard case .rejected(1, let reason, _) = try records(line + "\n")[0] else { Issue.record("not rejected"); return }
        #expect(reason == "missing installation_uuid (or user_pseudo_id)")
    }
}
