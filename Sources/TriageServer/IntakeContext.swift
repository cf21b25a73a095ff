import Hummingbird
import NIOCore

/// The request context of the intake's routes: what the middlewares learnt of a request, for the
/// ones after them and the handler.
public struct IntakeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// What this request is to the intake so far.
    var intake = IntakeRequest()

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}

/// One request as the intake's middlewares fill it in.
struct IntakeRequest: Sendable {
    /// From the path (`KeyMiddleware`).
    var endpoint = IntakeEndpoint.envelope
    var projectID = 0
    /// The key, checked (`KeyMiddleware`).
    var key: IntakeKey?
    /// The body as sent, where a middleware had to read it already (an envelope naming its key
    /// only in its header); `BodyMiddleware` reads it otherwise.
    var sent: [UInt8]?
    /// The body decoded (`BodyMiddleware`).
    var body: [UInt8] = []
    /// What this request holds of the memory budget.
    var reservation: BudgetReservation?
    /// When the body was read whole (the answer's latency is measured from it).
    var bodyRead: Double = 0
}

/// A request's body read whole: within the size limit, the time limit and the memory budget.
enum BodyCollector {
    static func collect(_ body: RequestBody, limit: Int, timeout: Duration, reservation: BudgetReservation) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        do {
            for try await part in body {
                guard bytes.count + part.readableBytes <= limit else {
                    throw Refusal(.contentTooLarge, .tooLarge, "body over the limit of \(limit) bytes", close: true)
                }
                guard reservation.reserve(part.readableBytes) else { throw overloaded() }
                bytes.append(contentsOf: part.readableBytesView)
                // Checked as each part arrives (a client that sends nothing at all is closed by
                // the connection's idle timeout), so a request costs no timer of its own.
                if ContinuousClock.now > deadline {
                    throw Refusal(.requestTimeout, .timeout, "the body did not arrive within \(timeout.components.seconds) s", close: true)
                }
            }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal(.badRequest, .malformed, "the body could not be read", close: true)
        }
        return bytes
    }

    static func overloaded() -> Refusal {
        Refusal(.serviceUnavailable, .overloaded, "the server holds as many request bodies as its memory budget allows; retry shortly",
                retryAfter: 1, close: true)
    }
}
