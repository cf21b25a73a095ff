import Foundation
import TestSupport
import Testing
import ThrowawayPostgres
import TriageImport
import TriageModel
@testable import TriageStore

/// A team store whose server goes away and comes back, on a cluster of its own (the run's shared
/// cluster stays up for every other test).
@Suite(.serialized) struct ServerFaultTests {
    @Test func aServerThatGoesAwayIsOneSentenceAndTheStoreReconnectsWhenItIsBack() throws {
        let cluster = try ThrowawayPostgres(port: 54331)
        let uri = try cluster.createDatabase()
        let store = try TriageStore(path: uri)
        let lines = TemporaryStore.sampleLines(events: 300)
        let writer = try IngestWriter(store: store)
        _ = try writer.write(events: lines.compactMap { line in
            if case .event(let e)? = try? NativeDecoder().decode(line: Array(line.utf8)) { return e }
            return nil
        }, complaints: [])
        let before = try store.revision()
        let now = TemporaryStore.sampleEnd
        let list = try store.issueList(IssueQuery(window: .all), now: now)

        try cluster.stop()
        let down = #expect(throws: StoreError.self) { try store.issueList(IssueQuery(window: .all), now: now) }
        #expect(down?.message.contains("[local]:54331/") == true, "\(down?.message ?? "")")
        #expect(down?.message.contains("\n") == false)
        #expect(throws: StoreError.self) { try store.revision() }
        // A mark cut off by the server's absence is not half there once it is back.
        #expect(throws: StoreError.self) { try store.mark(list.issues[0].key, .status(.muted, version: nil), by: "ana", at: now) }

        try cluster.start()
        #expect(try store.revision() == before)
        #expect(try store.issueList(IssueQuery(window: .all), now: now) == list)
        #expect(try store.verify().isSound)
    }
}
