import PropertyBased
import Testing
import TriageModel

/// Generators of chains shaped like the ones apps report: `FooBarError` domains, uppercase short
/// names one to four letters long, codes that are often zero or negative, and names with and
/// without an associated value in parentheses.
public enum ChainGen {
    /// `Foo`, `Bar`: a capital and a few lowercase letters.
    public static let word = Gen.lowercaseLetter.string(of: 1...6).map { $0.prefix(1).uppercased() + $0.dropFirst() }

    /// `FooBarError`.
    public static let domain = word.array(of: 1...3).map { $0.joined() + "Error" }

    /// `AP`, `N`, `TBXQ`.
    public static let short = Gen.uppercaseLetter.string(of: 1...4)

    /// Zero a fifth of the time, negative two fifths, positive two fifths; up to Int32's magnitude.
    public static let code = zip(Gen.int(in: 0...4), Gen.int(in: 1...Int(Int32.max))).map { kind, n in
        switch kind {
        case 0: 0
        case 1, 2: -n
        default: n
        }
    }

    /// `getTokenFailed`, or `validationFailure(ValidationError.valueOutOfBounds)`.
    public static let name = zip(
        Gen.lowercaseLetter.string(of: 1...3),
        Gen.letterOrNumber.string(of: 0...10),
        Gen.bool,
        domain,
        Gen.letter.string(of: 1...8)
    ).map { head, tail, hasValue, assocDomain, assocValue in
        head + tail + (hasValue ? "(\(assocDomain).\(assocValue))" : "")
    }

    /// A link: domain, short name, code and name.
    public static let link = zip(domain, short, code, name).map { domain, short, code, name in
        ChainLink(domain: domain, short: short, code: code, name: name)
    }

    /// A chain of one to six links.
    public static let chain = link.array(of: 1...6).map { ErrorChain(links: $0) }
}

extension ErrorChain {
    /// The full form joined by bare dashes, as apps write it into a custom key.
    public var spacelessFullForm: String { links.map(\.fullName).joined(separator: "-") }
}

/// Runs `body`, recording an error it throws as an issue.
///
/// PropertyBased's `propertyCheck` (2.0.1) swallows an error thrown from its body without recording
/// it, so a property body that throws would pass silently; bodies call throwing code through this.
public func recordingErrors<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        Issue.record(error, sourceLocation: sourceLocation)
        return nil
    }
}
