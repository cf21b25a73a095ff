import Testing
import TriageModel

/// Times as SDKs mean them (`EventTime`): a server corrects a sender's clock and clamps what no
/// clock could mean to the receipt; a file's times out of range are refused.
@Suite struct EventTimeTests {
    static let receipt = Timestamp.parse("2026-11-27T12:00:00Z")!

    @Test func aReceivedTimeInTheFutureOrBefore1970IsTheReceipt() {
        let future = Timestamp.parse("9999-12-31T23:59:59Z")!
        #expect(EventTime.received(future, drift: nil, receivedAt: Self.receipt) == (Self.receipt, .future))
        let ancient = Timestamp.parse("0001-01-01T00:00:00Z")!
        #expect(EventTime.received(ancient, drift: nil, receivedAt: Self.receipt) == (Self.receipt, .past))
        let soon = Self.receipt.adding(millis: 30_000)
        #expect(EventTime.received(soon, drift: nil, receivedAt: Self.receipt) == (soon, nil))
        let lastYear = Timestamp.parse("2025-11-27T12:00:00Z")!
        #expect(EventTime.received(lastYear, drift: nil, receivedAt: Self.receipt) == (lastYear, nil), "late, not wrong")
    }

    @Test func aSendersClockDriftMovesItsTimes() {
        // A phone a day ahead: its event and its sent_at both a day ahead.
        let sentAt = Self.receipt.adding(millis: Timestamp.millisPerDay)
        let drift = EventTime.drift(sentAt: sentAt, receivedAt: Self.receipt)
        #expect(drift == -Timestamp.millisPerDay)
        let event = sentAt.adding(millis: -5_000)
        #expect(EventTime.received(event, drift: drift, receivedAt: Self.receipt) == (Self.receipt.adding(millis: -5_000), .clockDrift))
        // A dead clock at 1970 on both.
        let dead = Timestamp(millis: 1_000)
        #expect(EventTime.received(Timestamp(millis: 500), drift: EventTime.drift(sentAt: dead, receivedAt: Self.receipt), receivedAt: Self.receipt)
                == (Self.receipt.adding(millis: -500), .clockDrift))
        #expect(EventTime.drift(sentAt: Self.receipt.adding(millis: -60_000), receivedAt: Self.receipt) == nil, "a minute is no drift")
    }

    @Test func aFilesTimesOutOfRangeAreRefusedWithTheReason() {
        #expect(EventTime.problem(Timestamp.parse("9999-01-01T00:00:00Z")!, field: "timestamp", ingestStarted: Self.receipt)
                == "timestamp 9999-01-01T00:00:00Z is more than a day after this ingest began (2026-11-27T12:00:00Z): a time in the future")
        #expect(EventTime.problem(Timestamp.parse("0001-01-01T00:00:00Z")!, field: "timestamp", ingestStarted: Self.receipt)
                == "timestamp 0001-01-01T00:00:00Z is before 1970")
        #expect(EventTime.problem(Timestamp.parse("2026-11-20T18:00:00Z")!, field: "timestamp", ingestStarted: Self.receipt) == nil)
        #expect(EventTime.problem(Timestamp.parse("1971-01-01T00:00:00Z")!, field: "timestamp", ingestStarted: Self.receipt) == nil)
    }
}
