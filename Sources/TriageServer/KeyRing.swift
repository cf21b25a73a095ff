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

/// The store's keys, held in memory and read again every `refreshSeconds` (so a key added or
/// revoked with `errtriage key` counts within that time), and at most once a second when a request
/// names a key not held. When the store cannot be read, the keys last read stay in use.
public final class KeyRing: @unchecked Sendable {
    private let load: @Sendable () throws -> [IntakeKey]
    private let refreshSeconds: Double
    private let lock = NSLock()
    private var keys: [String: IntakeKey] = [:]
    private var loadedAt = -Double.infinity
    private var missReloadAt = -Double.infinity

    public init(refreshSeconds: Double = 2, load: @escaping @Sendable () throws -> [IntakeKey]) {
        self.load = load
        self.refreshSeconds = refreshSeconds
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Reads the keys now; throws what the store threw.
    public func reload() throws {
        let fresh = try load()
        lock.lock()
        keys = Dictionary(fresh.map { ($0.publicKey, $0) }, uniquingKeysWith: { a, _ in a })
        loadedAt = Self.now()
        lock.unlock()
    }

    public func verify(key: String?, projectID: Int) -> KeyVerdict {
        guard let key, !key.isEmpty else { return .missing }
        let now = Self.now()
        lock.lock()
        let stale = now - loadedAt > refreshSeconds
        var found = keys[key]
        let retry = found == nil && now - missReloadAt >= 1
        if retry { missReloadAt = now }
        lock.unlock()
        if stale || retry {
            try? reload()
            lock.lock()
            found = keys[key]
            lock.unlock()
        }
        guard let found else { return .unknown }
        if found.revoked { return .revoked }
        if found.projectID != projectID { return .wrongProject }
        return .accepted(found)
    }
}
