import Hummingbird
import NIOCore
import Synchronization
import TriageModel

/// The request context of the server's routes, and the first of the intake's stages: what
/// `AnswerMiddleware` makes of a request (its share of the memory budget) waits here for the
/// stages after it.
///
/// The intake's stages each have a context of their own, made from the one before it
/// (`ChildRequestContext`) once the stage that fills it has run: `ReservedContext` (the memory
/// share), `KeyedContext` (the endpoint, the project and the key), `BodyContext` (the body
/// decoded). A middleware or handler is typed by the context it needs, so a stage cannot run
/// before what it needs is there: `IntakeServer.router()` adds each where its context is made.
public struct IntakeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on (its body's timer, and the connection's key for `ConnectionGuard`).
    let channel: any Channel
    /// Set by `AnswerMiddleware`, which owns it; `ReservedContext` takes it.
    var reservation: BudgetReservation?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// A stage's context made without what the stage before it adds: a route added outside that
/// stage's group, which `IntakeServer.router()` never does (answered 500).
struct StageSkipped: Error {
    let context: String
}

/// A request with its share of the memory budget (`AnswerMiddleware`): what `KeyMiddleware` runs on.
struct ReservedContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// What this request holds of the memory budget; `AnswerMiddleware` gives it back once the request is answered.
    let reservation: BudgetReservation
    /// Set by `KeyMiddleware`; `KeyedContext` takes it.
    var keyed: Keyed?

    /// What the key stage learnt of a request.
    struct Keyed: Sendable {
        var endpoint: IntakeEndpoint
        var projectID: Int
        var key: IntakeKey
        /// The body as sent, where the key stage had to read it (an envelope naming its key only in its header).
        var sent: [UInt8]?
    }

    init(context: IntakeContext) throws {
        guard let reservation = context.reservation else { throw StageSkipped(context: "ReservedContext") }
        coreContext = context.coreContext
        channel = context.channel
        self.reservation = reservation
    }
}

/// A request with a good key (`KeyMiddleware`): what the rate limit and `BodyMiddleware` run on.
struct KeyedContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    let reservation: BudgetReservation
    /// From the path.
    let endpoint: IntakeEndpoint
    let projectID: Int
    /// The key, checked.
    let key: IntakeKey
    /// The body as sent, where the key stage read it already; `BodyMiddleware` reads it otherwise.
    let sent: [UInt8]?
    /// Set by `BodyMiddleware`; `BodyContext` takes it.
    var body: Read?

    /// The body read and decoded.
    struct Read: Sendable {
        var decoded: DecodedBody
        /// When the body was read whole (the answer's latency is measured from it).
        var readAt: Double
    }

    init(context: ReservedContext) throws {
        guard let keyed = context.keyed else { throw StageSkipped(context: "KeyedContext") }
        coreContext = context.coreContext
        channel = context.channel
        reservation = context.reservation
        endpoint = keyed.endpoint
        projectID = keyed.projectID
        key = keyed.key
        sent = keyed.sent
    }
}

/// A request with a good key and its body decoded (`BodyMiddleware`): what `IntakeHandler` takes.
struct BodyContext: ChildRequestContext {
    var coreContext: CoreRequestContextStorage
    let reservation: BudgetReservation
    let endpoint: IntakeEndpoint
    let key: IntakeKey
    /// The body decoded, which the handler takes to read it as records.
    let body: DecodedBody
    /// When the body was read whole (the answer's latency is measured from it).
    let bodyRead: Double

    init(context: KeyedContext) throws {
        guard let body = context.body else { throw StageSkipped(context: "BodyContext") }
        coreContext = context.coreContext
        reservation = context.reservation
        endpoint = context.endpoint
        key = context.key
        self.body = body.decoded
        bodyRead = body.readAt
    }
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
