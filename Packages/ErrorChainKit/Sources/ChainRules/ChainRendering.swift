/// How links are written into a short key and a full form: the one place both errtriage's model
/// and the app library (ErrorChainKit) join them.
extension ShortKey {
    /// What joins links in a short key.
    public static let separator = "-"

    /// One link of a short key: the short name and the code, `AP7` or `NSn1009`.
    public static func link(short: String, code: Int) -> String {
        short + encode(code: code)
    }

    /// A short key from its links, outermost first: `US14-LO43-AP7-NE8`.
    public static func render(_ codes: [Code]) -> String {
        codes.map { link(short: $0.short, code: $0.code) }.joined(separator: separator)
    }
}

extension FullForm {
    /// What joins links in the full form errtriage shows: `UserError.connectionIssue - LogicError.loginFailed`.
    public static let spacedSeparator = " - "
    /// What joins links in the full form apps put into a custom key (`error_codes_stack`): bare dashes.
    public static let stackSeparator = "-"

    /// One link of a full form: `APIError.getTokenFailed`.
    public static func link(domain: String, name: String) -> String {
        domain + "." + name
    }

    /// A full form from its links, outermost first, spaced (`spaced: true`) or as apps write it into a custom key.
    public static func render(_ names: [Name], spaced: Bool = true) -> String {
        names.map { link(domain: $0.domain, name: $0.name) }.joined(separator: spaced ? spacedSeparator : stackSeparator)
    }
}
