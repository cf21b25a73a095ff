/// Where a quick logic-error reporter says a logic error came from: `LogicError(File.swift:34 >>> f(_:))`.
///
/// A logic error is one link: domain `LogicError`, short name `LO`, a code made from the origin
/// text (the same place keeps it across releases and machines) and the origin as its name. The
/// ELK importer reads it from a report's domain; ErrorChainKit's `logicError(_:)` makes it from
/// `#fileID`, `#line` and `#function`.
public struct LogicOrigin: Hashable, Sendable {
    /// The domain of every logic error.
    public static let domain = "LogicError"
    /// The short name of every logic error.
    public static let short = "LO"

    /// `File.swift:34 >>> f(_:)`.
    public var text: String
    /// A stable positive number (under 10^6) made from the origin, the link's code.
    public var code: Int { Int(StableHash.value(text) % 999_983) }

    /// Reads `LogicError(File.swift:34 >>> f(_:))`; nil for any other domain.
    public init?(_ domain: String) {
        guard domain.hasPrefix("LogicError("), domain.hasSuffix(")") else { return nil }
        text = String(domain.dropFirst("LogicError(".count).dropLast())
        guard !text.isEmpty else { return nil }
    }

    /// The origin of a place in code: the file's name (without its module, as `#fileID` gives it)
    /// with the line, and the function. A dash becomes `_`, so the origin stays one link of a full
    /// form joined by bare dashes (`error_codes_stack`).
    public init(fileID: String, line: Int, function: String) {
        let file = fileID.split(separator: "/").last.map(String.init) ?? fileID
        text = "\(file):\(line) >>> \(function)".replacingDashes()
    }

    /// The domain a reporter writes for this origin: `LogicError(File.swift:34 >>> f(_:))`.
    public var reportedDomain: String { "\(LogicOrigin.domain)(\(text))" }
}

extension String {
    /// The text with every `-` as `_`.
    fileprivate func replacingDashes() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
