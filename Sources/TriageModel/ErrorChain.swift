/// A chain of wrapped errors, outermost (user-facing) first, innermost (root cause) last.
public struct ErrorChain: Hashable, Sendable, Codable {
    public var links: [ChainLink]

    public init(links: [ChainLink]) { self.links = links }

    /// The grouping key and support code, e.g. `US14-LO43-AP7-NE8`.
    public var shortKey: String { links.map(\.shortCode).joined(separator: ShortKey.separator) }

    /// The full form with spaced dashes, e.g. `UserError.connectionIssue - … - NetworkError.timeout`.
    public var fullForm: String { links.map(\.fullName).joined(separator: FullForm.spacedSeparator) }

    /// The innermost link: the root cause.
    public var rootCause: ChainLink? { links.last }

    /// A one-line title: the outermost name … the root cause's name (short codes where names are unknown).
    public var title: String {
        guard let first = links.first, let last = links.last else { return "" }
        let label = { (link: ChainLink) in link.name ?? link.shortCode }
        if links.count == 1 { return label(first) }
        return "\(label(first)) … \(label(last))"
    }

    /// Builds a chain by zipping a short key with full names, link by link.
    /// Short names come from the key; domains and names from the full form.
    public static func zip(shortKey: String, fullForm: String) throws(ChainError) -> ErrorChain {
        let codes = try ShortKey.parse(shortKey)
        let names = try FullForm.parse(fullForm)
        guard codes.count == names.count else {
            throw .mismatchedLengths(codes: codes.count, names: names.count)
        }
        return ErrorChain(links: Swift.zip(codes, names).map { code, name in
            ChainLink(domain: name.domain, short: code.short, code: code.code, name: name.name)
        })
    }
}
