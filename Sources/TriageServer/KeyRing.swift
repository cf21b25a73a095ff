import NIOPosix
import Synchronization

/// A project's public key, as the server checks it.
public struct IntakeKey: Sendable, Equatable {
    public var publicKey: String
    public var projectID: Int
    public var project: String
    public var revoked: Bool

    public init(publicKey: String, projectID: Int, project: String, revoked: Bool) {
        self.publicKey = publicKey
        self.projectID = projectID
        self.project = project
        self.revoked = revoked
    }
}

/// What a request's key is worth.
public enum KeyVerdict: Sendable, Equatable {
    case accepted(IntakeKey)
    /// No key given, or one the store does not hold: 401.
    case missing, unknown
    /// A revoked key, or a key of another project than the URL names: 403.
    case revoked, wrongProject
}

/// The store's keys, held in memory and read again every `refreshSeconds` (so a key revoked with
/// `errtriage key revoke` counts within that time), and when a request names a key not held, unless a
/// read that began after the request came has missed it already. Reads for unknown keys begin
/// `missInterval` apart at most, each serving every request waiting meanwhile, so a flood of
/// unknown keys costs four reads a second and a key added with `errtriage key add` is taken by its
/// first request. When the store cannot be read, the keys last read stay in use.
public final class KeyRing: Sendable {
    private let load: @Sendable () throws -> [IntakeKey]
    private let refreshSeconds: Double
    static let missInterval = 0.25
    private let clock: ServeClock
    private struct State {
        var keys: [String: IntakeKey] = [:]
        /// When the last read began, and when the last read that is done began.
        var readBegan = -Double.infinity
        var readDone = -Double.infinity
    }
    private let state = Mutex(State())
    private let reads = Reads()

    /// Told when the keys cannot be read (the keys last read stay in use).
    let onFailure: @Sendable (any Error) -> Void

    public init(refreshSeconds: Double = 2, clock: ServeClock = .system, load: @escaping @Sendable () throws -> [IntakeKey],
                onFailure: @escaping @Sendable (any Error) -> Void = { _ in }) {
        self.load = load
        self.refreshSeconds = refreshSeconds
        self.clock = clock
        self.onFailure = onFailure
    }

    func now() -> Double { clock.uptime() }

    /// Reads the keys now; throws what the store threw.
    public func reload() throws {
        let began = now()
        state.withLock { $0.readBegan = began }
        // Done, whether the store answered or not: a request waiting for it stops waiting.
        defer { state.withLock { $0.readDone = max($0.readDone, began) } }
        let fresh = try load()
        let keys = Dictionary(fresh.map { ($0.publicKey, $0) }, uniquingKeysWith: { a, _ in a })
        state.withLock { $0.keys = keys }
    }

    private func cached(_ key: String) -> (key: IntakeKey?, began: Double) {
        state.withLock { ($0.keys[key], $0.readBegan) }
    }

    public func verify(key: String?, projectID: Int) async -> KeyVerdict {
        guard let key, !key.isEmpty else { return .missing }
        let arrival = now()
        var (found, began) = cached(key)
        if found == nil || arrival - began > refreshSeconds {
            await reads.read(after: arrival, ring: self)
            (found, _) = cached(key)
        }
        guard let found else { return .unknown }
        if found.revoked { return .revoked }
        if found.projectID != projectID { return .wrongProject }
        return .accepted(found)
    }

    var lastBegan: Double { state.withLock { $0.readBegan } }

    var lastDone: Double { state.withLock { $0.readDone } }

    /// One read at a time; a request waits for the first read that begins after it came.
    private actor Reads {
        private var current: Task<Void, Never>?

        func read(after arrival: Double, ring: KeyRing) async {
            // Until a read that began after the request came is done.
            while ring.lastDone < arrival {
                if let running = current {
                    await running.value
                    continue
                }
                let wait = ring.lastBegan + KeyRing.missInterval - ring.now()
                if ring.lastBegan < arrival, wait > 0 {
                    try? await Task.sleep(for: .milliseconds(Int64(wait * 1000) + 1))
                    continue
                }
                // The read blocks on the store: it runs on the thread pool, off the server's
                // threads. The task clears `current` before it ends, so whoever awaited it finds it gone.
                current = Task {
                    do { try await NIOThreadPool.singleton.runIfActive { try ring.reload() } } catch { ring.onFailure(error) }
                    self.finished()
                }
            }
        }

        private func finished() { current = nil }
    }
}
