import HTTPTypes
import Hummingbird

/// A key's rate limit, in one place: a key with no token in hand is refused (429) before its
/// request's body is read (this middleware), and the records a body carries are charged one token
/// each once it is decoded (`charge`, which `IntakeHandler` calls), the first ones kept and the
/// rest answered 429 with what was kept (`refusal(kept:offered:grant:)`).
struct RateLimitMiddleware: RouterMiddleware {
    let limiter: RateLimiter
    let limit: RateLimit

    func handle(_ request: Request, context: KeyedContext, next: (Request, KeyedContext) async throws -> Response) async throws -> Response {
        if let wait = limiter.isExhausted(key: context.key.publicKey) {
            throw Self.refusal(limit: limit, wait: wait, close: true)
        }
        return try await next(request, context)
    }

    /// Charges a body's records to `key`: keeps those the limit admits (the first ones) and
    /// tells how many there were and how long until the rest would be admitted.
    func charge(_ intake: inout IntakeBatch, key: IntakeKey) -> (offered: Int, grant: RateLimiter.Grant) {
        let offered = intake.records
        let grant = limiter.take(key: key.publicKey, count: offered)
        if grant.granted < offered { intake.keepFirst(grant.granted) }
        return (offered, grant)
    }

    /// What a request of which only the first `kept` of `offered` records were admitted is
    /// answered, after those were committed.
    func refusal(kept: Int, offered: Int, grant: RateLimiter.Grant) -> Refusal {
        var refusal = Self.refusal(limit: limit, wait: grant.wait ?? 1)
        refusal.detail = "rate limit of \(limit) per key reached: the first \(kept) of \(offered) records "
            + "were kept; send the rest after \(grant.wait ?? 1) s"
        refusal.extra = [("accepted", .number(String(kept))), ("refused", .number(String(offered - kept)))]
        return refusal
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
