/// The code of a plain Swift enum's case, for an error enum that gives no number of its own (no
/// `Int` raw values, no `CustomNSError`): Foundation numbers such a case by its place among the
/// enum's cases, so adding a case renumbers every case after it, and their keys would change
/// with the app's next release. The code is derived from the type and the case's name instead,
/// which stay: the same on every machine and in every release (`StableHash`), and the same rule
/// errtriage derives a code-less link's code by (`MessageTemplate.derivedCode`).
public enum CaseCode {
    /// Where derived codes fall: five digits, above the small numbers apps give their codes.
    public static let range = 10_000..<100_000

    /// The code of case `name` of the error type `domain` (its name as the key's full form holds it).
    public static func code(domain: String, name: String) -> Int {
        let hash = StableHash.value(domain + "\u{1F}" + name)
        return range.lowerBound + Int(hash % UInt64(range.count))
    }
}
