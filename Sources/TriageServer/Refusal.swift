import Hummingbird
import NIOCore
import TriageModel

/// Why a request (or part of one) was not taken: each is counted, logged and exported.
public enum RejectionReason: String, Sendable, CaseIterable {
    case unauthorized      // 401: no key, or a key the store does not hold
    case forbidden         // 403: a revoked key, or another project's
    case malformed         // 400: a body or item that is not what it claims
    case unstorable        // 400: records the store refused while it took the others committed with them
    case tooLarge = "too_large"            // 413: over a size limit, or more records than a request may carry
    case unsupported       // 415: an encoding the server does not read
    case rateLimited = "rate_limited"      // 429
    case unavailable       // 503: the store failed, or the disk is at its floor
    case overloaded        // 503: the bodies in flight are at the memory budget
    case timeout           // 408: a body that came too slowly
    case notFound = "not_found"            // 404
}

/// One refusal: the status, the reason it is counted under, the sentence the client reads, and
/// the headers that go with it. Every middleware and the handler refuse through it, so each
/// refusal is counted once, by reason, where it is made.
struct Refusal: Error, Sendable {
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

    /// The answer, counted in `stats` (`count` items refused).
    func response(_ stats: IntakeStats, count: Int = 1) -> Response {
        stats.rejected(reason, count: count)
        var response = Answer.json(status, [("detail", .string(Answer.oneLine(detail)))] + extra)
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
