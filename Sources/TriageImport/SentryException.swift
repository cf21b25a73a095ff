import TriageModel

/// A Sentry event's exception values as a chain, and what they say about a crash.
///
/// Values run root cause first, so they are reversed. Each value's `type` is the domain (else
/// the NSError domain, the mach exception's or the signal's name). The code is the first the
/// mechanism's meta gives: `ns_error.code`, `mach_exception.exception`, `signal.number`,
/// `errno.number`; 0 when it gives none, so code-less errors of one type group together. The
/// name is the value's message, else the mach code (`code 1`), the signal's or errno's name.
enum SentryException {
    /// The exception values of `exception`: `{"values":[…]}`, a bare array, or one value (older
    /// SDKs); null values are skipped.
    static func values(_ exception: JSONValue?) throws(LineRejection) -> [JSONValue] {
        guard let exception, exception != .null else { return [] }
        let list: [JSONValue]
        switch exception {
        case .array(let items): list = items
        case .object:
            if let values = exception["values"] {
                guard values == .null || !values.elements.isEmpty || values == .array([]) else {
                    throw LineRejection("exception.values must be an array, found \(values.kindName)")
                }
                list = values.elements
            } else if exception["type"] != nil || exception["value"] != nil {
                list = [exception]
            } else {
                list = []
            }
        default: throw LineRejection("exception must be an object or an array, found \(exception.kindName)")
        }
        return list.filter { $0 != .null }
    }

    /// The chain, outermost first.
    static func chain(_ values: [JSONValue]) throws(LineRejection) -> ErrorChain {
        var links: [ChainLink] = []
        for (n, value) in values.reversed().enumerated() {
            guard case .object = value else { throw LineRejection("exception value \(n + 1) must be an object, found \(value.kindName)") }
            let meta = value.at("mechanism.meta")
            guard let type = value["type"]?.nonEmptyText ?? meta?.at("ns_error.domain")?.nonEmptyText
                    ?? meta?.at("mach_exception.name")?.nonEmptyText ?? meta?.at("signal.name")?.nonEmptyText else {
                throw LineRejection("exception value \(n + 1) has no type")
            }
            let (code, codeName) = SentryException.code(meta)
            let name = value["value"]?.nonEmptyText.map(CrashlyticsDecoder.shortName) ?? codeName
            links.append(ChainLink(domain: type, short: "", code: code ?? 0, name: name))
        }
        return ErrorChain(links: links)
    }

    /// The code the mechanism's meta gives, and a name for it when the value has no message.
    static func code(_ meta: JSONValue?) -> (Int?, String?) {
        guard let meta else { return (nil, nil) }
        func int(_ path: String) -> Int? { meta.at(path)?.int64.flatMap { Int(exactly: $0) } }
        if let code = int("ns_error.code") { return (code, nil) }
        if let code = int("mach_exception.exception") {
            return (code, int("mach_exception.code").map { "code \($0)" } ?? meta.at("mach_exception.name")?.nonEmptyText)
        }
        if let code = int("signal.number") {
            return (code, meta.at("signal.name")?.nonEmptyText ?? meta.at("signal.code_name")?.nonEmptyText)
        }
        if let code = int("errno.number") { return (code, meta.at("errno.name")?.nonEmptyText) }
        return (nil, nil)
    }

    /// An ANR (mechanism `ANR`/`AppHang`, or type `ApplicationNotResponding`/`AppHang`); a crash
    /// (level `fatal`, or a mechanism with `handled: false`); else a non-fatal, as Sentry counts an
    /// error unhandled only when it says so.
    static func kind(level: String?, values: [JSONValue]) -> EventKind {
        let hangs: Set<String> = ["anr", "apphang", "applicationnotresponding"]
        let folded = { (text: String?) in text.map { $0.lowercased().filter { $0 != "_" && $0 != " " } } ?? "" }
        if values.contains(where: { hangs.contains(folded($0.at("mechanism.type")?.text)) || hangs.contains(folded($0["type"]?.text)) }) {
            return .anr
        }
        if level?.lowercased() == "fatal" || values.contains(where: { $0.at("mechanism.handled")?.bool == false }) {
            return .crash
        }
        return .nonFatal
    }
}
