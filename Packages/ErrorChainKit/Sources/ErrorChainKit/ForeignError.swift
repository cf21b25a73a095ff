import ChainRules
import Foundation

/// An error that is not a `ChainedError` (Foundation's, a framework's, a plain Swift enum) as a
/// link: its `NSError` domain and code, a name where one is known, and its underlying error
/// (`NSUnderlyingErrorKey`).
struct ForeignError {
    let link: ErrorChain.Link
    let underlying: (any Error)?

    init(_ error: any Error) {
        let ns = error as NSError
        let domain = ns.domain
        let code = ns.code
        let info = ns.userInfo
        let name = ForeignError.name(of: error, domain: domain, code: code)
        let formed = ErrorChain.Link.formDomain(domain)
        // A plain Swift enum's NSError code is its case's place among the cases: keyed by the case's name instead.
        let stable = ForeignError.isNumberedByPlace(error) && name != "code(\(code))" ? CaseCode.code(domain: formed, name: name) : code
        link = ErrorChain.Link(domain: formed, shortName: ShortNames.derive(domain), code: stable,
                               codeName: name,
                               systemMessage: info[NSLocalizedDescriptionKey] as? String,
                               isReportable: !ForeignError.isCancellation(error, domain: domain, code: code))
        underlying = info[NSUnderlyingErrorKey] as? any Error
    }

    /// The code's name: a Swift enum's case, a known Foundation code's name, else `code(N)`.
    static func name(of error: any Error, domain: String, code: Int) -> String {
        if domain == NSURLErrorDomain, let name = urlErrorNames[code] { return name }
        if domain == NSPOSIXErrorDomain, let posix = POSIXErrorCode(rawValue: Int32(truncatingIfNeeded: code)) {
            return String(describing: posix)
        }
        if let name = caseName(error) { return name }
        return "code(\(code))"
    }

    /// Whether Foundation numbers the error by its case's place among its enum's cases: a Swift
    /// enum that gives no code of its own (`CustomNSError`, integer raw values).
    static func isNumberedByPlace(_ error: any Error) -> Bool {
        guard Mirror(reflecting: error).displayStyle == .enum, !(error is any CustomNSError) else { return false }
        if let raw = error as? any RawRepresentable, raw.rawValue is any BinaryInteger { return false }
        return true
    }

    /// The case name of a Swift enum error: the label of a case with values, else its description
    /// when the type does not describe itself otherwise.
    static func caseName(_ error: any Error) -> String? {
        let mirror = Mirror(reflecting: error)
        guard mirror.displayStyle == .enum else { return nil }
        if let label = mirror.children.first?.label { return label }
        guard !(type(of: error) is any CustomStringConvertible.Type) else { return nil }
        let text = String(describing: error)
        let isIdentifier = !text.isEmpty && text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
        return isIdentifier ? text : nil
    }

    /// A cancelled request or task: not worth a report.
    static func isCancellation(_ error: any Error, domain: String, code: Int) -> Bool {
        // Swift concurrency's own type, on Apple's systems since macOS 10.15 and iOS 13.
        if #available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *), error is CancellationError { return true }
        switch domain {
        case NSURLErrorDomain: return code == NSURLErrorCancelled
        case NSCocoaErrorDomain: return code == CocoaError.userCancelled.rawValue
        case NSPOSIXErrorDomain: return code == Int(POSIXErrorCode.ECANCELED.rawValue)
        default: return false
        }
    }

    /// `NSURLErrorDomain`'s codes by name, as `URLError.Code` names them.
    static let urlErrorNames: [Int: String] = [
        -1: "unknown", -999: "cancelled", -1000: "badURL", -1001: "timedOut", -1002: "unsupportedURL",
        -1003: "cannotFindHost", -1004: "cannotConnectToHost", -1005: "networkConnectionLost",
        -1006: "dnsLookupFailed", -1007: "httpTooManyRedirects", -1008: "resourceUnavailable",
        -1009: "notConnectedToInternet", -1010: "redirectToNonExistentLocation", -1011: "badServerResponse",
        -1012: "userCancelledAuthentication", -1013: "userAuthenticationRequired", -1014: "zeroByteResource",
        -1015: "cannotDecodeRawData", -1016: "cannotDecodeContentData", -1017: "cannotParseResponse",
        -1018: "internationalRoamingOff", -1019: "callIsActive", -1020: "dataNotAllowed",
        -1021: "requestBodyStreamExhausted", -1022: "appTransportSecurityRequiresSecureConnection",
        -1100: "fileDoesNotExist", -1101: "fileIsDirectory", -1102: "noPermissionsToReadFile",
        -1103: "dataLengthExceedsMaximum", -1200: "secureConnectionFailed", -1201: "serverCertificateHasBadDate",
        -1202: "serverCertificateUntrusted", -1203: "serverCertificateHasUnknownRoot",
        -1204: "serverCertificateNotYetValid", -1205: "clientCertificateRejected",
        -1206: "clientCertificateRequired", -2000: "cannotLoadFromNetwork", -3000: "cannotCreateFile",
        -3001: "cannotOpenFile", -3002: "cannotCloseFile", -3003: "cannotWriteToFile", -3004: "cannotRemoveFile",
        -3005: "cannotMoveFile", -3006: "downloadDecodingFailedMidStream", -3007: "downloadDecodingFailedToComplete",
        -1995: "backgroundSessionRequiresSharedContainer", -1996: "backgroundSessionInUseByAnotherProcess",
        -997: "backgroundSessionWasDisconnected",
    ]
}
