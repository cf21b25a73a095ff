import CZlib
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import TestSupport
import TriageIngest
import TriageModel
import TriageServer
import TriageStore

/// The server's routes in process, on a real store (SQLite, or PostgreSQL in the contract pass):
/// every answer an SDK or a hostile client can get, and what the store holds after it.
@Suite struct IntakeServerTests {
    static let key = "0123456789abcdef0123456789abcdef"
    static let keys = [
        IntakeKey(publicKey: key, projectID: 1, project: "ios", revoked: false),
        IntakeKey(publicKey: "revokedrevokedrevokedrevokedrevo", projectID: 1, project: "ios", revoked: true),
        IntakeKey(publicKey: "androidandroidandroidandroidandr", projectID: 2, project: "android", revoked: false),
    ]
    static let auth = "Sentry sentry_version=7, sentry_client=sentry.python/2.75.0, sentry_key=\(key)"
    /// When the server receives every request: a second after the envelopes' `sent_at`.
    static let receipt = Timestamp.parse("2026-11-24T10:00:02Z")!

    /// A server on a new store; `body` gets a client and the store.
    static func withServer(_ configure: (inout ServeConfiguration) -> Void = { _ in },
                           open: GroupCommitter.Opener? = nil, beforeCommit: (@Sendable (TriageStore) throws -> Void)? = nil,
                           _ body: @Sendable (RouterClient, TemporaryStore) async throws -> Void) async throws {
        let temporary = try TemporaryStore()
        let path = temporary.path
        var configuration = ServeConfiguration()
        configure(&configuration)
        let committer = GroupCommitter(open: open ?? { try TriageStore.open(path, for: .writing) }, beforeCommit: beforeCommit)
        defer { committer.close() }
        // The server's clock reads a second after the envelopes' `sent_at`, so that no time sent is
        // corrected for a drift of the machine's clock from the fixtures'.
        let clock = ServeClock(now: { Self.receipt }, uptime: ServeClock.system.uptime)
        let server = IntakeServer(configuration: configuration, committer: committer,
                                  keys: KeyRing { Self.keys }, stats: IntakeStats(), clock: clock, health: { nil })
        try await body(RouterClient(router: server.router()), temporary)
    }

    static func event(_ id: String, type: String = "TimeoutError", value: String = "timed out") -> String {
        #"{"event_id":"\#(id)","timestamp":"2026-11-24T10:00:00Z","platform":"python","level":"error","release":"app@1.2.0","exception":{"values":[{"type":"\#(type)","value":"\#(value)","mechanism":{"type":"generic","handled":true}}]}}"#
    }

    static func envelope(_ id: String, items: [String]? = nil) -> String {
        let body = items ?? [#"{"type":"event"}"#, event(id)]
        return #"{"event_id":"\#(id)","sent_at":"2026-11-24T10:00:01Z"}"# + "\n" + body.joined(separator: "\n") + "\n"
    }

    @discardableResult
    static func post<T: Sendable>(_ client: RouterClient, _ path: String, _ body: [UInt8], headers: HTTPFields = [.init("X-Sentry-Auth")!: auth],
                                  check: @escaping @Sendable (TestResponse) throws -> T) async throws -> T {
        try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body)) { try check($0) }
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// The answer's `reason`: the refusal's name, as the log and `/metrics` give it.
    static func reason(_ response: TestResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["reason"] as? String
    }

    static func events(_ temporary: TemporaryStore) throws -> Int { try temporary.store.verify().events }

    // MARK: - Accepted

    @Test func anEnvelopeIsCommittedBeforeItsAnswer() async throws {
        try await Self.withServer { client, temporary in
            let id = "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope(id).utf8)) { response in
                #expect(response.status == .ok)
                #expect(Self.text(response) == "{\"id\":\"\(id)\"}\n")
            }
            #expect(try Self.events(temporary) == 1)
            var stored: [ErrorEvent] = []
            try temporary.store.exportEvents(window: .all, now: Timestamp.parse("2026-11-25T00:00:00Z")!, key: nil) { stored.append($0) }
            #expect(stored.map(\.eventID) == [id])
            #expect(stored.first?.project == "ios")
        }
    }

    @Test func compressedBodiesAreReadInEveryEncodingSDKsUse() async throws {
        try await Self.withServer { client, temporary in
            let plain = Array(Self.envelope("b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1").utf8)
            var headers: HTTPFields = [.init("X-Sentry-Auth")!: Self.auth, .contentEncoding: "gzip"]
            try await Self.post(client, "/api/1/envelope/", try Compression.deflate(plain, windowBits: 16 + 15), headers: headers) {
                #expect($0.status == .ok, "\(Self.text($0))")
            }
            headers[.contentEncoding] = "deflate"
            try await Self.post(client, "/api/1/envelope/", try Compression.deflate(Array(Self.envelope("b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2").utf8), windowBits: 15),
                                headers: headers) { #expect($0.status == .ok, "\(Self.text($0))") }
            // Raw deflate, as some clients send it.
            try await Self.post(client, "/api/1/envelope/", try Compression.deflate(Array(Self.envelope("b3b3b3b3b3b3b3b3b3b3b3b3b3b3b3b3").utf8), windowBits: -15),
                                headers: headers) { #expect($0.status == .ok, "\(Self.text($0))") }
            // br, made by Python's brotli (the module the Python SDK compresses with).
            headers[.contentEncoding] = "br"
            try await Self.post(client, "/api/1/envelope/", Array(Data(base64Encoded: Self.brotliEnvelope)!), headers: headers) {
                #expect($0.status == .ok, "\(Self.text($0))")
            }
            #expect(try Self.events(temporary) == 4)
        }
    }

    /// `{"event_id":"0123…","sent_at":…}` and one TimeoutError event, brotli-compressed.
    static let brotliEnvelope = "G0sBABwHbqxlyoOgvR4Esq1U2XVMO6GRRPxFu0+hi2Wx6FjesijEeOz3SYARzH4zIX1VTQ5CiJybR4dfENSslI3lL9GfZkNNFFXTDdOyHbcoq7ppxwQXwRY3V2QvUVVFzQhUxVMWFaIvZhbejc2rr3DuHqEOTcC+v2/9tgJ5ncgWYNTiFwOF0Q+pnQaf4YNwZG6xFoDJadJIpYIdoEckOq7+Tg=="

    @Test func theOlderStoreEndpointAndTheKeyInTheQueryString() async throws {
        try await Self.withServer { client, temporary in
            // One event as a pretty-printed JSON body, the key in the query as browsers send it.
            let pretty = Self.event("c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1").replacingOccurrences(of: ",\"", with: ",\n  \"")
            try await Self.post(client, "/api/1/store/?sentry_key=\(Self.key)&sentry_version=7", Array(pretty.utf8), headers: [:]) {
                #expect($0.status == .ok)
                #expect(Self.text($0) == "{\"id\":\"c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1\"}\n")
            }
            #expect(try Self.events(temporary) == 1)
        }
    }

    @Test func theELKReporterAndNativeLines() async throws {
        try await Self.withServer { client, temporary in
            let elk = """
                {"code": 666, "domain": "com.example.ios.feed.decoding", "message": "keyNotFound",
                 "environment": "production", "reported_at": "2026-11-24T09:00:00.000Z",
                 "mobile": {"version": "2.0.0", "build_number": 2500, "platform": "ios", "network": "wifi"}}
                """
            try await Self.post(client, "/api/1/elk?token=\(Self.key)", Array(elk.utf8), headers: [:]) {
                #expect($0.status == .ok, "\(Self.text($0))")
            }
            let lines = [TemporaryStore.event("n1", "2026-11-24T08:00:00Z"), TemporaryStore.event("n2", "2026-11-24T08:01:00Z")]
            try await Self.post(client, "/api/1/events", Array(lines.joined(separator: "\n").utf8)) {
                #expect($0.status == .ok, "\(Self.text($0))")
            }
            #expect(try Self.events(temporary) == 3)
        }
    }

    // MARK: - Refused

    @Test func keysDecideWhoMaySend() async throws {
        try await Self.withServer { client, temporary in
            let body = Array(Self.envelope("d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1").utf8)
            try await Self.post(client, "/api/1/envelope/", body, headers: [:]) { #expect($0.status == .unauthorized) }
            try await Self.post(client, "/api/1/envelope/", body, headers: [.init("X-Sentry-Auth")!: "Sentry sentry_key=nosuchkeynosuchkeynosuchkeynosuch"]) {
                #expect($0.status == .unauthorized)
                #expect(Self.text($0).contains("unknown key"))
            }
            try await Self.post(client, "/api/1/envelope/", body, headers: [.init("X-Sentry-Auth")!: "Sentry sentry_key=revokedrevokedrevokedrevokedrevo"]) {
                #expect($0.status == .forbidden)
            }
            // ios's key on android's project.
            try await Self.post(client, "/api/2/envelope/", body) { #expect($0.status == .forbidden) }
            try await Self.post(client, "/api/ios/envelope/", body) { #expect($0.status == .notFound) }
            #expect(try Self.events(temporary) == 0)
        }
    }

    @Test func malformedItemsAreNamedAndTheGoodOnesKept() async throws {
        try await Self.withServer { client, temporary in
            let items = [#"{"type":"event"}"#, "{not json", #"{"type":"event"}"#, Self.event("e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2")]
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1", items: items).utf8)) {
                #expect($0.status == .badRequest)
                let detail = Self.text($0)
                #expect(detail.contains("envelope 1, item 1 (event)"), "\(detail)")
                #expect(detail.contains("1 other record was kept"), "\(detail)")
                #expect(!detail.dropLast().contains("\n"))
                // An HTTP body has no lines to name: the item is named, and the reason.
                #expect(!detail.contains("line "), "\(detail)")
                #expect(Self.reason($0) == "bad-item")
            }
            #expect(try Self.events(temporary) == 1)
            try await Self.post(client, "/api/1/envelope/", Array("this is not an envelope".utf8)) {
                #expect($0.status == .badRequest && Self.reason($0) == "not-an-envelope")
            }
            try await Self.post(client, "/api/1/store/", Array("{\"event_id\":".utf8)) { #expect($0.status == .badRequest && Self.reason($0) == "not-json") }
            var headers: HTTPFields = [.init("X-Sentry-Auth")!: Self.auth, .contentEncoding: "gzip"]
            try await Self.post(client, "/api/1/envelope/", Array("not gzip at all".utf8), headers: headers) {
                #expect($0.status == .badRequest && Self.reason($0) == "bad-encoding")
            }
            headers[.contentEncoding] = "zstd"
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3e3").utf8), headers: headers) {
                #expect($0.status == .unsupportedMediaType && Self.reason($0) == "unsupported-encoding")
            }
            #expect(try Self.events(temporary) == 1)
        }
    }

    @Test func bodiesOverTheLimitsAndDecompressionBombsGet413() async throws {
        try await Self.withServer({ $0.limits.maxBodyBytes = 64 << 10 }) { client, temporary in
            // Over the compressed limit.
            try await Self.post(client, "/api/1/envelope/", [UInt8](repeating: 0x20, count: 100 << 10)) { #expect($0.status == .contentTooLarge) }
            // 32 MiB of spaces gzip to ~32 KiB: over 200 times its size inflated.
            let bomb = try Compression.deflate([UInt8](repeating: 0x20, count: 32 << 20), windowBits: 16 + 15)
            #expect(bomb.count < 64 << 10)
            try await Self.post(client, "/api/1/envelope/", bomb, headers: [.init("X-Sentry-Auth")!: Self.auth, .contentEncoding: "gzip"]) {
                #expect($0.status == .contentTooLarge)
                #expect(Self.text($0).contains("inflates beyond"))
            }
            // One event over 1 MiB in an envelope with a good one: 413, the good one kept.
            let big = Self.event("f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2", value: String(repeating: "x", count: 1_100_000))
            let items = [#"{"type":"event"}"#, Self.event("f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1"), #"{"type":"event"}"#, big]
            let body = try Compression.deflate(Array(Self.envelope("f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1", items: items).utf8), windowBits: 16 + 15)
            try await Self.post(client, "/api/1/envelope/", body, headers: [.init("X-Sentry-Auth")!: Self.auth, .contentEncoding: "gzip"]) {
                #expect($0.status == .contentTooLarge, "\(Self.text($0))")
            }
            #expect(try Self.events(temporary) == 1)
        }
    }

    @Test func aKeyOverItsRateIsToldHowLongToWait() async throws {
        try await Self.withServer({ $0.rateLimit = RateLimit(perSecond: 0.01, burst: 2) }) { client, temporary in
            for i in 1...2 {
                try await Self.post(client, "/api/1/envelope/", Array(Self.envelope(String(repeating: "\(i)", count: 32)).utf8)) { #expect($0.status == .ok) }
            }
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope(String(repeating: "3", count: 32)).utf8)) { response in
                #expect(response.status == .tooManyRequests)
                let wait = Int(response.headers[.retryAfter] ?? "") ?? 0
                #expect((1...100).contains(wait), "a token comes every 100 s")
                #expect(response.headers[.init("X-Sentry-Rate-Limits")!] == "\(wait)::key")
            }
            // Another key has its own bucket.
            try await Self.post(client, "/api/2/envelope/", Array(Self.envelope(String(repeating: "4", count: 32)).utf8),
                                headers: [.init("X-Sentry-Auth")!: "Sentry sentry_key=androidandroidandroidandroidandr"]) { #expect($0.status == .ok) }
            #expect(try Self.events(temporary) == 3)
        }
    }

    /// A store that fails (here a file capped as on a full disk) is answered 503 with Retry-After,
    /// keeps nothing half-written, and the intake recovers by itself once there is room again.
    @Test func aFailingStoreIsAnswered503AndRecoversByItself() async throws {
        let room = Room()
        let folder = try TemporaryFolder()
        let path = folder.path("full.sqlite")
        _ = try TriageStore.open(path, for: .writing)
        let base = try TriageStore.open(path, for: .writing).databaseBytes() / 4096
        room.pages = Int(base) + 2
        try await Self.withServer(open: { try TriageStore.open(path, for: .writing, maxPages: room.pages) }) { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for i in 0..<40 {
                let items = (0..<20).flatMap { j in [#"{"type":"event"}"#, Self.event(String(format: "%016x%016x", i, j), type: "Error\(i)x\(j)")] }
                statuses.append(try await Self.post(client, "/api/1/envelope/", Array(Self.envelope(String(format: "%032x", i), items: items).utf8)) { response in
                    if response.status == .serviceUnavailable { #expect(response.headers[.retryAfter] == "5") }
                    return response.status
                })
                if statuses.last == .serviceUnavailable { break }
            }
            #expect(statuses.last == .serviceUnavailable, "the capped store never filled: \(statuses)")
            let accepted = statuses.filter { $0 == .ok }.count
            let store = try TriageStore.open(path, for: .checking)
            #expect(try store.verify().events == accepted * 20)
            #expect(try store.verify().isSound)
            room.pages = 1_000_000
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f9f").utf8)) { #expect($0.status == .ok) }
            #expect(try store.verify().events == accepted * 20 + 1)
        }
    }

    final class Room: @unchecked Sendable { var pages = 0 }

    /// A disk below the free-space floor: 503 with a long Retry-After, nothing written, and intake
    /// goes on once the floor is met (here: lowered).
    @Test func aDiskAtItsFloorIsAnswered503UntilThereIsRoom() async throws {
        let room = Room()
        room.pages = Int.max
        try await Self.withServer(beforeCommit: { store in try store.checkFreeSpace(floor: Int64(room.pages)) }) { client, temporary in
            guard try temporary.store.freeSpace() != nil else { return }  // a team store's disk is the server's
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0").utf8)) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "60")
                #expect(Self.text(response).contains("floor"), "\(Self.text(response))")
            }
            #expect(try Self.events(temporary) == 0)
            room.pages = 1
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0").utf8)) { #expect($0.status == .ok) }
            #expect(try Self.events(temporary) == 1)
        }
    }

    @Test func healthAndMetrics() async throws {
        try await Self.withServer { client, _ in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9").utf8)) { #expect($0.status == .ok) }
            try await Self.post(client, "/api/1/envelope/", Array(Self.envelope("a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9a9").utf8), headers: [:]) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = Self.text(response)
                #expect(text.contains("errtriage_records_committed_total 1"), "\(text)")
                #expect(text.contains("errtriage_requests_rejected_total{reason=\"no-key\"} 1"), "\(text)")
            }
        }
    }
}

/// zlib's deflate, for bodies the tests send compressed.
enum Compression {
    struct Failure: Error {}

    /// `windowBits` 16+15 for gzip, 15 for zlib, -15 for raw deflate.
    static func deflate(_ input: [UInt8], windowBits: Int32) throws -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure()
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure() }
        return Array(output[0..<Int(stream.total_out)])
    }
}
