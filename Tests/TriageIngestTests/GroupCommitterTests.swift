import Foundation
import TestSupport
import Testing
import TriageImport
import TriageIngest
import TriageModel
@testable import TriageStore

/// Group commit, as `errtriage serve` uses it: many callers, one transaction per group, an answer
/// only after the commit, and a store that fails and comes back.
@Suite struct GroupCommitterTests {
    static func batch(_ ids: Range<Int>, prefix: String = "g") throws -> IngestWriter.Batch {
        let lines = ids.map { TemporaryStore.event("\(prefix)\($0)", "2026-11-20T10:\(String(format: "%02d", $0 % 60)):00Z") }
        let reader = try RecordReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "test", source: nil)
        var batch = IngestWriter.Batch(events: [], complaints: [])
        try DecodedBatch.each(from: reader, size: .max) { decoded in
            batch.events += decoded.records.events
            return true
        }
        return batch
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var commits: [GroupCommitter.Commit] = []
        private var failures: [StoreError] = []
        func add(_ c: GroupCommitter.Commit) { lock.lock(); commits.append(c); lock.unlock() }
        func fail(_ e: StoreError) { lock.lock(); failures.append(e); lock.unlock() }
        var all: [GroupCommitter.Commit] { lock.lock(); defer { lock.unlock() }; return commits }
        var failed: [StoreError] { lock.lock(); defer { lock.unlock() }; return failures }
    }

    @Test func manyCallersShareCommitsAndEachIsAnsweredAfterItsOwn() async throws {
        let f = try TemporaryStore()
        let path = f.path
        let counter = Counter()
        let committer = GroupCommitter(open: { try TriageStore.open(path, for: .writing) },
                                       onCommit: { counter.add($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<64 {
                let batch = try Self.batch(caller * 5 ..< caller * 5 + 5)
                group.addTask {
                    try await committer.submit(batch)
                    // Answered: the events are in the store, whoever reads it.
                    let reader = try TriageStore.open(path, for: .checking)
                    var found = 0
                    try reader.exportEvents(window: .all, now: TemporaryStore.sampleEnd, key: nil) { e in
                        if e.eventID.hasPrefix("g"), let n = Int(e.eventID.dropFirst()), n / 5 == caller { found += 1 }
                    }
                    #expect(found == 5)
                }
            }
            try await group.waitForAll()
        }
        committer.close()
        let commits = counter.all
        #expect(commits.reduce(0) { $0 + $1.submissions } == 64)
        #expect(commits.reduce(0) { $0 + $1.counts.eventsAdded } == 320)
        #expect(commits.count < 64, "every caller had a commit of its own: no grouping")
        #expect(try f.store.verify().events == 320)
        #expect(try f.store.verify().isSound)
    }

    @Test func aGroupIsCappedAndTheRestFollowsInOrder() async throws {
        let f = try TemporaryStore()
        let path = f.path
        let counter = Counter()
        let committer = GroupCommitter(maxRecords: 10, open: { try TriageStore.open(path, for: .writing) },
                                       onCommit: { counter.add($0) })
        for i in 0..<6 { committer.submit(try Self.batch(i * 4 ..< i * 4 + 4)) { _ in } }
        committer.close()
        #expect(counter.all.allSatisfy { $0.records <= 10 })
        #expect(counter.all.reduce(0) { $0 + $1.records } == 24)
        #expect(try f.store.verify().events == 24)
    }

    /// A store that cannot be opened fails each group with its error; once it can, the next group
    /// is written: nothing of a failed group is kept, and no caller is left waiting.
    @Test func aFailingStoreFailsItsGroupAndTheNextOpensItAfresh() async throws {
        let f = try TemporaryStore()
        let path = f.path
        let broken = Flag()
        broken.value = true
        let counter = Counter()
        let committer = GroupCommitter(open: {
            if broken.value { throw StoreError("the store is gone") }
            return try TriageStore.open(path, for: .writing)
        }, onCommit: { counter.add($0) }, onFailure: { counter.fail($0) })
        await #expect(throws: StoreError.self) { try await committer.submit(try Self.batch(0..<3)) }
        broken.value = false
        try await committer.submit(try Self.batch(3..<6))
        committer.close()
        #expect(counter.failed.map(\.message) == ["the store is gone"])
        #expect(try f.store.verify().events == 3)
        await #expect(throws: StoreError.self) { try await committer.submit(try Self.batch(6..<7)) }
    }

    @Test func aRefusalBeforeTheWriteKeepsNothingAndTheStoreOpen() async throws {
        let f = try TemporaryStore()
        let path = f.path
        let full = Flag()
        let opened = Counter()
        full.value = true
        let committer = GroupCommitter(open: {
            opened.fail(StoreError("opened"))
            return try TriageStore.open(path, for: .writing)
        }, beforeCommit: { _ in if full.value { throw StoreError("the disk is at its floor") } })
        await #expect(throws: StoreError.self) { try await committer.submit(try Self.batch(0..<2)) }
        full.value = false
        try await committer.submit(try Self.batch(2..<4))
        try await committer.submit(try Self.batch(4..<6))
        committer.close()
        #expect(try f.store.verify().events == 4)
        #expect(opened.failed.count <= 2)
    }

    /// A store that refuses one value: a trigger on `term` (where every event's message goes),
    /// the closest a test comes to a value the store cannot take.
    static func poisoned(_ f: TemporaryStore) throws {
        try f.store.write { db in
            if TemporaryStore.onPostgres {
                try db.execute(sql: """
                    CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN
                      IF NEW.value = 'poison' THEN RAISE EXCEPTION 'the value poison is refused'; END IF; RETURN NEW;
                    END $$ LANGUAGE plpgsql
                    """)
                try db.execute(sql: "CREATE TRIGGER poison BEFORE INSERT ON term FOR EACH ROW EXECUTE FUNCTION poison()")
            } else {
                try db.execute(sql: """
                    CREATE TRIGGER poison BEFORE INSERT ON term WHEN NEW.value = 'poison'
                    BEGIN SELECT RAISE(ABORT, 'the value poison is refused'); END
                    """)
            }
        }
    }

    /// One caller's records that the store refuses fail that caller alone: the others of its
    /// group are written (in halves, down to the refused one) and answered with success.
    @Test func recordsTheStoreRefusesFailTheirOwnCallerAlone() async throws {
        let f = try TemporaryStore()
        try Self.poisoned(f)
        let path = f.path
        let counter = Counter()
        let committer = GroupCommitter(linger: 0.05, open: { try TriageStore.open(path, for: .writing) },
                                       onCommit: { counter.add($0) }, onFailure: { counter.fail($0) })
        // All submitted before the writer's linger ends: one group of 32.
        let outcomes = Outcomes()
        let done = DispatchGroup()
        for caller in 0..<32 {
            var batch = try Self.batch(caller * 5 ..< caller * 5 + 5)
            if caller == 13 { batch.events[2].message = "poison" }
            done.enter()
            committer.submit(batch) { result in
                if case .failure(let error) = result { outcomes.add(caller, error) }
                done.leave()
            }
        }
        done.wait()
        let failedCallers = outcomes.all
        committer.close()
        #expect(failedCallers.keys.sorted() == [13], "\(failedCallers)")
        #expect(failedCallers[13]?.isRefusedData == true)
        #expect(failedCallers[13]?.message.contains("poison") == true, "\(String(describing: failedCallers[13]))")
        #expect(counter.all.reduce(0) { $0 + $1.submissions } == 31)
        #expect(counter.failed.isEmpty, "a sender's refused data counted as the store failing")
        #expect(try f.store.verify().events == 31 * 5)
        #expect(try f.store.verify().isSound)
    }

    /// A store that fails every write fails the whole group with its error (a 503, not a
    /// refusal of anyone's data), after a bounded number of tries.
    @Test func aStoreFailingEveryWriteFailsTheGroupAfterBoundedTries() async throws {
        #expect(GroupCommitter.attemptBudget(1) == 2)
        #expect(GroupCommitter.attemptBudget(1_000) == 42)
        let f = try TemporaryStore()
        try f.store.write { db in
            if TemporaryStore.onPostgres {
                try db.execute(sql: "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$ LANGUAGE plpgsql")
                try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON term FOR EACH ROW EXECUTE FUNCTION refuse()")
            } else {
                try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON term BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
            }
        }
        let path = f.path
        let counter = Counter()
        let committer = GroupCommitter(linger: 0.05, open: { try TriageStore.open(path, for: .writing) },
                                       onFailure: { counter.fail($0) })
        let errors = try await withThrowingTaskGroup(of: StoreError?.self) { group in
            for caller in 0..<8 {
                let batch = try Self.batch(caller * 2 ..< caller * 2 + 2)
                group.addTask { do { try await committer.submit(batch); return nil } catch { return error as? StoreError ?? StoreError("\(error)") } }
            }
            return try await group.reduce(into: [StoreError?]()) { $0.append($1) }
        }
        #expect(committer.failing != nil)
        committer.close()
        #expect(errors.allSatisfy { $0 != nil && $0!.isRefusedData == false }, "\(errors)")
        #expect(!counter.failed.isEmpty)
        #expect(try f.store.verify().events == 0)
    }

    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [Int: StoreError] = [:]
        func add(_ caller: Int, _ error: StoreError) { lock.lock(); failures[caller] = error; lock.unlock() }
        var all: [Int: StoreError] { lock.lock(); defer { lock.unlock() }; return failures }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var v = false
        var value: Bool {
            get { lock.lock(); defer { lock.unlock() }; return v }
            set { lock.lock(); v = newValue; lock.unlock() }
        }
    }
}
