import TriageModel

/// An issue's title, what the user saw `…` the root cause: the two names that say what the issue is.
extension Format {
    /// The whole title, `outer … root` (`outer ~ root` in ASCII); one name for a chain of one link.
    public static func title(_ chain: ErrorChain, unicode: Bool = true) -> String {
        guard let (outer, last) = chain.titleLinks, let first = outer else { return chain.title }
        return first.titleName + (unicode ? " … " : " ~ ") + last.titleName
    }

    /// The title in `width` cells: when it is too long the outer name gives way first, so that the
    /// root cause stays readable; a root too long for the rest keeps four cells of the outer name.
    public static func fittedTitle(_ chain: ErrorChain, width: Int, unicode: Bool = true) -> String {
        let whole = title(chain, unicode: unicode)
        guard let (named, last) = chain.titleLinks, let first = named,
              TextSanitizer.width(whole, unicode: unicode) > width else { return whole }
        let root = last.titleName
        let outer = first.titleName
        let separator = unicode ? " … " : " ~ "
        let room = width - TextSanitizer.width(root, unicode: unicode) - 3
        if room >= 4 { return cells(outer, room, unicode: unicode).text + separator + root }
        let rootRoom = width - 7
        guard rootRoom >= 6 else { return whole }
        return cells(outer, 4, unicode: unicode).text + separator + cells(root, rootRoom, unicode: unicode).text
    }
}

extension Format {
    /// A link's code as `show` and `decode` print it: `8`, or `8, from the message` where the
    /// source did not state it.
    public static func code(of link: ChainLink) -> String { code(link.code, origin: link.origin) }

    /// A code and where it came from, as `code(of:)` prints a link's.
    public static func code(_ code: Int, origin: CodeOrigin?) -> String {
        "\(code)" + (origin.map { $0 == .stated ? "" : ", \($0.label)" } ?? "")
    }
}
