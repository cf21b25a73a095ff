import Hummingbird
import NIOCore
import TriageModel

/// Why a request (or part of one) was not taken, by the name the answer (`reason`), the log,
/// `/metrics` and the dashboards' note give it.
public enum RejectionReason: String, Sendable, CaseIterable {
    /// 401: no key in the header, the query or an envelope's DSN.
    case noKey = "no-key"
    /// 401: a key the server's store does not hold.
    case unknownKey = "unknown-key"
    /// 403: a revoked key.
    case revokedKey = "revoked-key"
    /// 403: a key of another project than the path names.
    case wrongProject = "wrong-project"
    /// 404: a path that is no endpoint.
    case notFound = "not-found"
    /// 405: an intake endpoint asked with another method than POST.
    case methodNotAllowed = "method-not-allowed"
    /// 400: a body (or the older store endpoint's event) that is not JSON.
    case notJSON = "not-json"
    /// 400: an envelope whose first line is not its header.
    case notAnEnvelope = "not-an-envelope"
    /// 400: an item or line the importer refused; the others of the body were kept.
    case badItem = "bad-item"
    /// 400: a compressed body that does not decode, or has bytes after its stream's end.
    case badEncoding = "bad-encoding"
    /// 400: records the store refused while it took the others committed with them.
    case unstorable
    /// 408: a body that came too slowly.
    case bodyTimeout = "body-timeout"
    /// 413: over a size limit (the body, an event, what it inflates to).
    case tooLarge = "too-large"
    /// 413: more records than a request may carry.
    case tooManyRecords = "too-many-records"
    /// 415: a `Content-Encoding` the server does not read.
    case unsupportedEncoding = "unsupported-encoding"
    /// 429: over the key's rate limit.
    case rateLimited = "rate-limited"
    /// 503: the store failed a commit.
    case storeFailed = "store-failed"
    /// 503: the store's disk is below its free-space floor.
    case diskFull = "disk-full"
    /// 503: the request bodies in memory are at the budget.
    case overloaded
}

/// One refusal: the status, the reason it is counted under, the sentence the client reads, and
/// the headers that go with it. Every stage and the handler refuse through it: a refusal
/// renders itself (`HTTPResponseError`, so Hummingbird could answer it too), and is counted
/// once, by reason, where it is answered — by `AnswerMiddleware` for one thrown, by the handler
/// for one it returns.
struct Refusal: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var reason: RejectionReason
    var detail: String
    var retryAfter: Int?
    /// Close the connection after answering (the body may not have been read).
    var close = false
    /// Members added to the answer's JSON (what a partly taken request kept).
    var extra: [(String, JSONValue)] = []
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ reason: RejectionReason, _ detail: String, retryAfter: Int? = nil, close: Bool = false) {
        self.status = status
        self.reason = reason
        self.detail = detail
        self.retryAfter = retryAfter
        self.close = close
    }

    /// The methods other than POST an intake endpoint answers 405 (any other is no route: 404).
    static let notPost: [HTTPRequest.Method] = [.get, .head, .put, .patch, .delete, .options]

    /// What an intake endpoint asked with another method than POST is answered, as Sentry's Relay
    /// answers it: 405 with `Allow: POST`, before the key is asked for.
    static func methodNotAllowed(_ method: HTTPRequest.Method) -> Refusal {
        var refusal = Refusal(.methodNotAllowed, .methodNotAllowed, "\(method.rawValue) is not allowed here: the intake's endpoints take POST")
        refusal.headers[.allow] = "POST"
        return refusal
    }

    /// The answer, counted in `stats` (`count` items refused).
    func response(_ stats: IntakeStats, count: Int = 1) -> Response {
        stats.rejected(reason, count: count)
        return rendered
    }

    /// The answer, uncounted.
    func response(from request: Request, context: some RequestContext) -> Response {
        rendered
    }

    /// The answer: one line of JSON with the detail, the reason and any `extra`, and the refusal's headers.
    var rendered: Response {
        var response = Answer.json(status, [("detail", .string(Answer.oneLine(detail))), ("reason", .string(reason.rawValue))] + extra)
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        if close { response.headers[.connection] = "close" }
        for field in headers { response.headers.append(field) }
        return response
    }
}

/// The answers' shapes: one line of JSON, or of text.
enum Answer {
    static func json(_ status: HTTPResponse.Status, _ members: [(String, JSONValue)]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(members).inertSerialized + "\n")))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String, retryAfter: Int? = nil) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A detail on one line, at most 300 characters.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.prefix(300))
    }
}
