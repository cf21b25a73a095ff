import Foundation

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
public final class KeyRing: @unchecked Sendable {
    private let load: @Sendable () throws -> [IntakeKey]
    private let refreshSeconds: Double
    static let missInterval = 0.25
    private let lock = NSLock()
    private var keys: [String: IntakeKey] = [:]
    /// When the last read began, and when the last read that is done began.
    private var readBegan = -Double.infinity
    private var readDone = -Double.infinity
    private let reads = Reads()

    /// Told when the keys cannot be read (the keys last read stay in use).
    let onFailure: @Sendable (any Error) -> Void

    public init(refreshSeconds: Double = 2, load: @escaping @Sendable () throws -> [IntakeKey],
                onFailure: @escaping @Sendable (any Error) -> Void = { _ in }) {
        self.load = load
        self.refreshSeconds = refreshSeconds
        self.onFailure = onFailure
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Reads the keys now; throws what the store threw.
    public func reload() throws {
        let began = Self.now()
        lock.lock()
        readBegan = began
        lock.unlock()
        // Done, whether the store answered or not: a request waiting for it stops waiting.
        defer {
            lock.lock()
            readDone = max(readDone, began)
            lock.unlock()
        }
        let fresh = try load()
        lock.lock()
        keys = Dictionary(fresh.map { ($0.publicKey, $0) }, uniquingKeysWith: { a, _ in a })
        lock.unlock()
    }

    private func cached(_ key: String) -> (key: IntakeKey?, began: Double) {
        lock.lock(); defer { lock.unlock() }
        return (keys[key], readBegan)
    }

    public func verify(key: String?, projectID: Int) async -> KeyVerdict {
        guard let key, !key.isEmpty else { return .missing }
        let arrival = Self.now()
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

    var lastBegan: Double {
        lock.lock(); defer { lock.unlock() }
        return readBegan
    }

    var lastDone: Double {
        lock.lock(); defer { lock.unlock() }
        return readDone
    }

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
                let wait = ring.lastBegan + KeyRing.missInterval - KeyRing.now()
                if ring.lastBegan < arrival, wait > 0 {
                    try? await Task.sleep(for: .milliseconds(Int64(wait * 1000) + 1))
                    continue
                }
                // The task clears `current` before it ends, so whoever awaited it finds it gone.
                current = Task.detached {
                    do { try ring.reload() } catch { ring.onFailure(error) }
                    await self.finished()
                }
            }
        }

        private func finished() { current = nil }
    }
}
