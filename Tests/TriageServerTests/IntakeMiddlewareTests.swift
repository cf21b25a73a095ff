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

/// Each of the intake's middlewares in process, on a real store (SQLite, or PostgreSQL in the
/// contract pass): the key before any work, each record charged to the rate limit, bodies read
/// whole or refused, the memory budget, the records a request may carry, values a store cannot
/// hold, and `/healthz` while commits fail.
@Suite struct IntakeMiddlewareTests {
    typealias T = IntakeServerTests

    /// A clock that stands still: the rate limit's buckets refill only when a test moves it.
    final class StillClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 1_000.0
        func advance(_ by: Double) { lock.lock(); seconds += by; lock.unlock() }
        var uptime: Double { lock.lock(); defer { lock.unlock() }; return seconds }
        var clock: ServeClock {
            ServeClock(now: { T.receipt }, uptime: { self.uptime })
        }
    }

    /// A server on a new store with a configuration, a clock and the committer's failure as its health.
    /// The server reads the time a second after the fixtures' envelopes were sent (`T.receipt`), so
    /// that no time sent is corrected for a drift of the machine's clock from the fixtures'.
    static func withServer(_ configure: (inout ServeConfiguration) -> Void = { _ in },
                           clock: ServeClock = ServeClock(now: { T.receipt }, uptime: ServeClock.system.uptime),
                           open: GroupCommitter.Opener? = nil,
                           _ body: @Sendable (RouterClient, TemporaryStore, IntakeStats) async throws -> Void) async throws {
        let temporary = try TemporaryStore()
        let path = temporary.path
        var configuration = ServeConfiguration()
        configure(&configuration)
        let committer = GroupCommitter(open: open ?? { try TriageStore.open(path, for: .writing) })
        defer { committer.close() }
        let stats = IntakeStats()
        let server = IntakeServer(configuration: configuration, committer: committer, keys: KeyRing { T.keys }, stats: stats,
                                  clock: clock, health: { committer.failing.map { "commits fail: \($0.message)" } })
        try await body(RouterClient(router: server.router()), temporary, stats)
    }

    static func nativeLines(_ count: Int, prefix: String) -> [UInt8] {
        Array((0..<count).map { TemporaryStore.event("\(prefix)\($0)", "2026-11-24T08:00:00Z") }.joined(separator: "\n").utf8)
    }

    static func gzip(_ text: String) throws -> [UInt8] { try Compression.deflate(Array(text.utf8), windowBits: 16 + 15) }

    // MARK: - The key, before any work

    /// A body without a key is not inflated: a gzip bomb is refused 401, not inflated to its
    /// limit and refused 413 (as it was, costing every keyless bomb the inflation).
    @Test func keylessBodiesAreRefusedBeforeTheyAreInflated() async throws {
        try await Self.withServer { client, temporary, stats in
            let bomb = try Compression.deflate([UInt8](repeating: 0x20, count: 64 << 20), windowBits: 16 + 15)
            let gzip: HTTPFields = [.contentEncoding: "gzip"]
            for path in ["/api/1/envelope/", "/api/1/store/", "/api/1/events"] {
                try await T.post(client, path, bomb, headers: gzip) { response in
                    #expect(response.status == .unauthorized, "\(path): \(T.text(response))")
                    #expect(response.headers[.connection] == "close")
                }
            }
            #expect(stats.rejections() == [.noKey: 3])
            #expect(try T.events(temporary) == 0)
        }
    }

    /// Another method than POST on an intake endpoint is answered 405 with `Allow: POST`, as
    /// Relay answers, before the key is asked for (none is sent), and counted by its reason.
    @Test func anotherMethodThanPostIsAnswered405BeforeTheKey() async throws {
        try await Self.withServer { client, temporary, stats in
            let paths = ["/api/1/envelope/", "/api/1/store/", "/api/1/elk", "/api/1/events"]
            for path in paths {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .methodNotAllowed, "\(path): \(T.text(response))")
                    #expect(response.headers[.allow] == "POST")
                    #expect(T.text(response) == #"{"detail":"GET is not allowed here: the intake's endpoints take POST","reason":"method-not-allowed"}"# + "\n")
                }
            }
            for method: HTTPRequest.Method in [.put, .patch, .delete, .options] {
                try await client.execute(uri: "/api/1/envelope/", method: method, body: ByteBuffer(string: T.envelope("a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0"))) { response in
                    #expect(response.status == .methodNotAllowed && T.reason(response) == "method-not-allowed", "\(method)")
                    #expect(response.headers[.allow] == "POST")
                }
            }
            #expect(stats.rejections() == [.methodNotAllowed: 8])
            #expect(try T.events(temporary) == 0)
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(T.text(response).contains(#"errtriage_requests_rejected_total{reason="method-not-allowed"} 8"#), "\(T.text(response))")
            }
        }
    }

    /// An envelope whose key is only in its header's DSN is taken, gzip-compressed too: its
    /// first line is decoded to find it.
    @Test func anEnvelopeNamingItsKeyOnlyInItsHeaderIsTaken() async throws {
        try await Self.withServer { client, temporary, _ in
            let id = "e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9e9"
            let envelope = T.envelope(id).replacingOccurrences(
                of: #"{"event_id":"\#(id)","#, with: #"{"event_id":"\#(id)","dsn":"http://\#(T.key)@127.0.0.1:8000/1","#)
            try await T.post(client, "/api/1/envelope/", try Self.gzip(envelope), headers: [.contentEncoding: "gzip"]) {
                #expect($0.status == .ok, "\(T.text($0))")
            }
            // The same DSN posted to another project's path is another project's envelope.
            try await T.post(client, "/api/2/envelope/", Array(envelope.utf8), headers: [:]) { #expect($0.status == .forbidden) }
            #expect(try T.events(temporary) == 1)
        }
    }

    /// The first line of a body still arriving: more is needed until it is there, and a start
    /// that decodes to more than the cap without a line break has none.
    @Test func theFirstLineIsDecodedFromAsMuchOfTheBodyAsHasArrived() throws {
        let envelope = T.envelope("f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0")
        let header = Array(envelope.utf8.prefix { $0 != 0x0A })
        let gzip = try Self.gzip(envelope)
        #expect(BodyDecoder.firstLine(Array(gzip.prefix(8)), contentEncoding: "gzip", complete: false) == .needMore)
        #expect(BodyDecoder.firstLine(gzip, contentEncoding: "gzip", complete: false) == .line(header))
        #expect(BodyDecoder.firstLine(Array(envelope.utf8.prefix(20)), contentEncoding: nil, complete: false) == .needMore)
        #expect(BodyDecoder.firstLine(Array(envelope.utf8), contentEncoding: nil) == .line(header))
        let bomb = try Compression.deflate([UInt8](repeating: 0x20, count: 1 << 20), windowBits: 16 + 15)
        #expect(BodyDecoder.firstLine(Array(bomb.prefix(200)), contentEncoding: "gzip", complete: false) == .none)
        #expect(BodyDecoder.firstLine([UInt8](repeating: 0x41, count: 20_000), contentEncoding: nil, complete: false) == .none)
        #expect(BodyDecoder.firstLine(Array("not gzip at all".utf8), contentEncoding: "gzip") == .none)
    }

    /// A first line is read to its newline however much the same inflating pass gives after it
    /// (a pass fills 64 KiB): a header of a few hundred bytes before 200 KB of event is found,
    /// gzip, zlib and raw deflate alike, whole or as it arrives; a line over the cap is none.
    @Test func theFirstLineIsReadToItsNewlineWhateverFollowsIt() throws {
        let header = #"{"event_id":"f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1","dsn":"http://\#(T.key)@127.0.0.1:8000/1"}"#
        let body = Array((header + "\n" + #"{"type":"event"}"# + "\n" + String(repeating: "padding ", count: 25_000) + "\n").utf8)
        for (encoding, bits) in [("gzip", Int32(16 + 15)), ("deflate", 15), ("deflate", -15)] {
            let compressed = try Compression.deflate(body, windowBits: bits)
            #expect(BodyDecoder.firstLine(compressed, contentEncoding: encoding) == .line(Array(header.utf8)), "\(encoding) \(bits)")
            #expect(BodyDecoder.firstLine(compressed, contentEncoding: encoding, complete: false) == .line(Array(header.utf8)), "\(encoding) \(bits)")
        }
        let long = Array((String(repeating: "y", count: 20_000) + "\n").utf8)
        #expect(BodyDecoder.firstLine(try Compression.deflate(long, windowBits: 31), contentEncoding: "gzip") == .none)
        // A start of empty stored blocks, which inflate to nothing: no header is looked for past
        // `sentCap` bytes of it (it would be decoded again at each part that arrives).
        let empty = [0x78, 0x9C] + Array([[UInt8]](repeating: [0x00, 0x00, 0x00, 0xFF, 0xFF], count: 40_000).joined())
        #expect(BodyDecoder.firstLine(Array(empty.prefix(1000)), contentEncoding: "deflate", complete: false) == .needMore)
        #expect(BodyDecoder.firstLine(empty, contentEncoding: "deflate", complete: false) == .none)
    }

    /// A body's storage is held against the budget as it grows, old and new storage both while
    /// it is copied: what inflating reserves covers what it allocates.
    @Test func inflatingHoldsItsStorageAgainstTheBudget() throws {
        let body = try Compression.deflate([UInt8](repeating: 0x41, count: 3 << 20), windowBits: 31)
        var held = 0, peak = 0
        let decoded = try BodyDecoder.decode(body, contentEncoding: "gzip", reserve: { held += $0; peak = max(peak, held); return true },
                                             release: { held -= $0 })
        #expect(decoded.count == 3 << 20)
        #expect(held >= decoded.count && held <= 2 * decoded.count, "\(held)")
        #expect(peak >= held + decoded.count / 2, "the copy to a larger storage holds both: peak \(peak), held \(held)")
        // A budget that refuses past 1 MiB stops the inflating there.
        var budget = 1 << 20
        #expect(throws: BodyRefusal.self) {
            _ = try BodyDecoder.decode(body, contentEncoding: "gzip", reserve: { count in
                guard count <= budget else { return false }
                budget -= count
                return true
            }, release: { budget += $0 })
        }
    }

    // MARK: - Bodies read whole or refused

    /// Two gzip members (`cat a.gz b.gz`) are one body: both are read. Bytes after a stream's
    /// end are refused, never dropped unread behind a 200.
    @Test func everyGzipMemberIsReadAndTrailingBytesAreRefused() async throws {
        try await Self.withServer { client, temporary, _ in
            let first = try Self.gzip(T.envelope("a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0"))
            let second = try Self.gzip(T.envelope("a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"))
            var headers: HTTPFields = [.init("X-Sentry-Auth")!: T.auth, .contentEncoding: "gzip"]
            try await T.post(client, "/api/1/envelope/", first + second, headers: headers) { #expect($0.status == .ok, "\(T.text($0))") }
            #expect(try T.events(temporary) == 2)

            let garbage = [UInt8](repeating: 0x41, count: 1 << 20)
            try await T.post(client, "/api/1/envelope/", try Self.gzip(T.envelope("a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2")) + garbage, headers: headers) {
                #expect($0.status == .badRequest)
                #expect(T.text($0).contains("after its stream's end"), "\(T.text($0))")
            }
            headers[.contentEncoding] = "deflate"
            for windowBits: Int32 in [15, -15] {
                let body = try Compression.deflate(Array(T.envelope("a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3").utf8), windowBits: windowBits)
                try await T.post(client, "/api/1/envelope/", body + [0x00, 0x01], headers: headers) { #expect($0.status == .badRequest, "\(T.text($0))") }
            }
            headers[.contentEncoding] = "br"
            try await T.post(client, "/api/1/envelope/", Array(Data(base64Encoded: T.brotliEnvelope)!) + [0x42], headers: headers) {
                #expect($0.status == .badRequest, "\(T.text($0))")
            }
            #expect(try T.events(temporary) == 2)
        }
    }

    /// A body that alone inflates past the whole memory budget is refused as it inflates: 413,
    /// since it could never fit (a budget others hold is 503 to come back, HostileBoundsTests).
    @Test func aBodyPastTheWholeMemoryBudgetIsAnswered413() async throws {
        try await Self.withServer({ $0.maxInFlightBytes = 1 << 20 }) { client, temporary, stats in
            let padding = String(repeating: " ", count: 3 << 20)
            let body = try Self.gzip(T.envelope("b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5b5") + padding)
            try await T.post(client, "/api/1/envelope/", body, headers: [.init("X-Sentry-Auth")!: T.auth, .contentEncoding: "gzip"]) { response in
                #expect(response.status == .contentTooLarge, "\(T.text(response))")
                #expect(T.text(response).contains("--max-in-flight, 1 MiB"), "\(T.text(response))")
            }
            #expect(stats.rejections() == [.tooLarge: 1])
            // The budget was given back: a small body goes in.
            try await T.post(client, "/api/1/envelope/", Array(T.envelope("b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6b6").utf8)) { #expect($0.status == .ok) }
            #expect(try T.events(temporary) == 1)
        }
    }

    // MARK: - Limits per record

    /// A request carries at most `maxRecordsPerRequest` records; one with more is refused whole.
    @Test func aBodyWithMoreRecordsThanARequestMayCarryIsRefusedWhole() async throws {
        try await Self.withServer({ $0.maxRecordsPerRequest = 100 }) { client, temporary, _ in
            try await T.post(client, "/api/1/events", Self.nativeLines(101, prefix: "m")) { response in
                #expect(response.status == .contentTooLarge)
                #expect(T.text(response).contains("more than 100 records"), "\(T.text(response))")
            }
            try await T.post(client, "/api/1/events", Self.nativeLines(100, prefix: "m")) { #expect($0.status == .ok) }
            #expect(try T.events(temporary) == 100)
        }
    }

    /// Each record takes a token: a request keeps the records within the limit and is told, with
    /// 429, how many it kept and when the rest may come; a key with none in hand is refused
    /// before its body is read.
    @Test func eachRecordIsChargedAndTheRestAreToldWhenToComeBack() async throws {
        let still = StillClock()
        try await Self.withServer({ $0.rateLimit = RateLimit(perSecond: 100, burst: 500) }, clock: still.clock) { client, temporary, stats in
            try await T.post(client, "/api/1/events", Self.nativeLines(300, prefix: "r")) { #expect($0.status == .ok, "\(T.text($0))") }
            try await T.post(client, "/api/1/events", Self.nativeLines(300, prefix: "s")) { response in
                #expect(response.status == .tooManyRequests)
                let answer = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(answer?["accepted"] as? Int == 200 && answer?["refused"] as? Int == 100, "\(T.text(response))")
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.headers[HTTPField.Name("X-Sentry-Rate-Limits")!] == "1::key")
            }
            try await T.post(client, "/api/1/events", Self.nativeLines(1, prefix: "t")) { #expect($0.status == .tooManyRequests) }
            #expect(try T.events(temporary) == 500)
            #expect(stats.rejections()[.rateLimited] == 101)
            // A second later, a hundred tokens more.
            still.advance(1)
            try await T.post(client, "/api/1/events", Self.nativeLines(100, prefix: "u")) { #expect($0.status == .ok) }
            #expect(try T.events(temporary) == 600)
        }
    }

    // MARK: - What a store cannot hold

    /// U+0000 in every value a probe found breaking commits: each event with it is stored, the
    /// same values again commit too, and the store checks sound.
    @Test func nulInAnyValueIsStoredAndLaterEventsWithItCommit() async throws {
        try await Self.withServer { client, temporary, _ in
            func event(_ id: String) -> String {
                #"{"event_id":"\#(id)","timestamp":"2026-11-24T10:00:00Z","platform":"python","level":"error","release":"app@1.\u00002","environment":"prod\u0000uction","message":"m\u0000","contexts":{"device":{"model":"Pixel\u00007"},"app":{"app_version":"3\u0000"}},"exception":{"values":[{"type":"TimeoutError","value":"timed\u0000out","mechanism":{"type":"generic","handled":true}}]}}"#
            }
            for id in ["c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0", "c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1"] {
                try await T.post(client, "/api/1/envelope/", Array(T.envelope(id, items: [#"{"type":"event"}"#, event(id)]).utf8)) {
                    #expect($0.status == .ok, "\(T.text($0))")
                }
            }
            let lines = (0..<2).map { #"{"event_id":"n\#($0)","timestamp":"2026-11-24T08:00:00Z","codes":"US14","network":"wi\u0000fi","device":{"model":"x\u0000"},"app":{"version":"2\u0000"},"message":"a\u0000b"}"# }
            try await T.post(client, "/api/1/events", Array(lines.joined(separator: "\n").utf8)) { #expect($0.status == .ok, "\(T.text($0))") }
            #expect(try T.events(temporary) == 4)
            #expect(try temporary.store.verify().isSound)
            var stored: [ErrorEvent] = []
            try temporary.store.exportEvents(window: .all, now: Timestamp.parse("2026-11-25T00:00:00Z")!, key: nil) { stored.append($0) }
            #expect(stored.contains { $0.deviceModel == "Pixel\u{2400}7" && $0.environment == "prod\u{2400}uction" }, "\(stored.map(\.deviceModel))")
            #expect(stored.contains { $0.network == "wi\u{2400}fi" && $0.appVersion == "2\u{2400}" })
        }
    }

    // MARK: - Health

    /// `/healthz` answers 503 `degraded` while the store fails commits, and `ok` once it commits again.
    @Test func healthIsDegradedWhileCommitsFail() async throws {
        let broken = Switch()
        broken.value = true
        let temporary = try TemporaryStore()
        let path = temporary.path
        try await Self.withServer(open: {
            if broken.value { throw StoreError("disk I/O error") }
            return try TriageStore.open(path, for: .writing)
        }) { client, _, _ in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await T.post(client, "/api/1/envelope/", Array(T.envelope("d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0").utf8)) {
                #expect($0.status == .serviceUnavailable)
            }
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(T.text(response).hasPrefix("degraded: commits fail: disk I/O error"), "\(T.text(response))")
            }
            broken.value = false
            try await T.post(client, "/api/1/envelope/", Array(T.envelope("d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1").utf8)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }
}

/// A switch a test flips while a store opener reads it.
final class Switch: @unchecked Sendable {
    private let lock = NSLock()
    private var v = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return v }
        set { lock.lock(); v = newValue; lock.unlock() }
    }
}
