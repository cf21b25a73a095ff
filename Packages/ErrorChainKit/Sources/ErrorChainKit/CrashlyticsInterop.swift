import Foundation

/// What the error-chain approach hands Crashlytics, so that it groups non-fatals by the chain and
/// errtriage's Crashlytics importer reads the chain back from the BigQuery export.
extension ErrorChain {
    /// The custom key holding the full chain, joined by bare dashes.
    public static let codesStackKey = "error_codes_stack"

    /// An `NSError` whose domain is the short key (Crashlytics groups non-fatals by domain and
    /// code) and whose code is the outermost link's, with `error_codes_stack` in its user info.
    ///
    /// ```swift
    /// let chain = ErrorChain(error)
    /// Crashlytics.crashlytics().record(error: chain.crashlyticsError, userInfo: chain.crashlyticsKeys)
    /// ```
    public var crashlyticsError: NSError {
        NSError(domain: shortCodesChain, code: links.first?.code ?? 0, userInfo: [
            ErrorChain.codesStackKey: codesStack,
            NSLocalizedDescriptionKey: fullChain,
        ])
    }

    /// The custom keys to record with it: `error_codes_stack`.
    public var crashlyticsKeys: [String: String] { [ErrorChain.codesStackKey: codesStack] }
}
