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

    init() {}

    /// Go types whose values carry the stack where they were made.
    static let goStackTypes: Set<String> = ["*errors.withStack", "*errors.fundamental", "*errors.Error"]

    /// The frames of a value's stack trace where they tell where it was raised; nil otherwise.
    func raiseFrames(_ value: JSONValue, type: String, outermost: Bool) -> [RaiseSite.Frame]? {
        if isGo, outermost, !SentryStacks.goStackTypes.contains(type) { return nil }
        return SentryStacks.frames(value["stacktrace"])
    }

    /// A stack trace's frames (`frames`, oldest first), as a raise site reads them; nil where it has none.
    static func frames(_ stacktrace: JSONValue?) -> [RaiseSite.Frame]? {
        guard let list = stacktrace?["frames"]?.elements, !list.isEmpty else { return nil }
        return list.map { f in
            RaiseSite.Frame(module: f["module"]?.nonEmptyText, function: f["function"]?.nonEmptyText,
                            file: f["filename"]?.nonEmptyText, contextLine: f["context_line"]?.text, inApp: f["in_app"]?.bool)
        }
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
                     outermost: Bool) throws(LineRejection) -> (link: ChainLink, former: ChainLink) {
        let type = try self.type(value, number: number)
        let message = value["value"]?.nonEmptyText
        var own = message.map { OwnText.of($0, cause: cause?["value"]?.text, causeType: cause?["type"]?.text) }
        if let text = own, text.isEmpty || OwnText.namesType(text, type) { own = nil }
        let meta = value.at("mechanism.meta")
        let (stated, codeName) = SentryException.code(meta, data: [value.at("mechanism.data"), value["data"]])
        let inText = own.flatMap(MessageTemplate.statedCode)
        let name = (inText?.rest ?? own).flatMap(MessageTemplate.caseName) ?? codeName
        let site = stacks.raiseFrames(value, type: type, outermost: outermost).flatMap(RaiseSite.init(frames:))
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
        if stated != nil || (own == message && site == nil) { return (link, link) }
        guard own == message else { return (link, try formerLink(value, number: number)) }
        // The same words, read before from the whole message: only a code derived from the site differs.
        var former = link
        if inText == nil { former.code = MessageTemplate.derivedCode(domain: type, name: name) }
        return (link, former)
    }

    /// The link as grouping read it before schema 14: codes and names from the whole message,
    /// derived codes from the type and the name alone. A store made before then finds its
    /// issues' keys by it (`ErrorEvent.formerChain`).
    static func formerLink(_ value: JSONValue, number: Int) throws(LineRejection) -> ChainLink {
        let type = try self.type(value, number: number)
        let message = value["value"]?.nonEmptyText
        let inMessage = message.flatMap(MessageTemplate.statedCode)
        let (stated, codeName) = SentryException.code(value.at("mechanism.meta"), data: [value.at("mechanism.data"), value["data"]])
        let name = (inMessage?.rest ?? message).flatMap(MessageTemplate.caseName) ?? codeName
        if let stated { return ChainLink(domain: type, short: "", code: stated, name: name, origin: .stated) }
        if let inMessage { return ChainLink(domain: type, short: "", code: inMessage.code, name: name, origin: .message) }
        return ChainLink(domain: type, short: "", code: MessageTemplate.derivedCode(domain: type, name: name), name: name, origin: .derived)
    }

    /// The value's type: `type`, else the NSError domain, the mach exception's or the signal's name.
    static func type(_ value: JSONValue, number: Int) throws(LineRejection) -> String {
        let meta = value.at("mechanism.meta")
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
