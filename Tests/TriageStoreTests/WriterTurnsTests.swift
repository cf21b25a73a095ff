import Foundation
import GRDB
import Testing
import TestSupport
@testable import TriageStore

/// Writers of one SQLite file take turns (issue 49): a writer waits as long as the one holding
/// the file progresses, however long that is, says whom it waits for, gives up only on a holder
/// that does nothing, and gets its turn between a busy holder's transactions. Each store here
/// is its own connection pool, so they meet on SQLite's lock as two processes do.
@Suite struct WriterTurnsTests {
    /// A store on `path` whose waits give up after `stall` seconds without progress and are
    /// said after `notice`.
    static func store(_ path: String, stall: Double, notice: Double = 30) throws -> TriageStore {
        let store = try TriageStore(path: path)
        (store.engine as! SQLiteEngine).turns.limits.withLock {
            $0.stallSeconds = stall
            $0.noticeSeconds = notice
        }
        return store
    }

    /// A value threads share.
    final class Shared<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: T
        init(_ value: T) { self.value = value }
        func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
        func set(_ change: (inout T) -> Void) { lock.lock(); change(&value); lock.unlock() }
    }

    /// What this process said of its waits on `path`.
    final class Notices: Sendable {
        let said = Shared<[String]>([])
        init(_ path: String) {
            let said = said
            TriageStore.onWait { text in if text.contains(path) { said.set { $0.append(text) } } }
        }
        var all: [String] { said.get() }
    }

    /// Seconds on the monotonic clock.
    static func clock() -> Double { Double(WriterTurns.clock()) / 1_000 }

    @Test func aWriterWaitsAsLongAsTheHolderProgressesAndSaysForWhom() throws {
        let temporary = try TemporaryStore(sqlite: ())
        let holder = try TriageStore(path: temporary.path)
        let waiter = try Self.store(temporary.path, stall: 1, notice: 0.3)
        let notices = Notices(temporary.path)
        defer { TriageStore.onWait(nil) }
        let holding = DispatchSemaphore(value: 0)
        let done = Shared(false)
        // One transaction of three seconds, three times the waiter's patience, working all along
        // (statements long enough for SQLite's progress handler to see them).
        let thread = Thread {
            try? holder.write { db in
                holding.signal()
                let end = Self.clock() + 3
                while Self.clock() < end {
                    _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT COUNT(*) FROM c")
                }
                try TriageStore.setMeta(db, "holder", 1)
            }
            done.set { $0 = true }
        }
        thread.start()
        holding.wait()
        try waiter.setRetention(keepDays: 30)
        #expect(done.get(), "the waiter's write came after the holder's commit")
        #expect(try waiter.retention().keepDays == 30)
        #expect(try waiter.read { db in try TriageStore.meta(db, "holder") } == 1)
        #expect(notices.all.contains("waiting for \(temporary.path): errtriage (this process) is writing it"), "\(notices.all)")
    }

    @Test func aHolderThatDoesNothingIsGivenUpOnAndNamed() throws {
        let temporary = try TemporaryStore(sqlite: ())
        let waiter = try Self.store(temporary.path, stall: 1)
        // Another program (a plain SQLite connection) takes the write lock and sits on it.
        let other = try DatabaseQueue(path: temporary.path)
        let holding = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                holding.signal()
                Thread.sleep(forTimeInterval: 4)
                try db.execute(sql: "COMMIT")
            }
        }
        thread.start()
        holding.wait()
        let started = Self.clock()
        #expect {
            try waiter.setRetention(keepDays: 30)
        } throws: { error in
            "\(error)" == "\(temporary.path) stayed locked by another program, which did nothing with it for 1 s; try again once it is done"
        }
        #expect(Self.clock() - started < 4, "given up before the holder let go")
    }

    @Test func aWriterGetsItsTurnBetweenABusyHoldersTransactions() throws {
        let temporary = try TemporaryStore(sqlite: ())
        let holder = try TriageStore(path: temporary.path)
        let waiter = try Self.store(temporary.path, stall: 30)
        let stop = Shared(false), rounds = Shared(0), ranOut = Shared(false)
        // Back-to-back transactions, each working for a tenth of a second, until the waiter is
        // done (a minute at most: a waiter that never got in would find the holder gone by then).
        let thread = Thread {
            let end = Self.clock() + 60
            while !stop.get() {
                if Self.clock() > end {
                    ranOut.set { $0 = true }
                    break
                }
                try? holder.write { db in
                    let until = Self.clock() + 0.1
                    while Self.clock() < until { _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM meta") }
                }
                rounds.set { $0 += 1 }
            }
        }
        thread.start()
        while rounds.get() < 3 { Thread.sleep(forTimeInterval: 0.01) }
        let before = rounds.get()
        try waiter.setRetention(keepDays: 7)
        let during = rounds.get() - before
        stop.set { $0 = true }
        #expect(!ranOut.get(), "the waiter got in while the holder went on")
        // Let in at the holder's next commit, not after a hundred of them when a look of its
        // own happened to fall between two (as SQLite's busy handler alone would).
        #expect(during < 10, "the holder committed \(during) transactions while the waiter waited")
        #expect(try waiter.retention().keepDays == 7)
    }
}
