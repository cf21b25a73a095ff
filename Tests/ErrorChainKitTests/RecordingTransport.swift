import ErrorChainKit
import Foundation

/// A transport that answers from a script (the last answer repeats) and keeps every request.
final class RecordingTransport: ReportTransport, @unchecked Sendable {
    struct Request {
        var body: [UInt8]
        var url: URL
        var headers: [String: String]
        var at: Date
        /// The body's NDJSON lines, parsed.
        var lines: [[String: Any]] {
            String(decoding: body, as: UTF8.self).split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
            }
        }
    }

    private let lock = NSLock()
    private var answers: [TransportResponse]
    private var made: [Request] = []

    init(answer: TransportResponse) { answers = [answer] }
    init(answers: [TransportResponse]) { self.answers = answers }

    func post(_ body: [UInt8], to url: URL, headers: [String: String]) -> TransportResponse {
        lock.lock()
        defer { lock.unlock() }
        made.append(Request(body: body, url: url, headers: headers, at: Date()))
        return answers.count > 1 ? answers.removeFirst() : answers[0]
    }

    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return made
    }

    /// Every line sent, in order.
    var lines: [[String: Any]] { requests.flatMap(\.lines) }
}
