import ChainRules

/// One error situation as a chain of links, outermost (what the user met) first, root cause last.
public struct ErrorChain: Hashable, Sendable, CustomStringConvertible {
    /// One layer of the chain, as a value.
    public struct Link: Hashable, Sendable {
        /// The error type's name, `APIError` (an `NSError`'s domain for foreign errors).
        public var domain: String
        /// The domain's short name in the key, `AP`: one to eight uppercase letters.
        public var shortName: String
        /// The code within the domain; may be negative (`NSURLErrorDomain` -1009).
        public var code: Int
        /// The code's name, `getTokenFailed`.
        public var codeName: String
        /// What the system said, if anything.
        public var systemMessage: String?
        /// Whether this layer is worth a report.
        public var isReportable: Bool

        /// A link as given (a chain built by hand, a test).
        public init(domain: String, shortName: String, code: Int, codeName: String, systemMessage: String? = nil,
                    isReportable: Bool = true) {
            self.domain = domain
            self.shortName = shortName
            self.code = code
            self.codeName = codeName
            self.systemMessage = systemMessage
            self.isReportable = isReportable
        }

        /// The link's part of the key, `AP7` or `NSn1009`.
        public var shortCode: String { ShortKey.link(short: shortName, code: code) }
        /// The link's part of the full form, `APIError.getTokenFailed`.
        public var fullName: String { FullForm.link(domain: domain, name: codeName) }
    }

    /// At most this many links are followed: a longer chain (or a cycle of underlying errors) is cut.
    public static let maxLinks = 16

    /// The links, outermost first.
    public var links: [Link]
    /// The additional info of every layer, an outer layer's value winning over an inner one's.
    public var additionalInfo: [String: String]

    /// A chain of the links given, outermost first.
    public init(links: [Link], additionalInfo: [String: String] = [:]) {
        self.links = links
        self.additionalInfo = additionalInfo
    }

    /// The chain of any error: its layers down through their underlying errors, `NSError`'s
    /// `NSUnderlyingErrorKey` included.
    public init(_ error: any Error) {
        var links: [Link] = []
        var info: [String: String] = [:]
        var current: (any Error)? = error
        while let error = current, links.count < ErrorChain.maxLinks {
            if let layer = error as? any ChainedError {
                links.append(Link(layer))
                info.merge(layer.additionalInfo) { outer, _ in outer }
                current = layer.underlying
            } else {
                let foreign = ForeignError(error)
                links.append(foreign.link)
                current = foreign.underlying
            }
        }
        self.init(links: links, additionalInfo: info)
    }

    /// The short key, `US14-LO43-AP7-NE8`.
    public var shortCodesChain: String {
        ShortKey.render(links.map { ShortKey.Code(short: $0.shortName, code: $0.code) })
    }

    /// The full form, `UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout`.
    public var fullChain: String {
        FullForm.render(links.map { FullForm.Name(domain: $0.domain, name: $0.codeName) })
    }

    /// The full form joined by bare dashes, as apps write it into the custom key `error_codes_stack`.
    public var codesStack: String {
        FullForm.render(links.map { FullForm.Name(domain: $0.domain, name: $0.codeName) }, spaced: false)
    }

    /// Whether every layer is worth a report.
    public var isReportable: Bool { links.allSatisfy(\.isReportable) }

    /// The message closest to the root cause, if any layer has one.
    public var systemMessage: String? { links.last { $0.systemMessage != nil }?.systemMessage }

    public var description: String { shortCodesChain }
}

extension ErrorChain.Link {
    /// The link of one layer's error. The domain and short name are made fit for a key and a full
    /// form (`formDomain`, `formShortName`).
    init(_ layer: any ChainedError) {
        let domain = ErrorChain.Link.formDomain(layer.domain)
        self.init(domain: domain, shortName: ErrorChain.Link.formShortName(layer.shortName, domain: domain),
                  code: layer.codeValue, codeName: layer.codeName, systemMessage: layer.systemMessage,
                  isReportable: layer.isReportable)
    }

    /// A domain as a full form can hold it: a reverse-DNS domain's last part (as the short name is
    /// derived from it: `com.example.feed` → `feed`), dashes and spaces as `_`.
    static func formDomain(_ domain: String) -> String {
        let last = domain.split(separator: ".").last.map(String.init) ?? domain
        let cleaned = String(last.map { $0 == "-" || $0 == " " ? "_" : $0 })
        return cleaned.isEmpty ? "Error" : cleaned
    }

    /// A short name as a key holds it: one to eight uppercase ASCII letters. An override written
    /// in lowercase is uppercased; one that is still not a short name gives way to the derived one.
    static func formShortName(_ short: String, domain: String) -> String {
        let upper = short.uppercased()
        let bytes = upper.utf8
        guard (1...8).contains(bytes.count), bytes.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
            return ShortNames.derive(domain)
        }
        return upper
    }
}
