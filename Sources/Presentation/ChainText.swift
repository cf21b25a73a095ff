import TriageModel

/// A chain as `decode` prints it: the key, then a link per line, each indented under the one that
/// wrapped it, with its short code, its full name and its code's origin, the outermost marked as
/// what the user saw and the innermost as the root cause.
public enum ChainText {
    public static func ladder(key: String, links: [(code: ShortKey.Code, name: FullForm.Name?, origin: CodeOrigin?)]) -> String {
        var text = key + "\n"
        for i in shown(links.count) {
            guard let i else {
                text += elision(links.count) + "\n"
                continue
            }
            let link = links[i]
            let role = i == 0 ? "  (what the user saw)" : i == links.count - 1 ? "  (root cause)" : ""
            let name = link.name.map { "\($0.domain).\($0.name)" } ?? "unknown"
            let code = link.code.short + ShortKey.encode(code: link.code.code)
            text += "\(indent(i))\(code)  \(TextSanitizer.sanitize(name))  [\(Format.code(link.code.code, origin: link.origin))]\(role)\n"
        }
        return text
    }

    /// How deep a ladder's indentation goes at most: deeper links stand at this depth, so that no
    /// chain, however deep, pushes its lines off the page (two spaces a step).
    public static let maxDepth = 8

    /// The indentation of link `i` in a text ladder.
    public static func indent(_ i: Int) -> String { String(repeating: "  ", count: min(i, maxDepth)) }

    /// The links a display shows of a chain of `count`, in order: every one up to
    /// `EventBounds.maxLinks` (what ingest keeps), else the ends of it with nil where the middle
    /// is left out (`elision`), as a chain stored before the bound was may be.
    public static func shown(_ count: Int) -> [Int?] {
        guard count > EventBounds.maxLinks else { return Array(0..<count) }
        let end = EventBounds.keptEachEnd
        return Array(0..<end) + [nil] + Array((count - end)..<count)
    }

    /// The line that stands for the links `shown` leaves out.
    public static func elision(_ count: Int) -> String {
        "… \(Format.grouped(count - 2 * EventBounds.keptEachEnd)) links left out …"
    }

    /// A chain's full form as displays show it: every link's, or, past `EventBounds.maxLinks`,
    /// the ends' with the middle left out.
    public static func fullForm(_ chain: ErrorChain) -> String {
        guard chain.links.count > EventBounds.maxLinks else { return chain.fullForm }
        return shown(chain.links.count).map { $0.map { chain.links[$0].fullName } ?? elision(chain.links.count) }
            .joined(separator: FullForm.spacedSeparator)
    }
}
