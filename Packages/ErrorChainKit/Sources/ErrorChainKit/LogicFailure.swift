import ChainRules

/// A broken assumption in the app's own code, reported instead of crashing in production:
/// `logicError("…")`. Its chain is one link, `LogicError` with a code made from its place in the
/// code (`File.swift:34 >>> f(_:)`, the same place keeps it across releases), as errtriage reads
/// `LogicError(File.swift:34 >>> f(_:))` from other reporters.
public struct LogicFailure: ChainedError, CustomStringConvertible {
    /// Logic errors have no code enum of their own: the code is the place's.
    public struct Code: ErrorCode {
        public var rawValue: Int
        /// The code of a place.
        public init(rawValue: Int) { self.rawValue = rawValue }
    }

    /// Where the assumption broke.
    public let origin: LogicOrigin
    /// What the developer wrote about it: the report's message, never part of the key.
    public let message: String

    /// A broken assumption at the caller's place (or the place given).
    public init(_ message: String, fileID: String = #fileID, line: Int = #line, function: String = #function) {
        self.message = message
        origin = LogicOrigin(fileID: fileID, line: line, function: function)
    }

    public var code: Code { Code(rawValue: origin.code) }
    public var domain: String { LogicOrigin.domain }
    public var shortName: String { LogicOrigin.short }
    public var codeName: String { origin.text }
    public var systemMessage: String? { message }
    public var description: String { "\(origin.reportedDomain): \(message)" }
}

/// Reports a broken assumption through `ErrorReporter.shared` and returns it (to throw, if the
/// caller wants to). In debug builds it stops at an assertion first, unless
/// `ErrorReporter.shared.assertsOnLogicErrors` is false; release builds only report.
@discardableResult
public func logicError(_ message: String, additionalInfo: [String: String] = [:],
                       fileID: String = #fileID, line: Int = #line, function: String = #function) -> LogicFailure {
    ErrorReporter.shared.logicError(message, additionalInfo: additionalInfo, fileID: fileID, line: line, function: function)
}
