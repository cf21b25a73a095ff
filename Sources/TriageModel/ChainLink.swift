/// One layer of an error chain: the error type that wrapped the layer below, with its code.
public struct ChainLink: Hashable, Sendable, Codable {
    /// The error type's name, e.g. `APIError`; nil where only the short key is known.
    public var domain: String?
    /// The domain's short name, e.g. `AP`: uppercase ASCII letters.
    public var short: String
    /// The code inside the domain; may be negative (`NSURLErrorDomain` -1009).
    public var code: Int
    /// The code's name, e.g. `getTokenFailed` or `validationFailure(ValidationError.valueOutOfBounds)`.
    public var name: String?
    /// Where the code came from; nil where the source states it (every native chain).
    public var origin: CodeOrigin?

    public init(domain: String? = nil, short: String, code: Int, name: String? = nil, origin: CodeOrigin? = nil) {
        self.domain = domain
        self.short = short
        self.code = code
        self.name = name
        self.origin = origin
    }

    /// The link's part of the short key, e.g. `AP7`, or `NSn1009` for a negative code.
    public var shortCode: String { ShortKey.link(short: short, code: code) }

    /// The link's part of the full form, e.g. `APIError.getTokenFailed`; unknown parts read `?`.
    public var fullName: String { FullForm.link(domain: domain ?? "?", name: name ?? "?") }

    /// Whether both the domain and the name are known.
    public var isNamed: Bool { domain != nil && name != nil }

    /// Links are the same layer by domain, short name, code and name; where the code came from
    /// describes it and does not make it another link.
    public static func == (a: ChainLink, b: ChainLink) -> Bool {
        a.domain == b.domain && a.short == b.short && a.code == b.code && a.name == b.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(domain)
        hasher.combine(short)
        hasher.combine(code)
        hasher.combine(name)
    }
}

/// Where a link's code came from, when the source did not state it as a code.
public enum CodeOrigin: String, CaseIterable, Sendable, Codable {
    /// The source gave it as a code (an NSError code, `errno`, a numeric `code` field).
    case stated
    /// Read from the error's message: Apple's `(Domain error N.)`, a leading `[N]` or `(N)`, `code N`.
    case message
    /// Derived from the error's type and where it was raised (`RaiseSite`), or, where no stack
    /// trace tells that, its own message's template: the same situation keeps it, others do not share it.
    case derived

    /// How `decode` and the Chain pane say it.
    public var label: String {
        switch self {
        case .stated: "stated"
        case .message: "from the message"
        case .derived: "derived from type and raise site or message"
        }
    }
}
