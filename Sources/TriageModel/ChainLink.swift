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

    public init(domain: String? = nil, short: String, code: Int, name: String? = nil) {
        self.domain = domain
        self.short = short
        self.code = code
        self.name = name
    }

    /// The link's part of the short key, e.g. `AP7`, or `NSn1009` for a negative code.
    public var shortCode: String { short + ShortKey.encode(code: code) }

    /// The link's part of the full form, e.g. `APIError.getTokenFailed`; unknown parts read `?`.
    public var fullName: String { "\(domain ?? "?").\(name ?? "?")" }

    /// Whether both the domain and the name are known.
    public var isNamed: Bool { domain != nil && name != nil }
}
