import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization
import TriageServer

/// The intake's routes called in process, as a connection would call them: the request's body
/// streamed in parts of 32 KiB, the answer's body collected whole. (HummingbirdTesting's router
/// framework does the same; its target also brings an HTTP client with TLS — AsyncHTTPClient,
/// NIOSSL and BoringSSL's C sources — into every build of the tests, which this does not need.)
struct RouterClient: Sendable {
    let responder: RouterResponder<IntakeContext>
    let logger = Logger(label: "errtriage-intake-tests")

    init(router: Router<IntakeContext>) {
        responder = router.buildResponder()
    }

    /// Sends one request through the routes and middlewares and hands its answer to `check`. A
    /// thrown error becomes a 500, as it would on a connection.
    func execute<T>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                    _ check: (TestResponse) async throws -> T) async throws -> T {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let parts = AsyncStream<ByteBuffer> { continuation in
            if var body {
                while body.readableBytes > 0 { continuation.yield(body.readSlice(length: min(32 * 1024, body.readableBytes))!) }
            }
            continuation.finish()
        }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
                              body: RequestBody(asyncSequence: parts))
        let context = IntakeContext(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collected = Collected()
        try await response.body.write(Collector(collected: collected))
        return try await check(TestResponse(head: response.head, body: collected.bytes.withLock { $0 }))
    }

    /// The answer's bytes as the body writes them.
    final class Collected: Sendable {
        let bytes = Mutex(ByteBuffer())
    }

    struct Collector: ResponseBodyWriter {
        let collected: Collected
        func write(_ buffer: ByteBuffer) async throws {
            collected.bytes.withLock { bytes in
                var buffer = buffer
                bytes.writeBuffer(&buffer)
            }
        }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// An answer of the routes: its head and its whole body.
struct TestResponse: Sendable {
    var head: HTTPResponse
    var body: ByteBuffer
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}
