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

    /// Whether the name is a case name of the app's (`getTokenFailed`, `validationFailure(…)`)
    /// rather than a message or its template (`'<value>'`, `invalid literal for int()…`): a case
    /// name starts with a letter or `_` and holds no space, quote, `<` or `%`.
    public var hasCaseName: Bool {
        // A logic error's origin (`File.swift:34 >>> f()`) names a place of the app's.
        guard let name else { return false }
        if name.contains(" >>> ") { return true }
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return !name.unicodeScalars.contains { $0.properties.isWhitespace || "'\"<%`".unicodeScalars.contains($0) }
    }

    /// Whether the domain reads as an exception type (`KeyError`, `json.JSONDecodeError`,
    /// `Shop::PaymentError`): its last part begins with a capital; a logger (`pyshop.payments`) does not.
    public var hasTypeDomain: Bool {
        // `Message`: the domain of a message event without a logger (`SentryMessage`), not a type.
        guard let domain, !domain.contains(" "), domain != "Message" else { return false }
        let last = domain.split(whereSeparator: { $0 == "." || $0 == ":" }).last ?? Substring(domain)
        return last.trimmingPrefix(while: { $0 == "*" || $0 == "&" }).first?.isUppercase == true
    }

    /// The link's words in a title: its name, or `Type: template` where the name is a message
    /// of an exception type's (`KeyError: '<value>'`) rather than a case name of the app's.
    public var titleName: String {
        guard let name else { return shortCode }
        guard !hasCaseName, hasTypeDomain, let domain else { return name }
        return "\(domain): \(name)"
    }

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
