import Synchronization

/// Events per second a key may send, as a token bucket: `perSecond` refill, `burst` at most in hand.
///
/// The burst is what a key that was quiet may send at once: `burstSeconds` (10) seconds' worth
/// of its rate — 10,000 records at the default 1000/s, 1,000 at `--rate-limit 100/s` — after
/// which it is held to the rate itself.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var perSecond: Double
    public var burst: Double
    /// Seconds of the rate a key may send at once.
    public static let burstSeconds: Double = 10

    public init(perSecond: Double, burst: Double? = nil) {
        self.perSecond = perSecond
        self.burst = burst ?? max(1, perSecond * RateLimit.burstSeconds)
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

/// One bucket per key: every record a request carries takes a token.
public final class RateLimiter: Sendable {
    private struct Bucket { var tokens: Double; var updated: Double }
    private let limit: RateLimit
    private let buckets = Mutex([String: Bucket]())
    private let uptime: @Sendable () -> Double

    public init(_ limit: RateLimit, clock: ServeClock = .system) {
        self.limit = limit
        self.uptime = clock.uptime
    }

    /// What a request of `count` records may keep, and, when it may not keep them all, the whole
    /// seconds (at least 1) until the rest (at most a burst of them) would be in hand.
    public struct Grant: Equatable, Sendable {
        public var granted: Int
        public var wait: Int?
    }

    /// Takes a token for each of the first records that have one in hand: the request keeps
    /// those, and is told how long until the rest would be admitted.
    public func take(key: String, count: Int) -> Grant {
        guard !limit.isOff, count > 0 else { return Grant(granted: count, wait: nil) }
        let now = uptime()
        return buckets.withLock { buckets in
            var bucket = refilled(buckets[key], now: now)
            defer { buckets[key] = bucket }
            let granted = min(count, Int(bucket.tokens.rounded(.down)))
            bucket.tokens -= Double(granted)
            guard granted < count else { return Grant(granted: granted, wait: nil) }
            let need = min(Double(count - granted), limit.burst)
            return Grant(granted: granted, wait: max(1, Int(((need - bucket.tokens) / limit.perSecond).rounded(.up))))
        }
    }

    /// Nil when a key has a token in hand; else the whole seconds to wait (checked before a body is read).
    public func isExhausted(key: String) -> Int? {
        guard !limit.isOff else { return nil }
        let now = uptime()
        return buckets.withLock { buckets in
            guard buckets[key] != nil else { return nil }
            let tokens = refilled(buckets[key], now: now).tokens
            return tokens >= 1 ? nil : max(1, Int(((1 - tokens) / limit.perSecond).rounded(.up)))
        }
    }

    private func refilled(_ bucket: Bucket?, now: Double) -> Bucket {
        guard let bucket else { return Bucket(tokens: limit.burst, updated: now) }
        return Bucket(tokens: min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond), updated: now)
    }
}
