import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a POST of a batch came back with: a status and headers, or a failure to get any.
public struct TransportResponse: Sendable, Equatable {
    /// The HTTP status; nil when no answer came (no network, a timeout, a refused connection).
    public var status: Int?
    /// Header names in lowercase.
    public var headers: [String: String]
    public var body: [UInt8]
    /// Why no answer came.
    public var failure: String?

    /// An answer; header names are kept in lowercase.
    public init(status: Int?, headers: [String: String] = [:], body: [UInt8] = [], failure: String? = nil) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
        self.failure = failure
    }
}

/// Sends a batch and waits for the answer; called on the reporter's own thread, never the app's.
/// `URLSessionTransport` is the default; an app may give its own (a pinned session, a proxy).
public protocol ReportTransport: Sendable {
    /// POSTs `body` to `url` with `headers` and returns the answer, blocking until it comes.
    func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse
}

/// POSTs through an ephemeral `URLSession` (FoundationNetworking on Linux).
public final class URLSessionTransport: ReportTransport, @unchecked Sendable {
    private let session: URLSession

    /// `timeout`: seconds a request may take before it counts as failed (and is sent again later).
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    /// POSTs and waits for the answer (or the timeout).
    public func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body)
        let done = DispatchSemaphore(value: 0)
        let box = ResponseBox()
        let task = session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { fields[name] = value }
                }
                box.response = TransportResponse(status: http.statusCode, headers: fields, body: data.map([UInt8].init) ?? [])
            } else {
                box.response = TransportResponse(status: nil, failure: error?.localizedDescription ?? "no answer")
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return box.response ?? TransportResponse(status: nil, failure: "no answer")
    }

    /// Carries the answer from URLSession's queue to the waiting thread (the semaphore orders the two).
    private final class ResponseBox: @unchecked Sendable {
        var response: TransportResponse?
    }
}
