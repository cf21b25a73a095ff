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

    /// A one-line title: the outer name … the root cause's name (short codes where names are unknown).
    public var title: String {
        guard let (outer, root) = titleLinks else { return "" }
        guard let outer else { return root.titleName }
        return "\(outer.titleName) … \(root.titleName)"
    }

    /// The links a title names: the outermost link with words of its own, and the root cause
    /// (nil for the outer one where the root is the only link with words, or the only link).
    /// A wrapper that only repeats its cause (`new RuntimeException(cause)`, pkg/errors'
    /// `withStack`) has no name: the title starts at the first link below it that has one.
    public var titleLinks: (outer: ChainLink?, root: ChainLink)? {
        guard let first = links.first, let last = links.last else { return nil }
        guard links.count > 1 else { return (nil, last) }
        let named = links.dropLast().firstIndex { $0.name != nil }
        if named == nil, last.name != nil, first.name == nil { return (nil, last) }
        return (named.map { links[$0] } ?? first, last)
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
