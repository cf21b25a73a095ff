import ChainRules
import Foundation

/// The codes of one layer's errors: an enum with `Int` raw values whose case names are the code names.
///
/// ```swift
/// enum Code: Int, ErrorCode { case connectionIssue = 14, sessionExpired = 15 }
/// ```
public protocol ErrorCode: RawRepresentable, Sendable, Hashable where RawValue == Int {}

/// An error of one layer of an app, wrapping the error of the layer below that caused it.
///
/// A layer declares its type, its codes and (usually) its underlying error; the rest has defaults:
///
/// ```swift
/// struct APIError: ChainedError {
///     enum Code: Int, ErrorCode { case getTokenFailed = 7 }
///     let code: Code
///     var underlying: (any Error)? = nil
/// }
/// ```
///
/// Its chain (`errorChain`) runs from this error down through every underlying error, `NSError`'s
/// `NSUnderlyingErrorKey` included, and gives the short key (`shortCodesChain`, `US14-LO43-AP7-NE8`)
/// and the full form (`fullChain`) by the rules errtriage reads them with (ChainRules).
public protocol ChainedError: Error {
    associatedtype Code: ErrorCode
    /// The situation, one of the layer's codes.
    var code: Code { get }
    /// The error of the layer below that caused this one: a `ChainedError`, an `NSError`, any error.
    var underlying: (any Error)? { get }
    /// What the system said about it (a server's message, a framework's description), if anything.
    var systemMessage: String? { get }
    /// Facts a report carries among its custom keys; a report's own `additionalInfo` overrides them.
    var additionalInfo: [String: String] { get }
    /// The error type's name in the full form: the type's name unless overridden.
    var domain: String { get }
    /// The domain's short name in the key: derived from the domain (`GeoError` → `GE`) unless overridden.
    var shortName: String { get }
    /// The code's name in the full form: the case's name unless overridden.
    var codeName: String { get }
    /// Whether the error is worth a report (a cancelled request is not): false here, or in any
    /// error below, keeps the whole chain from being reported.
    var isReportable: Bool { get }
}

extension ChainedError {
    public var underlying: (any Error)? { nil }
    public var systemMessage: String? { nil }
    public var additionalInfo: [String: String] { [:] }
    public var domain: String { String(describing: Self.self) }
    public var shortName: String { ShortNames.derive(domain) }
    public var codeName: String { String(describing: code) }
    public var isReportable: Bool { true }

    /// The code's integer value.
    public var codeValue: Int { code.rawValue }

    /// The chain from this error down to its root cause.
    public var errorChain: ErrorChain { ErrorChain(self) }

    /// The short key, `US14-LO43-AP7-NE8`: what users quote to support and what errtriage groups by.
    public var shortCodesChain: String { errorChain.shortCodesChain }

    /// The full form, `UserError.connectionIssue - LogicError.loginFailed - …`.
    public var fullChain: String { errorChain.fullChain }
}

/// `DomainShortName.derive`, remembered: an app has a few dozen domains and reports them again
/// and again, on the caller's thread.
enum ShortNames {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var known: [String: String] = [:]

    static func derive(_ domain: String) -> String {
        lock.lock()
        if let short = known[domain] {
            lock.unlock()
            return short
        }
        lock.unlock()
        let short = DomainShortName.derive(domain)
        lock.lock()
        if known.count >= 1024 { known.removeAll() }
        known[domain] = short
        lock.unlock()
        return short
    }
}
