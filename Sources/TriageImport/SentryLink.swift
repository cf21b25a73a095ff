import TriageModel

/// Whose stack traces tell where an event's errors were raised, by what the SDK that sent it does.
///
/// Every SDK sends each exception value's own stack trace, except sentry-go (`sdk.name`
/// `sentry.go`, or platform `go` where no SDK is named): it gives a value a stack trace only where
/// its type records one (pkg/errors' `withStack` and `fundamental`, go-errors' `Error`), and
/// gives the outermost value the stack where `CaptureException` was called when it has none.
/// That stack says where the error was reported, not where it was made (a service that reports
/// from one place would have every error raised there), so it is not read as a raise site.
struct SentryStacks: Sendable {
    var isGo = false

    init(event v: JSONValue) {
        let sdk = v.at("sdk.name")?.text ?? ""
        isGo = sdk.hasPrefix("sentry.go") || (sdk.isEmpty && v["platform"]?.text == "go")
    }

    /// Go types whose values carry the stack where they were made.
    static let goStackTypes: Set<String> = ["*errors.withStack", "*errors.fundamental", "*errors.Error"]

    /// Where a value was raised, where its stack trace tells it; nil otherwise.
    func raiseSite(_ value: JSONValue, type: String, outermost: Bool) -> RaiseSite? {
        if isGo, outermost, !SentryStacks.goStackTypes.contains(type) { return nil }
        return SentryStacks.site(value["stacktrace"])
    }

    /// The raise site of a stack trace's frames (`frames`, oldest first); nil where it has none.
    static func site(_ stacktrace: JSONValue?) -> RaiseSite? {
        guard let list = stacktrace?["frames"]?.elements, !list.isEmpty else { return nil }
        // The app's frames where the SDK marks any, else all (as `RaiseSite(frames:)` chooses).
        let appOnly = list.contains { $0["in_app"]?.bool == true }
        return RaiseSite(chosen: list.lazy.filter { !appOnly || $0["in_app"]?.bool == true }.map { f in
            RaiseSite.Frame(module: f["module"]?.nonEmptyText, function: f["function"]?.nonEmptyText,
                            file: f["filename"]?.nonEmptyText, contextLine: f["context_line"]?.text)
        })
    }
}

/// One exception value as a link of the chain, from the link's own words and where it was raised.
///
/// The link's own text is its message without what it quotes of its cause's (`OwnText`); a
/// message that only names the type (Ruby's default message) has no words of its own. Its code
/// is the first of: a code the event states (`SentryException.code`), a code its own text states,
/// a code derived from its type and its raise site (`RaiseSite`) where its stack trace tells one,
/// else from its type and its own text's name. The name is the own text's case name or masked
/// template (`MessageTemplate.caseName`).
enum SentryLink {
    /// The link, and the link as grouping read it before schema 14 (`formerLink`).
    static func read(_ value: JSONValue, number: Int, cause: JSONValue?, stacks: SentryStacks,
                     outermost: Bool) throws(LineRejection) -> (link: ChainLink, former: FormerChain.Link) {
        let mechanism = value["mechanism"]
        let meta = mechanism?["meta"]
        let type = try self.type(value, meta: meta, number: number)
        let message = value["value"]?.nonEmptyText
        var own = message.map { OwnText.of($0, cause: cause?["value"]?.text, causeType: cause?["type"]?.text) }
        if let text = own, text.isEmpty || OwnText.namesType(text, type) { own = nil }
        let (stated, codeName) = SentryException.code(meta, data: [mechanism?["data"], value["data"]])
        let inText = own.flatMap(MessageTemplate.statedCode)
        let name = (inText?.rest ?? own).flatMap(MessageTemplate.caseName) ?? codeName
        let site = stated != nil || inText != nil ? nil
            : stacks.raiseSite(value, type: type, outermost: outermost)
        let link: ChainLink
        if let stated {
            link = ChainLink(domain: type, short: "", code: stated, name: name, origin: .stated)
        } else if let inText {
            link = ChainLink(domain: type, short: "", code: inText.code, name: name, origin: .message)
        } else {
            let code = site?.code(domain: type) ?? MessageTemplate.derivedCode(domain: type, name: name)
            link = ChainLink(domain: type, short: "", code: code, name: name, origin: .derived)
        }
        // The usual case: the whole message is the link's own and no site decides, as before schema 14.
        if stated != nil || (own == message && site == nil) { return (link, .read(link)) }
        // Words of the cause's read as its own before: worked out from the whole message when asked.
        guard own == message else { return (link, .fromMessage(domain: type, message: message, codeName: codeName)) }
        // The same words, read before from the whole message: only a code derived from the site differs.
        var former = link
        if inText == nil { former.code = MessageTemplate.derivedCode(domain: type, name: name) }
        return (link, .read(former))
    }

    /// The link as grouping read it before schema 14: codes and names from the whole message,
    /// derived codes from the type and the name alone. A store made before then finds its
    /// issues' keys by it (`ErrorEvent.formerChain`).
    static func formerLink(_ value: JSONValue, number: Int) throws(LineRejection) -> FormerChain.Link {
        let mechanism = value["mechanism"]
        let meta = mechanism?["meta"]
        let type = try type(value, meta: meta, number: number)
        let message = value["value"]?.nonEmptyText
        let (stated, codeName) = SentryException.code(meta, data: [mechanism?["data"], value["data"]])
        guard let stated else { return .fromMessage(domain: type, message: message, codeName: codeName) }
        let name = (message.flatMap(MessageTemplate.statedCode)?.rest ?? message).flatMap(MessageTemplate.caseName) ?? codeName
        return .read(ChainLink(domain: type, short: "", code: stated, name: name, origin: .stated))
    }

    /// The value's type: `type`, else the NSError domain, the mach exception's or the signal's name.
    static func type(_ value: JSONValue, meta: JSONValue?, number: Int) throws(LineRejection) -> String {
        guard let type = value["type"]?.nonEmptyText ?? meta?.at("ns_error.domain")?.nonEmptyText
                ?? meta?.at("mach_exception.name")?.nonEmptyText ?? meta?.at("signal.name")?.nonEmptyText else {
            throw LineRejection("exception value \(number) has no type")
        }
        return type
    }

    /// The path without the copies of its outermost value that sentry-ruby 5.3 writes for a cause
    /// it cannot read (a cause that was never raised has no backtrace, and the SDK writes the
    /// outermost exception in its place): a value below the outermost with its type and message
    /// and no stack trace, where the outermost has one. The chain ends at the last cause it shows.
    static func withoutPhantoms(_ path: [Int], _ values: [JSONValue]) -> [Int] {
        guard path.count > 1, let top = path.first, values[top]["stacktrace"]?["frames"]?.elements.isEmpty == false else { return path }
        let type = values[top]["type"], message = values[top]["value"]
        return [top] + path.dropFirst().filter { n in
            !(values[n]["type"] == type && values[n]["value"] == message && (values[n]["stacktrace"]?["frames"]?.elements.isEmpty ?? true))
        }
    }
}
