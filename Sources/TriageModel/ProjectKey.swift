/// A project: what apps send errors to, named by the team (`ios`, `android`), numbered by the store.
public struct Project: Hashable, Sendable {
    /// The small integer a DSN ends with.
    public var id: Int
    public var name: String
    public var created: Timestamp

    public init(id: Int, name: String, created: Timestamp) {
        self.id = id
        self.name = name
        self.created = created
    }

    /// Why a project name is refused, or nil when it is a good one: 1 to 64 letters, digits,
    /// `.`, `_` or `-`, so that it is one word in a query (`project:ios`) and in a URL.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a project needs a name" }
        if name.utf8.count > 64 { return "a project name is at most 64 characters" }
        let allowed = name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
        }
        return allowed ? nil : "a project name is letters, digits, '.', '_' and '-' only"
    }
}

/// A project's public key: what an SDK's DSN carries (`sentry_key`) and the server checks.
public struct ProjectKey: Hashable, Sendable {
    /// 32 lowercase hexadecimal digits.
    public var publicKey: String
    public var projectID: Int
    public var projectName: String
    /// A revoked key is kept, and refused.
    public var revoked: Bool
    public var created: Timestamp
    /// When it was revoked; nil while active.
    public var revokedAt: Timestamp?
    /// Where `key add --url` said the server is reached, kept for its DSN; nil when none was given.
    public var base: DSNBase?

    public init(publicKey: String, projectID: Int, projectName: String, revoked: Bool, created: Timestamp,
                revokedAt: Timestamp? = nil, base: DSNBase? = nil) {
        self.publicKey = publicKey
        self.projectID = projectID
        self.projectName = projectName
        self.revoked = revoked
        self.created = created
        self.revokedAt = revokedAt
        self.base = base
    }

    /// A new public key: 16 random bytes as 32 lowercase hexadecimal digits. The default generator
    /// is the system's secure one (getrandom on Linux, arc4random on Apple platforms).
    public static func newPublicKey<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for _ in 0..<2 {
            var word = generator.next()
            for _ in 0..<16 {
                text.append(digits[Int(word & 0xF)])
                word >>= 4
            }
        }
        return text
    }

    /// A new public key from the system's secure generator.
    public static func newPublicKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return newPublicKey(using: &generator)
    }

    /// Whether a text has the shape of a public key (32 lowercase hexadecimal digits).
    public static func isPublicKey(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The DSN an SDK is given: `http://KEY@HOST:PORT/ID`, on `base` (`scheme://host[:port][/path]`,
    /// checked by `DSNBase`).
    public func dsn(base: DSNBase) -> String {
        "\(base.scheme)://\(publicKey)@\(base.hostAndPort)\(base.path)/\(projectID)"
    }

    /// The DSN on `base` when one is given (`key list --url`), else on the key's own base, else on the default.
    public func dsn(over base: DSNBase?) -> String { dsn(base: base ?? self.base ?? .default) }
}

/// Where a DSN points: the scheme, host, port and path of the server's URL, as `key add --url` gives it.
public struct DSNBase: Hashable, Sendable {
    public var scheme: String
    public var hostAndPort: String
    /// Empty, or a path starting with `/` and not ending with one (a server behind a proxy's prefix).
    public var path: String

    /// Reads `http://HOST[:PORT][/PATH]` (or https), or says why it cannot be a DSN's base.
    public static func parse(_ text: String) -> Result<DSNBase, DSNBaseError> {
        guard let scheme = ["https", "http"].first(where: { text.lowercased().hasPrefix($0 + "://") }) else {
            return .failure(DSNBaseError(text: text, reason: "must start with http:// or https://"))
        }
        var rest = String(text.dropFirst(scheme.count + 3))
        while rest.hasSuffix("/") { rest.removeLast() }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = String(rest[..<slash]), path = String(rest[slash...])
        guard !host.isEmpty else { return .failure(DSNBaseError(text: text, reason: "names no host")) }
        guard !host.contains("@") else { return .failure(DSNBaseError(text: text, reason: "must not carry a user (the DSN puts the key there)")) }
        let bad: (Character) -> Bool = { $0 == "?" || $0 == "#" || $0 == " " || $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) }
        guard !host.contains(where: bad), !path.contains(where: bad) else {
            return .failure(DSNBaseError(text: text, reason: "must be a plain URL without spaces, a query or a fragment"))
        }
        return .success(DSNBase(scheme: scheme, hostAndPort: host, path: path))
    }

    /// The URL as `parse` reads it back: `scheme://host[:port][/path]`.
    public var text: String { "\(scheme)://\(hostAndPort)\(path)" }

    /// The default, `http://127.0.0.1:8000`: where `errtriage serve` listens unless told otherwise.
    public static let `default` = DSNBase(scheme: "http", hostAndPort: "127.0.0.1:8000", path: "")
}

/// Why a URL cannot be a DSN's base: one sentence.
public struct DSNBaseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "the URL \"\(text)\" \(reason)" }
}

/// A project with its keys, newest first: what `key list` shows.
public struct ProjectKeys: Hashable, Sendable {
    public var project: Project
    public var keys: [ProjectKey]

    public init(project: Project, keys: [ProjectKey]) {
        self.project = project
        self.keys = keys
    }
}
