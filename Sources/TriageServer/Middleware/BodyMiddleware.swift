import Hummingbird
import NIOPosix

/// The body read whole — within the size limit, the time limit and the memory budget — and
/// decoded from its `Content-Encoding` (gzip, deflate, br), every member of it, within the
/// inflated limits; the decoding runs on the decoding threads (`DecodePool`), off the server's
/// event loops and below their priority. The request goes on as a `BodyContext`, which
/// `IntakeHandler` takes.
struct BodyMiddleware: RouterMiddleware {
    let configuration: ServeConfiguration
    let clock: ServeClock

    func handle(_ request: Request, context: KeyedContext, next: (Request, KeyedContext) async throws -> Response) async throws -> Response {
        var context = context
        let reservation = context.reservation
        let limits = configuration.limits
        var sent: [UInt8]
        if let read = context.sent {
            sent = read
        } else {
            sent = try await BodyCollector.collect(request, channel: context.channel, limit: limits.maxBodyBytes,
                                                   timeout: .seconds(configuration.bodyTimeoutSeconds), reservation: reservation)
        }
        // All this request holds so far is the body as sent.
        let sentHeld = reservation.bytes
        let bodyRead = clock.uptime()
        let encoding = request.headers[.contentEncoding]
        let input = sent
        let (decoded, neverFits) = try await DecodePool.run {
            var refused = 0
            let result = Result { () throws(BodyRefusal) -> (bytes: [UInt8], held: Int) in
                try BodyDecoder.decodeHeld(input, contentEncoding: encoding, limits: limits, reserve: { count in
                    if reservation.reserve(count) { return true }
                    refused = count
                    return false
                }, release: { reservation.release($0) })
            }
            return (result, refused > 0 && reservation.exceedsBudget(refused))
        }
        sent = []
        switch decoded {
        case .success(let body) where body.held > 0:
            // Inflated: the body as sent is no longer held.
            reservation.release(sentHeld)
            context.body = .init(decoded: DecodedBody(body.bytes, held: body.held), readAt: bodyRead)
        case .success(let body): context.body = .init(decoded: DecodedBody(body.bytes, held: sentHeld), readAt: bodyRead)
        case .failure(.tooLarge(let reason)): throw Refusal(.contentTooLarge, .tooLarge, reason)
        case .failure(.malformed(let reason)), .failure(.truncated(let reason)): throw Refusal(.badRequest, .badEncoding, reason)
        case .failure(.unsupportedEncoding(let reason)): throw Refusal(.unsupportedMediaType, .unsupportedEncoding, reason)
        case .failure(.overloaded):
            // 413 when what inflating asked for could never fit, whatever other requests hold; else 503.
            throw neverFits ? BodyCollector.overloaded(reservation, needing: limits.maxInflatedBytes) : BodyCollector.overloaded()
        }
        return try await next(request, context)
    }
}
