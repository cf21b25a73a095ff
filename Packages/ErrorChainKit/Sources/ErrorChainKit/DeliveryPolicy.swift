import Foundation

/// What an answer to a batch means for the queue and the next request: errtriage serve's and
/// Sentry's conventions (README, "Send errors from your app").
enum DeliveryPolicy {
    /// What to do with the batch.
    enum Outcome: Equatable {
        /// 2xx: committed by the server; the records leave the queue.
        case acknowledged
        /// No answer, 5xx, 408, 429: keep the records and try again later.
        case retry
        /// 401, 403, 404: the key or the project is wrong; stop sending until reconfigured.
        case refused(String)
        /// 400 (or another 4xx): the server kept every good line and will never take the others;
        /// the records leave the queue.
        case rejected(String)
        /// 413: too large; send fewer records at a time (one record too large is rejected).
        case tooLarge
    }

    static func outcome(_ response: TransportResponse) -> Outcome {
        guard let status = response.status else { return .retry }
        let detail = String(decoding: response.body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch status {
        case 200..<300: return .acknowledged
        case 401, 403, 404: return .refused("HTTP \(status) \(detail)")
        case 413: return .tooLarge
        case 408, 429, 500...: return .retry
        default: return .rejected("HTTP \(status) \(detail)")
        }
    }

    /// How long the server asked us to wait, in seconds: the longest `X-Sentry-Rate-Limits` group
    /// that covers errors (an empty category list covers all), else on 429 and 503 `Retry-After`
    /// (seconds or an HTTP date), else on 429 a minute. Nil when it asked nothing.
    static func pause(_ response: TransportResponse, now: Date) -> Double? {
        if let limits = response.headers["x-sentry-rate-limits"], let seconds = rateLimitSeconds(limits) { return seconds }
        guard response.status == 429 || response.status == 503 else { return nil }
        if let retryAfter = response.headers["retry-after"], let seconds = retryAfterSeconds(retryAfter, now: now) { return seconds }
        return response.status == 429 ? 60 : nil
    }

    /// `SECONDS:CATEGORIES:SCOPE[:REASON]` groups joined by commas: the longest wait that covers
    /// the `error` category (or every category).
    static func rateLimitSeconds(_ header: String) -> Double? {
        var longest: Double?
        for group in header.split(separator: ",") {
            let parts = group.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard let first = parts.first, let seconds = Double(first), seconds >= 0 else { continue }
            let categories = parts.count > 1 ? parts[1].split(separator: ";").map { $0.lowercased() } : []
            guard categories.isEmpty || categories.contains("error") || categories.contains("default") else { continue }
            longest = max(longest ?? 0, seconds)
        }
        return longest
    }

    /// `Retry-After`: delta seconds, or an HTTP date.
    static func retryAfterSeconds(_ header: String, now: Date) -> Double? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// Exponential backoff with jitter: the n-th failure in a row waits between half and all of
/// `base · 2^(n-1)`, at most `cap` seconds.
struct Backoff: Sendable, Equatable {
    var base: Double = 1
    var cap: Double = 600

    /// The wait after `attempt` failures in a row (attempt ≥ 1); `random` in 0..<1.
    func delay(attempt: Int, random: Double) -> Double {
        let ceiling = min(cap, base * pow(2, Double(min(max(attempt, 1) - 1, 30))))
        return ceiling / 2 + ceiling / 2 * random
    }
}
