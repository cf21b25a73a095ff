import Foundation
import TriageModel

/// What every record goes through on its way out of the importers, whatever its source and path
/// (a file, a request's body, the store endpoint's event), so that nothing reaches the store
/// unscrubbed or at a time no clock could mean: its texts scrubbed (`SecretScrubber`: tags,
/// facets, messages, the chain's names, complaints' words) and its time taken as `EventTime` says,
/// by its clock.
public struct RecordFinishing: Sendable {
    /// Whose clock the times are taken against.
    public enum Clock: Sendable {
        /// Received by `serve` at this time: times are corrected and clamped to it.
        case received(at: Timestamp)
        /// Read from a file by an ingest that began at this time: times out of range are refused.
        case file(startedAt: Timestamp)
    }

    public var clock: Clock

    public init(clock: Clock) { self.clock = clock }

    /// For a file read now.
    public static func file() -> RecordFinishing {
        RecordFinishing(clock: .file(startedAt: Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))))
    }

    /// Scrubs the record and takes its time; `sentAt` is its envelope's, where it came in one.
    /// Returns what was done to a received time; throws where a file's time is refused.
    public func finish(_ record: inout ImportedRecord, sentAt: Timestamp?) throws(LineRejection) -> EventTime.Adjustment? {
        switch record {
        case .event(var event):
            SecretScrubber.scrub(&event)
            let adjustment = try take(&event.timestamp, field: "timestamp", sentAt: sentAt)
            record = .event(event)
            return adjustment
        case .complaint(var complaint):
            SecretScrubber.scrub(&complaint)
            let adjustment = try take(&complaint.timestamp, field: "the complaint's time", sentAt: sentAt)
            record = .complaint(complaint)
            return adjustment
        case .adoption(let adoption):
            switch adoption {
            case .session(let id, var at, let version, let installation):
                let adjustment = try take(&at, field: "the session's time", sentAt: sentAt)
                record = .adoption(.session(id: id, at: at, version: version, installation: installation))
                return adjustment
            case .daily(let day, let version, let users, let sessions):
                var time = Timestamp(millis: day * Timestamp.millisPerDay)
                // A day is taken as a whole: by its start, with a day's more room ahead.
                let adjustment = try take(&time, field: "the day", sentAt: nil, slack: Timestamp.millisPerDay)
                record = .adoption(.daily(day: time.day, version: version, users: users, sessions: sessions))
                return adjustment
            }
        }
    }

    private func take(_ time: inout Timestamp, field: String, sentAt: Timestamp?, slack: Int64 = 0) throws(LineRejection) -> EventTime.Adjustment? {
        switch clock {
        case .received(let receivedAt):
            let (taken, adjustment) = EventTime.received(time.adding(millis: -slack),
                                                         drift: EventTime.drift(sentAt: sentAt, receivedAt: receivedAt),
                                                         receivedAt: receivedAt)
            time = adjustment == nil ? time : taken
            return adjustment
        case .file(let startedAt):
            if let problem = EventTime.problem(time.adding(millis: -slack), field: field, ingestStarted: startedAt) {
                throw LineRejection(problem)
            }
            return nil
        }
    }
}
