import Hummingbird
import NIOPosix

/// The body read whole — within the size limit, the time limit and the memory budget — and
/// decoded from its `Content-Encoding` (gzip, deflate, br), every member of it, within the
/// inflated limits; the decoding runs on the thread pool, off the server's event loops.
struct BodyMiddleware: RouterMiddleware {
    let configuration: ServeConfiguration
    let clock: ServeClock

    func handle(_ request: Request, context: IntakeContext, next: (Request, IntakeContext) async throws -> Response) async throws -> Response {
        var context = context
        guard let reservation = context.intake.reservation else { return try await next(request, context) }
        let limits = configuration.limits
        let sent: [UInt8]
        if let read = context.intake.sent {
            sent = read
        } else {
            sent = try await BodyCollector.collect(request.body, limit: limits.maxBodyBytes,
                                                   timeout: .seconds(configuration.bodyTimeoutSeconds), reservation: reservation)
        }
        context.intake.sent = nil
        context.intake.bodyRead = clock.uptime()
        let encoding = request.headers[.contentEncoding]
        let decoded: Result<[UInt8], BodyRefusal> = try await NIOThreadPool.singleton.runIfActive {
            Result { () throws(BodyRefusal) -> [UInt8] in
                try BodyDecoder.decode(sent, contentEncoding: encoding, limits: limits, reserve: { reservation.reserve($0) })
            }
        }
        switch decoded {
        case .success(let body): context.intake.body = body
        case .failure(.tooLarge(let reason)): throw Refusal(.contentTooLarge, .tooLarge, reason)
        case .failure(.malformed(let reason)): throw Refusal(.badRequest, .malformed, reason)
        case .failure(.unsupportedEncoding(let reason)): throw Refusal(.unsupportedMediaType, .unsupported, reason)
        case .failure(.overloaded): throw BodyCollector.overloaded()
        }
        return try await next(request, context)
    }
}
