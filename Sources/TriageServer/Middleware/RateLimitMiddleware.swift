import HTTPTypes
import Hummingbird

/// A key with no token in hand is refused (429) before its request's body is read; the handler
/// charges the records the body carries (`IntakeHandler`).
struct RateLimitMiddleware: RouterMiddleware {
    let limiter: RateLimiter
    let limit: RateLimit

    func handle(_ request: Request, context: IntakeContext, next: (Request, IntakeContext) async throws -> Response) async throws -> Response {
        if let key = context.intake.key?.publicKey, let wait = limiter.isExhausted(key: key) {
            throw Self.refusal(limit: limit, wait: wait, close: true)
        }
        return try await next(request, context)
    }

    /// A 429 with the headers SDKs obey: `Retry-After`, and `X-Sentry-Rate-Limits` for every
    /// category of this key.
    static func refusal(limit: RateLimit, wait: Int, close: Bool = false) -> Refusal {
        var refusal = Refusal(.tooManyRequests, .rateLimited, "rate limit of \(limit) per key reached; retry after \(wait) s",
                              retryAfter: wait, close: close)
        refusal.headers[HTTPField.Name("X-Sentry-Rate-Limits")!] = "\(wait)::key"
        return refusal
    }
}
