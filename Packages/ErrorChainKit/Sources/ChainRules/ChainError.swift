/// Why a chain could not be read.
public enum ChainError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case badShortCode(String)
    case badFullLink(String)
    case unbalancedParentheses(String)
    case mismatchedLengths(codes: Int, names: Int)

    public var description: String {
        switch self {
        case .empty: "empty chain"
        case .badShortCode(let s): "bad short code '\(s)' (expected letters then a code, e.g. AP7 or NSn1009)"
        case .badFullLink(let s): "bad chain link '\(s)' (expected Domain.name)"
        case .unbalancedParentheses(let s): "unbalanced parentheses in '\(s)'"
        case .mismatchedLengths(let c, let n): "the short key has \(c) links but the full chain has \(n)"
        }
    }
}
