import Foundation
import Testing
@testable import ErrorChainKit

/// What each answer means (serve's and Sentry's conventions), how long a server's pause is, and
/// the backoff's growth and jitter.
@Suite struct DeliveryPolicyTests {
    static func answer(_ status: Int?, _ headers: [String: String] = [:]) -> TransportResponse {
        TransportResponse(status: status, headers: headers, body: Array(#"{"detail":"why"}"#.utf8))
    }

    @Test(arguments: [
        (200, DeliveryPolicy.Outcome.acknowledged), (202, .acknowledged),
        (401, .refused(#"HTTP 401 {"detail":"why"}"#)), (403, .refused(#"HTTP 403 {"detail":"why"}"#)),
        (404, .refused(#"HTTP 404 {"detail":"why"}"#)), (400, .rejected(#"HTTP 400 {"detail":"why"}"#)),
        (413, .tooLarge), (408, .retry), (429, .retry), (500, .retry), (503, .retry),
    ])
    func eachStatusHasItsOutcome(_ status: Int, _ outcome: DeliveryPolicy.Outcome) {
        #expect(DeliveryPolicy.outcome(Self.answer(status)) == outcome)
    }

    @Test func noAnswerIsRetried() {
        #expect(DeliveryPolicy.outcome(TransportResponse(status: nil, failure: "connection refused")) == .retry)
    }

    @Test func retryAfterInSecondsOrAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(DeliveryPolicy.pause(Self.answer(429, ["Retry-After": "7"]), now: now) == 7)
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        let then = DeliveryPolicy.retryAfterSeconds(date, now: Date(timeIntervalSince1970: 1_792_567_680 - 90))
        #expect(then == 90)
        #expect(DeliveryPolicy.pause(Self.answer(503, ["Retry-After": "5"]), now: now) == 5)
        // A 429 that says nothing waits a minute; a 500 is the backoff's.
        #expect(DeliveryPolicy.pause(Self.answer(429), now: now) == 60)
        #expect(DeliveryPolicy.pause(Self.answer(500, ["Retry-After": "5"]), now: now) == nil)
    }

    @Test func sentryRateLimitsCountWhenTheyCoverErrors() {
        #expect(DeliveryPolicy.rateLimitSeconds("60::key") == 60)
        #expect(DeliveryPolicy.rateLimitSeconds("60:error;transaction:key, 2400::organization") == 2400)
        #expect(DeliveryPolicy.rateLimitSeconds("30:transaction;session:key") == nil)
        #expect(DeliveryPolicy.rateLimitSeconds("30:transaction:key, 12:error:project:quota_exceeded") == 12)
        // The header wins over Retry-After, and counts on any status.
        #expect(DeliveryPolicy.pause(Self.answer(429, ["Retry-After": "1", "X-Sentry-Rate-Limits": "9::key"]), now: Date()) == 9)
        #expect(DeliveryPolicy.pause(Self.answer(200, ["X-Sentry-Rate-Limits": "4:error:key"]), now: Date()) == 4)
    }

    @Test func theBackoffDoublesWithJitterUpToItsCap() {
        let backoff = Backoff(base: 1, cap: 60)
        #expect(backoff.delay(attempt: 1, random: 0) == 0.5)
        #expect(backoff.delay(attempt: 1, random: 0.999) < 1)
        #expect(backoff.delay(attempt: 4, random: 0) == 4)
        #expect(backoff.delay(attempt: 4, random: 0.5) == 6)
        #expect(backoff.delay(attempt: 40, random: 0) == 30)
        #expect(backoff.delay(attempt: 40, random: 0.999) < 60)
    }
}
