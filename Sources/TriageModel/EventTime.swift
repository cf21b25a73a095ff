/// When an event happened, as errtriage takes it from what a client says, so that no time from
/// a wrong clock (or a hostile one: year 9999, year 1) can stretch windows, `check`'s recount or
/// `--now data` beyond the data that is there.
///
/// **Received** (`serve`), as Sentry's Relay does: the receipt time is when the request came.
/// 1. A device whose clock is off: where the envelope's `sent_at` is `minimumDrift` or more away
///    from the receipt time, every time it sent is moved by that difference (a phone set a day
///    ahead sends its events a day ahead, and its `sent_at` too).
/// 2. A time more than `maxAhead` after the receipt time becomes the receipt time.
/// 3. A time before `earliest` becomes the receipt time.
/// Times older than the store's retention are not stored (the writer skips them and counts
/// them, `ingest` and `serve` alike); later times within it are kept as sent, since an app's queue
/// may send an offline week's events at once (Relay moves those older than 30 days to their
/// receipt).
///
/// **Read from a file** (`ingest`): a file is history, with no receipt time of its own; its
/// times are taken as they are, from `earliest` to `fileMaxAhead` after the moment the ingest
/// began. A time outside is refused with its line and the reason (the rest of the file is read),
/// so the sample with its fixed end date, a benchmark's and a history's import keep every event.
public enum EventTime {
    /// How far after its receipt an event's time may be (Relay's `max_secs_in_future`).
    public static let maxAhead: Int64 = 60_000
    /// A clock this far from the receipt time (by the envelope's `sent_at`) is corrected
    /// (Relay's minimum clock drift).
    public static let minimumDrift: Int64 = 55 * 60_000
    /// How far after the ingest began a file's time may be (a zone written wrongly, a clock a
    /// little ahead).
    public static let fileMaxAhead: Int64 = Timestamp.millisPerDay
    /// The earliest time taken: the Unix epoch, 1970-01-01T00:00:00Z.
    public static let earliest = Timestamp(millis: 0)

    /// What was done to a received time.
    public enum Adjustment: String, Sendable, CaseIterable {
        /// Moved by the sender's clock drift (`sent_at` against the receipt time).
        case clockDrift = "clock_drift"
        /// After the receipt time: set to it.
        case future = "future_timestamp"
        /// Before 1970: set to the receipt time.
        case past = "past_timestamp"
    }

    /// The sender's clock drift: what to add to each time it sent; nil where it is within `minimumDrift`.
    public static func drift(sentAt: Timestamp?, receivedAt: Timestamp) -> Int64? {
        guard let sentAt else { return nil }
        let drift = receivedAt.millis - sentAt.millis
        return abs(drift) >= minimumDrift ? drift : nil
    }

    /// A received time as the store takes it, and what was done to it (nil: taken as sent).
    public static func received(_ time: Timestamp, drift: Int64?, receivedAt: Timestamp) -> (Timestamp, Adjustment?) {
        var adjusted = time
        var adjustment: Adjustment?
        if let drift {
            adjusted = Timestamp(millis: time.millis + drift)
            adjustment = .clockDrift
        }
        if adjusted.millis > receivedAt.millis + maxAhead { return (receivedAt, .future) }
        if adjusted < earliest { return (receivedAt, .past) }
        return (adjusted, adjustment)
    }

    /// Why a time read from a file is refused (`field` names it); nil when it is taken.
    public static func problem(_ time: Timestamp, field: String, ingestStarted: Timestamp) -> String? {
        if time < earliest { return "\(field) \(time.iso8601) is before 1970" }
        if time.millis > ingestStarted.millis + fileMaxAhead {
            return "\(field) \(time.iso8601) is more than a day after this ingest began (\(ingestStarted.iso8601)): a time in the future"
        }
        return nil
    }
}
