import Foundation

/// Events per second a key may send, as a token bucket: `perSecond` refill, `burst` at most in hand.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var perSecond: Double
    public var burst: Double

    public init(perSecond: Double, burst: Double? = nil) {
        self.perSecond = perSecond
        self.burst = burst ?? max(1, perSecond * 5)
    }

    /// `2000/s`, `120000/min`, `off`.
    public init?(parsing text: String) {
        let t = text.lowercased()
        if t == "off" || t == "none" { self.init(perSecond: .infinity); return }
        let parts = t.split(separator: "/", maxSplits: 1)
        guard let count = Double(parts[0]), count > 0, count.isFinite else { return nil }
        let per: Double
        switch parts.count == 2 ? String(parts[1]) : "s" {
        case "s", "sec", "second": per = 1
        case "m", "min", "minute": per = 60
        case "h", "hour": per = 3600
        default: return nil
        }
        self.init(perSecond: count / per)
    }

    public var isOff: Bool { perSecond.isInfinite }

    public var description: String {
        isOff ? "off" : perSecond >= 1 && perSecond == perSecond.rounded() ? "\(Int(perSecond))/s" : "\(Int((perSecond * 60).rounded()))/min"
    }
}

/// One bucket per key. `admit` takes `cost` tokens, or tells how long until they would be there.
public final class RateLimiter: @unchecked Sendable {
    private struct Bucket { var tokens: Double; var updated: Double }
    private let limit: RateLimit
    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]
    private let clock: @Sendable () -> Double

    public init(_ limit: RateLimit, clock: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }) {
        self.limit = limit
        self.clock = clock
    }

    /// Nil when admitted; else the whole seconds to wait (at least 1).
    public func admit(key: String, cost: Int = 1) -> Int? {
        guard !limit.isOff else { return nil }
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        var bucket = buckets[key] ?? Bucket(tokens: limit.burst, updated: now)
        bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
        bucket.updated = now
        let need = min(Double(cost), limit.burst)
        defer { buckets[key] = bucket }
        if bucket.tokens >= need {
            bucket.tokens -= need
            return nil
        }
        return max(1, Int(((need - bucket.tokens) / limit.perSecond).rounded(.up)))
    }

    /// Whether a key has nothing in hand now (checked before a body is read).
    public func isExhausted(key: String) -> Int? {
        guard !limit.isOff else { return nil }
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        guard let bucket = buckets[key] else { return nil }
        let tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
        return tokens >= 1 ? nil : max(1, Int(((1 - tokens) / limit.perSecond).rounded(.up)))
    }
}
