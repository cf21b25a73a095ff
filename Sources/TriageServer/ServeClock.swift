import Foundation
import TriageModel

/// The server's one clock, injected everywhere it reads the time (tests give their own).
public struct ServeClock: Sendable {
    /// The wall-clock time: what is stamped on records and rows.
    public var now: @Sendable () -> Timestamp
    /// Seconds on a monotonic clock: what limits and timers measure.
    public var uptime: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Timestamp, uptime: @escaping @Sendable () -> Double) {
        self.now = now
        self.uptime = uptime
    }

    /// The system's clocks.
    public static let system = ServeClock(
        now: { Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) },
        uptime: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 })
}
