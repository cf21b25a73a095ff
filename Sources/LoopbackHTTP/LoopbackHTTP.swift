import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A plain-HTTP/1.1 client for `errtriage serve` on this machine: what the end-to-end tests and
/// the bench send to it. SwiftNIO's HTTP/1 codec on a TCP connection, nothing more: no TLS, no
/// redirects, no pool of its own (issue 49: AsyncHTTPClient did this at the cost of BoringSSL's C
/// sources and HTTP/2 in every build; errtriage's only HTTPS request, the alerts' webhook, goes
/// through Foundation's URLSession).
public struct LoopbackRequest: Sendable {
    public var method: HTTPMethod
    /// The path with its query (`/api/1/envelope/?sentry_key=…`).
    public var path: String
    public var headers: [(String, String)]
    public var body: [UInt8]?

    public init(_ method: HTTPMethod = .GET, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// An answer: its status, headers and whole body.
public struct LoopbackResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// Whether the server closes the connection after this answer.
    public var closes: Bool { headers["connection"].contains { $0.lowercased() == "close" } }
}

public enum LoopbackError: Error, CustomStringConvertible {
    case closedBeforeAnswer
    case timedOut(Double)
    public var description: String {
        switch self {
        case .closedBeforeAnswer: "the server closed the connection before it answered"
        case .timedOut(let seconds): "no answer within \(seconds) s"
        }
    }
}

/// One keep-alive connection: requests are sent one after the other, each answered before the next.
public final class LoopbackConnection: Sendable {
    typealias Channel = NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    public let host: String
    public let port: Int
    private let jobs: AsyncStream<Job>.Continuation
    private let raw: any NIOCore.Channel

    struct Job: Sendable {
        var request: LoopbackRequest
        var answer: CheckedContinuation<LoopbackResponse, any Error>
    }

    /// Connects to `host:port` (loopback).
    public init(host: String = "127.0.0.1", port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws {
        self.host = host
        self.port = port
        let channel: Channel = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try Channel(wrappingChannelSynchronously: channel)
                }
            }
        raw = channel.channel
        let (stream, jobs) = AsyncStream.makeStream(of: Job.self)
        self.jobs = jobs
        let authority = "\(host):\(port)"
        // The connection's own task: takes each request in turn, writes it while it reads the answer
        // (a server may answer and close before it has read a body it refuses).
        Task {
            try? await channel.executeThenClose { inbound, outbound in
                var answers = inbound.makeAsyncIterator()
                for await job in stream {
                    do {
                        let parts = LoopbackConnection.parts(job.request, authority: authority)
                        async let written: Void = { try? await outbound.write(contentsOf: parts) }()
                        let response = try await LoopbackConnection.answer(&answers)
                        await written
                        job.answer.resume(returning: response)
                        if response.closes { break }
                    } catch {
                        job.answer.resume(throwing: error)
                        break
                    }
                }
            }
            // What was asked after the connection ended is answered with an error; nothing more is taken.
            jobs.finish()
            for await job in stream { job.answer.resume(throwing: LoopbackError.closedBeforeAnswer) }
        }
    }

    /// Sends `request` and waits for its answer, `timeout` seconds at most (the connection is
    /// closed then: its answer would come to the next request).
    public func send(_ request: LoopbackRequest, timeout: Double = 30) async throws -> LoopbackResponse {
        let raw = raw
        return try await withThrowingTaskGroup(of: LoopbackResponse.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { answer in
                    if case .terminated = self.jobs.yield(Job(request: request, answer: answer)) {
                        answer.resume(throwing: LoopbackError.closedBeforeAnswer)
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                raw.close(promise: nil)
                throw LoopbackError.timedOut(timeout)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Closes the connection.
    public func close() async {
        jobs.finish()
        try? await raw.close()
    }

    /// Whether the connection is still open.
    public var isActive: Bool { raw.isActive }

    static func parts(_ request: LoopbackRequest, authority: String) -> [HTTPClientRequestPart] {
        var headers = HTTPHeaders(request.headers)
        if !headers.contains(name: "Host") { headers.add(name: "Host", value: authority) }
        if let body = request.body {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        } else if request.method == .POST || request.method == .PUT {
            headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        var parts: [HTTPClientRequestPart] = [.head(HTTPRequestHead(version: .http1_1, method: request.method, uri: request.path, headers: headers))]
        if let body = request.body, !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        parts.append(.end(nil))
        return parts
    }

    static func answer(_ answers: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator) async throws -> LoopbackResponse {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        while let part = try await answers.next() {
            switch part {
            case .head(let h):
                // An interim answer (100 Continue) is not the answer.
                if h.status.code >= 200 { head = h }
            case .body(let bytes):
                body.append(contentsOf: bytes.readableBytesView)
            case .end:
                if let head { return LoopbackResponse(status: Int(head.status.code), headers: head.headers, body: body) }
            }
        }
        throw LoopbackError.closedBeforeAnswer
    }
}

extension LoopbackConnection {
    /// One request on a connection of its own, closed after its answer: connected, written and
    /// read in the caller's task (no task of its own that a busy pool could leave waiting while the
    /// server's idle timeout runs), `timeout` seconds at most.
    public static func send(_ request: LoopbackRequest, port: Int, host: String = "127.0.0.1", timeout: Double = 30) async throws -> LoopbackResponse {
        let opened = Opened()
        return try await withThrowingTaskGroup(of: LoopbackResponse.self) { group in
            group.addTask {
                let channel: Channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: host, port: port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHTTPClientHandlers()
                            return try Channel(wrappingChannelSynchronously: channel)
                        }
                    }
                opened.set(channel.channel)
                return try await channel.executeThenClose { inbound, outbound in
                    var answers = inbound.makeAsyncIterator()
                    let parts = parts(request, authority: "\(host):\(port)")
                    async let written: Void = { try? await outbound.write(contentsOf: parts) }()
                    let response = try await answer(&answers)
                    await written
                    return response
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                opened.close()
                throw LoopbackError.timedOut(timeout)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// The channel of a request under way, for its timeout to close.
    final class Opened: Sendable {
        private let state = Mutex<(channel: (any NIOCore.Channel)?, closed: Bool)>((nil, false))
        func set(_ channel: any NIOCore.Channel) {
            let closed = state.withLock { state in
                state.channel = channel
                return state.closed
            }
            if closed { channel.close(promise: nil) }
        }
        func close() {
            let channel = state.withLock { state in
                state.closed = true
                return state.channel
            }
            channel?.close(promise: nil)
        }
    }
}
