import ChildProcess
import Foundation
import TestSupport
import Testing
@testable import ErrorChainKit

/// The queue on disk: what is appended survives a reopening (a new launch), acknowledged records
/// never come back, a torn line is cut, the bounds drop the oldest records not in flight, and
/// every drop is told exactly once by an event's `reports_dropped`.
@Suite struct DiskQueueTests {
    static let roomy = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 1000, segmentBytes: 1 << 20)

    /// A line like the reporter's, carrying `dropped` when there is one.
    static func line(_ id: String, _ dropped: Int) -> [UInt8] {
        Array((dropped > 0 ? #"{"event_id":"\#(id)","keys":{"reports_dropped":"\#(dropped)"}}"# : #"{"event_id":"\#(id)"}"#).utf8) + [0x0A]
    }

    static func complaint(_ id: String) -> [UInt8] { Array(#"{"complaint_id":"\#(id)"}"#.utf8) + [0x0A] }

    /// Every queued record's line, oldest first, read as the sender reads them.
    static func lines(_ queue: DiskQueue) throws -> [String] {
        queue.condition.lock()
        let batch = queue.takeBatch(maxRecords: .max, maxBytes: .max) ?? []
        queue.release()
        queue.condition.unlock()
        return String(decoding: try queue.body(of: batch), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func append(_ queue: DiskQueue, _ ids: String...) throws {
        for id in ids { try queue.append(isEvent: true) { line(id, $0) } }
    }

    static func acknowledge(_ queue: DiskQueue, first n: Int) throws {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        _ = queue.takeBatch(maxRecords: n, maxBytes: .max)
        queue.acknowledge()
        try queue.saveState()
    }

    @Test func appendedRecordsSurviveAReopening() throws {
        let folder = try TemporaryFolder("errorchainkit")
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
            try Self.append(queue, "a", "b", "c")
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
        #expect(try Self.lines(reopened) == [#"{"event_id":"a"}"#, #"{"event_id":"b"}"#, #"{"event_id":"c"}"#])
    }

    @Test func acknowledgedRecordsDoNotComeBack() throws {
        let folder = try TemporaryFolder("errorchainkit")
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
            try Self.append(queue, "a", "b", "c")
            try Self.acknowledge(queue, first: 2)
            #expect(try Self.lines(queue) == [#"{"event_id":"c"}"#])
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
        #expect(try Self.lines(reopened) == [#"{"event_id":"c"}"#])
    }

    @Test func aTornLastLineIsCutOffAndTheNextRecordFollowsTheWholeOnes() throws {
        let folder = try TemporaryFolder("errorchainkit")
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
            try Self.append(queue, "a", "b")
        }
        // A crash in the middle of a write leaves part of a line.
        let segment = folder.path("q/0000000000000000.ndjson")
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"event_id":"to"#.utf8))
        handle.closeFile()
        let reopened = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
        try Self.append(reopened, "c")
        #expect(try Self.lines(reopened) == [#"{"event_id":"a"}"#, #"{"event_id":"b"}"#, #"{"event_id":"c"}"#])
    }

    @Test func pastTheCountTheOldestGoAndEachDropIsToldOnce() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let queue = try DiskQueue(directory: folder.path("q"), limits: .init(maxBytes: 1 << 20, maxRecords: 3, segmentBytes: 1 << 20))
        try Self.append(queue, "1", "2", "3", "4", "5", "6", "7")
        // 1, 2, 3 and 4 dropped: 4 carried one and 7, which dropped it, carries that one too.
        #expect(try Self.lines(queue) == [
            #"{"event_id":"5","keys":{"reports_dropped":"1"}}"#,
            #"{"event_id":"6","keys":{"reports_dropped":"1"}}"#,
            #"{"event_id":"7","keys":{"reports_dropped":"2"}}"#,
        ])
        queue.condition.lock()
        #expect(queue.state.droppedTotal == 4)
        queue.condition.unlock()
    }

    @Test func aComplaintCannotCarryTheCountSoTheNextEventDoesEvenAfterAReopening() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let limits = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 2, segmentBytes: 1 << 20)
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: limits)
            try Self.append(queue, "a", "b")
            try queue.append(isEvent: false) { _ in Self.complaint("c") }
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: limits)
        try Self.append(reopened, "d")
        #expect(try Self.lines(reopened) == [#"{"complaint_id":"c"}"#, #"{"event_id":"d","keys":{"reports_dropped":"2"}}"#])
    }

    @Test func aCountAnEventCarriedIsNotToldAgainAfterAReopening() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let limits = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 1, segmentBytes: 1 << 20)
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: limits)
            try Self.append(queue, "a", "b")
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: limits)
        try Self.append(reopened, "c")
        // b carried a's drop; c carries b's own and the one b carried: two, not three.
        #expect(try Self.lines(reopened) == [#"{"event_id":"c","keys":{"reports_dropped":"2"}}"#])
    }

    @Test func recordsInFlightAreNeverDroppedAndTheDroppedStayDroppedAfterAReopening() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let limits = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 2, segmentBytes: 1 << 20)
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: limits)
            try Self.append(queue, "a", "b")
            queue.condition.lock()
            #expect(queue.takeBatch(maxRecords: 1, maxBytes: .max)?.count == 1)  // a is being sent
            queue.condition.unlock()
            try Self.append(queue, "c")  // drops b, not a
            queue.condition.lock()
            queue.release()  // a's send failed: it stays
            queue.condition.unlock()
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: limits)
        #expect(try Self.lines(reopened) == [#"{"event_id":"a"}"#, #"{"event_id":"c","keys":{"reports_dropped":"1"}}"#])
    }

    @Test func pastTheByteBoundTheOldestGoToo() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let queue = try DiskQueue(directory: folder.path("q"), limits: .init(maxBytes: 200, maxRecords: 1000, segmentBytes: 1 << 20))
        for n in 0..<20 { try Self.append(queue, String(format: "%02d", n)) }
        let lines = try Self.lines(queue)
        #expect(lines.reduce(0) { $0 + $1.utf8.count + 1 } <= 200)
        #expect(lines.last?.hasPrefix(#"{"event_id":"19""#) == true)
    }

    @Test func segmentsWhollyAcknowledgedAreDeleted() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let queue = try DiskQueue(directory: folder.path("q"), limits: .init(maxBytes: 1 << 20, maxRecords: 1000, segmentBytes: 64))
        for n in 0..<30 { try Self.append(queue, String(format: "%02d", n)) }
        let segments = { try FileManager.default.contentsOfDirectory(atPath: folder.path("q")).filter { $0.hasSuffix(".ndjson") } }
        #expect(try segments().count > 5)
        try Self.acknowledge(queue, first: 30)
        #expect(try segments().count == 1)
        #expect(try Self.lines(queue).isEmpty)
    }

    @Test func segmentsACrashLeftBeforeTheCursorGoAtTheNextOpening() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let limits = DiskQueue.Limits(maxBytes: 1 << 20, maxRecords: 1000, segmentBytes: 64)
        let first = folder.path("q/0000000000000000.ndjson")
        do {
            let queue = try DiskQueue(directory: folder.path("q"), limits: limits)
            for n in 0..<10 { try Self.append(queue, String(format: "%02d", n)) }
            let kept = try Data(contentsOf: URL(fileURLWithPath: first))
            try Self.acknowledge(queue, first: 10)
            // The state was written and the app died before deleting the segment.
            try kept.write(to: URL(fileURLWithPath: first))
        }
        let reopened = try DiskQueue(directory: folder.path("q"), limits: limits)
        #expect(!FileManager.default.fileExists(atPath: first))
        #expect(try Self.lines(reopened).isEmpty)
    }

    @Test func aChildProcessStartedWhileTheQueueIsOpenDoesNotHoldIt() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let queue = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
        try Self.append(queue, "a")
        // A child inherits no file of the queue: its lock goes with the queue, not with the child.
        let child = try ChildProcess(["sleep", "30"], output: .discard)
        defer { child.signal(SIGKILL); child.wait() }
        queue.close()
        #expect(try Self.lines(DiskQueue(directory: folder.path("q"), limits: Self.roomy)) == [#"{"event_id":"a"}"#])
    }

    @Test func aSecondOpenerOfTheSameFolderIsRefused() throws {
        let folder = try TemporaryFolder("errorchainkit")
        let queue = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
        #expect(throws: QueueError.busy(folder.path("q"))) { try DiskQueue(directory: folder.path("q"), limits: Self.roomy) }
        queue.close()
        _ = try DiskQueue(directory: folder.path("q"), limits: Self.roomy)
    }
}
