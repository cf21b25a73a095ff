import Hummingbird
import NIOCore
import Synchronization
import TriageModel

/// The request context of the intake's routes: what the middlewares learnt of a request, for the
/// ones after them and the handler.
public struct IntakeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// What this request is to the intake so far.
    var intake = IntakeRequest()
    /// The connection the request came on (its body's timer, and the connection's key for `ConnectionGuard`).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
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
    /// The body decoded (`BodyMiddleware`), which the handler takes to read it as records.
    var body = DecodedBody()
    /// What this request holds of the memory budget.
    var reservation: BudgetReservation?
    /// When the body was read whole (the answer's latency is measured from it).
    var bodyRead: Double = 0
}

/// A request's body decoded, with the memory of it the request holds: the handler takes it,
/// reads it as records and gives that memory back, so a request never holds its body and its
/// records at once for longer than it reads them.
final class DecodedBody: Sendable {
    private let body: Mutex<(bytes: [UInt8], held: Int)>

    init(_ bytes: [UInt8] = [], held: Int = 0) {
        body = Mutex((bytes, held))
    }

    /// The bytes and what they hold of the budget; the box is empty after.
    func take() -> (bytes: [UInt8], held: Int) {
        body.withLock { body in
            defer { body = ([], 0) }
            return body
        }
    }
}

/// A request's body read whole: within the size limit, the time limit and the memory budget.
enum BodyCollector {
    /// `inspect` is shown the bytes so far after each part until it returns true (it may throw a
    /// refusal, which ends the reading there). A `Content-Length` over `limit` is refused before
    /// anything is read; one within it is held against the budget at once, as the storage the
    /// body is read into. A body that has not come whole by `timeout` is answered 408, whether
    /// it trickles or stalls (a timer on the connection's event loop ends the reading).
    static func collect(_ request: Request, channel: (any Channel)?, limit: Int, timeout: Duration, reservation: BudgetReservation,
                        inspect: (_ sofar: [UInt8], _ complete: Bool) async throws -> Bool = { _, _ in true }) async throws -> [UInt8] {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            throw Refusal(.contentTooLarge, .tooLarge, "body of \(declared) bytes (its Content-Length) is over the limit of \(limit) bytes", close: true)
        }
        var bytes = BodyDecoder.Output(limit: limit)
        if let declared, declared > 0 {
            guard reservation.reserve(declared) else { throw overloaded(reservation, needing: declared) }
            bytes.bytes.reserveCapacity(declared)
            bytes.held = declared
        }
        let timer = BodyTimer(channel: channel, after: timeout)
        defer { timer.cancel() }
        let deadline = ContinuousClock.now + timeout
        let timedOut = Refusal(.requestTimeout, .bodyTimeout, "the body did not arrive within \(timeout.components.seconds) s", close: true)
        var decided = false
        do {
            for try await part in request.body {
                guard bytes.bytes.count + part.readableBytes <= limit else {
                    throw Refusal(.contentTooLarge, .tooLarge, "body over the limit of \(limit) bytes", close: true)
                }
                guard bytes.append(part.readableBytesView, reserve: { reservation.reserve($0) }, release: { reservation.release($0) }) else {
                    throw overloaded(reservation, needing: bytes.bytes.count + part.readableBytes)
                }
                // Checked as each part arrives too, so a body trickling in is refused at its deadline
                // whatever the timer's moment.
                if ContinuousClock.now > deadline { throw timedOut }
                if !decided { decided = try await inspect(bytes.bytes, false) }
            }
            if timer.fired { throw timedOut }
            if !decided { _ = try await inspect(bytes.bytes, true) }
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            if timer.fired { throw timedOut }
            throw Refusal(.badRequest, .badEncoding, "the body could not be read", close: true)
        }
        return bytes.bytes
    }

    static func overloaded() -> Refusal {
        Refusal(.serviceUnavailable, .overloaded, "the server holds as many request bodies as its memory budget allows; retry shortly",
                retryAfter: 1, close: true)
    }

    /// What a request whose next `count` bytes the budget refused is answered: 503 to come back
    /// when others are done, or 413 when it alone would pass the whole budget.
    static func overloaded(_ reservation: BudgetReservation, needing count: Int) -> Refusal {
        guard reservation.exceedsBudget(count) else { return overloaded() }
        return Refusal(.contentTooLarge, .tooLarge, "this request needs more memory than the server's whole budget for requests "
                       + "(serve --max-in-flight, \(ByteCount.text(Int64(reservation.budget.limit)))); send it in smaller requests", close: true)
    }
}

/// The error a body's timer puts into its connection's pipeline: the reading of the body ends
/// with it, and the request is answered 408.
struct BodyTimedOut: Error {}

/// A body's deadline on its connection's event loop: when it passes, the body's reading ends
/// (`BodyTimedOut`), so that a body that stalls is answered 408 rather than left to the
/// connection's idle timeout, which would close it without an answer.
final class BodyTimer: Sendable {
    private final class Flag: Sendable {
        let value = Mutex(false)
    }
    private let flag: Flag
    private let scheduled: Scheduled<Void>?

    init(channel: (any Channel)?, after timeout: Duration) {
        let flag = Flag()
        self.flag = flag
        guard let channel else {
            scheduled = nil
            return
        }
        let nanoseconds = Int64(timeout.components.seconds) * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        scheduled = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            flag.value.withLock { $0 = true }
            channel.pipeline.fireErrorCaught(BodyTimedOut())
        }
    }

    var fired: Bool { flag.value.withLock { $0 } }

    func cancel() { scheduled?.cancel() }
}
