import ChildProcess
import Foundation
import LoopbackHTTP
import NIOCore
import NIOPosix
import Synchronization

/// The serve bench's load generator: Sentry envelopes POSTed to one `errtriage serve` on
/// loopback over a pool of keep-alive HTTP/1 connections (`LoopbackConnection`, SwiftNIO's HTTP/1
/// codec). Bounded in count and in time; it only ever talks to 127.0.0.1.
///
/// Two shapes: a closed loop (each connection sends its next request as soon as the last one is
/// answered: the most the server takes) and an open loop (request `i` is due at `start + i/rate`
/// whatever the answers do, and its latency runs from that due time to its answer, so a server
/// that falls behind is charged for the queue it builds, not hidden by a client that waits).
final class ServeLoad: Sendable {
    struct Target: Sendable {
        var port: Int
        var projectID: Int
        var key: String
        var url: String { "http://127.0.0.1:\(port)/api/\(projectID)/envelope/" }
    }

    /// What a run saw.
    struct Outcome: Sendable {
        /// The ids answered 200 with their own id, each with when (clock seconds).
        var acknowledged: [(id: String, at: Double)] = []
        /// Per request answered 200: seconds from its due time (open loop) or its sending (closed) to its answer.
        var latencies: [Double] = []
        /// Requests that got another status, by status.
        var statuses: [Int: Int] = [:]
        /// Requests that got no answer (connection refused or reset, timeout).
        var errors = 0
        var firstError: String?
        var started = 0.0
        var ended = 0.0
        var sent = 0

        mutating func merge(_ other: Outcome) {
            acknowledged += other.acknowledged
            latencies += other.latencies
            statuses.merge(other.statuses, uniquingKeysWith: +)
            errors += other.errors
            if firstError == nil { firstError = other.firstError }
            sent += other.sent
        }

        /// Acknowledged events per second between `from` and `to` (clock seconds).
        func rate(from: Double, to: Double) -> Double {
            guard to > from else { return 0 }
            return Double(acknowledged.count(where: { $0.at >= from && $0.at <= to })) / (to - from)
        }

        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }

        var summary: String {
            var parts = ["\(sent) sent", "\(acknowledged.count) acknowledged"]
            for (status, n) in statuses.sorted(by: { $0.key < $1.key }) { parts.append("\(n) answered \(status)") }
            if errors > 0 { parts.append("\(errors) unanswered (\(firstError ?? "?"))") }
            return parts.joined(separator: ", ")
        }
    }

    /// Set once to stop a run early (the kill test's killer).
    final class Stop: Sendable {
        private let stopped = Atomic<Bool>(false)
        var isSet: Bool { stopped.load(ordering: .acquiring) }
        func set() { stopped.store(true, ordering: .releasing) }
    }

    let target: Target
    let envelopes: ServeEnvelopes
    let connections: Int
    let group: MultiThreadedEventLoopGroup
    let pool: Pool
    private let counter = Counter()

    /// `retry`: whether a connection the server refused is tried again (off for the kill test,
    /// where the server is gone on purpose).
    init(target: Target, envelopes: ServeEnvelopes, connections: Int, threads: Int, retry: Bool = true) {
        self.target = target
        self.envelopes = envelopes
        self.connections = connections
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
        pool = Pool(port: target.port, limit: connections, group: group, retry: retry)
    }

    func shutdown() async {
        await pool.shutdown()
        try? await group.shutdownGracefully()
    }

    /// Keep-alive connections to the server, at most `limit`: a request takes an idle one, opens one
    /// while fewer are open, or waits for one to be given back. A connection the server closed is
    /// dropped and its place given to the next that waits.
    actor Pool {
        let port: Int
        let limit: Int
        let group: MultiThreadedEventLoopGroup
        let retry: Bool
        private var idle: [LoopbackConnection] = []
        private var open = 0
        /// Each waiter is handed an open connection, or (nil) a place to open one.
        private var waiting: [CheckedContinuation<LoopbackConnection?, Never>] = []

        init(port: Int, limit: Int, group: MultiThreadedEventLoopGroup, retry: Bool) {
            self.port = port
            self.limit = limit
            self.group = group
            self.retry = retry
        }

        func acquire() async throws -> LoopbackConnection {
            while let connection = idle.popLast() {
                if connection.isActive { return connection }
                open -= 1
            }
            if open >= limit, let handed = await withCheckedContinuation({ waiting.append($0) }) { return handed }
            if open < limit { open += 1 }
            do {
                return try await connect()
            } catch {
                place()
                throw error
            }
        }

        /// Opens a connection; a refused one is tried again for a second where `retry`.
        private func connect() async throws -> LoopbackConnection {
            let deadline = ChildProcess.clock() + (retry ? 1 : 0)
            while true {
                do {
                    return try await LoopbackConnection(port: port, group: group)
                } catch {
                    guard ChildProcess.clock() < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }

        func release(_ connection: LoopbackConnection) {
            guard connection.isActive else { return place() }
            if waiting.isEmpty { idle.append(connection) } else { waiting.removeFirst().resume(returning: connection) }
        }

        /// A place freed (a connection closed, or one that could not be opened).
        private func place() {
            if waiting.isEmpty { open -= 1 } else { waiting.removeFirst().resume(returning: nil) }
        }

        func shutdown() async {
            for connection in idle { await connection.close() }
            idle = []
        }
    }

    /// Sends request `n` and records its answer into `outcome`; `due` is when it was due (clock seconds).
    private func send(_ n: Int, due: Double, into outcome: inout Outcome) async {
        let (bytes, id) = envelopes.body(n)
        let request = LoopbackRequest(.POST, "/api/\(target.projectID)/envelope/", headers: [
            ("User-Agent", "sentry.python.flask/2.19.2"),
            ("Content-Type", "application/x-sentry-envelope"),
            ("X-Sentry-Auth", "Sentry sentry_key=\(target.key), sentry_version=7, sentry_client=sentry.python.flask/2.19.2"),
        ], body: bytes)
        outcome.sent += 1
        do {
            let connection = try await pool.acquire()
            let answered: Result<LoopbackResponse, any Error>
            do { answered = .success(try await connection.send(request, timeout: 30)) } catch { answered = .failure(error) }
            await pool.release(connection)
            let response = try answered.get()
            let now = ChildProcess.clock()
            if response.status == 200, response.text.contains(id) {
                outcome.acknowledged.append((id, now))
                outcome.latencies.append(now - due)
            } else {
                outcome.statuses[response.status, default: 0] += 1
            }
        } catch {
            outcome.errors += 1
            if outcome.firstError == nil { outcome.firstError = "\(error)" }
        }
    }

    /// Each of the pool's connections sends its next request when the last is answered, until
    /// `seconds` have passed, `maxRequests` were sent, or `stop` is set.
    func closedLoop(seconds: Double, maxRequests: Int, stop: Stop? = nil) async -> Outcome {
        let started = ChildProcess.clock()
        let deadline = started + seconds
        var total = await withTaskGroup(of: Outcome.self) { tasks in
            for _ in 0..<connections {
                tasks.addTask { [self] in
                    var outcome = Outcome()
                    while ChildProcess.clock() < deadline, !(stop?.isSet ?? false) {
                        let n = counter.next()
                        guard n < maxRequests else { break }
                        await send(n, due: ChildProcess.clock(), into: &outcome)
                    }
                    return outcome
                }
            }
            var total = Outcome()
            for await outcome in tasks { total.merge(outcome) }
            return total
        }
        total.started = started
        total.ended = ChildProcess.clock()
        return total
    }

    /// Request `i` due at `start + i / rate`, sent then whatever came back before, for `seconds`
    /// (`rate * seconds` requests); the pool queues what finds every connection busy.
    func openLoop(rate: Double, seconds: Double) async -> Outcome {
        let count = Int(rate * seconds)
        let started = ChildProcess.clock() + 0.05
        var total = await withTaskGroup(of: Outcome.self) { tasks in
            var i = 0
            while i < count {
                let now = ChildProcess.clock()
                // Every request due by now goes now (the sleep below may wake late).
                while i < count, started + Double(i) / rate <= now {
                    let due = started + Double(i) / rate
                    let n = counter.next()
                    tasks.addTask { [self] in
                        var outcome = Outcome()
                        await send(n, due: due, into: &outcome)
                        return outcome
                    }
                    i += 1
                }
                if i < count {
                    let wait = started + Double(i) / rate - ChildProcess.clock()
                    if wait > 0 { try? await Task.sleep(for: .microseconds(Int64(wait * 1e6))) }
                }
            }
            var total = Outcome()
            for await outcome in tasks { total.merge(outcome) }
            return total
        }
        total.started = started
        total.ended = ChildProcess.clock()
        return total
    }

    /// Runs `body` to its end from synchronous code (the bench's), on the concurrency pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await body()
            box.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return box.withLock { $0! }
    }

    /// Request numbers, unique across the load's tasks.
    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func next() -> Int { value.add(1, ordering: .relaxed).oldValue }
        /// Starts the numbering at `start` (so runs on one store never repeat an id).
        func reset(to start: Int) { value.store(start, ordering: .relaxed) }
    }

    /// Numbers the next requests from `start`.
    func number(from start: Int) { counter.reset(to: start) }
}
