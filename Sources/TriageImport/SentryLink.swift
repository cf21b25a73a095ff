import TriageModel

/// Whose stack traces tell where an event's errors were raised, by what the SDK that sent it does.
///
/// Every SDK sends each exception value's own stack trace, except sentry-go (`sdk.name`
/// `sentry.go`, or platform `go` where no SDK is named): it gives a value a stack trace only where
/// its type records one (pkg/errors' `withStack` and `fundamental`, go-errors' `Error`), and
/// gives the outermost value the stack where `CaptureException` was called when it has none.
/// That stack says where the error was reported, not where it was made (a service that reports
/// from one place would have every error raised there), so it is not read as a raise site —
/// except for a recovered panic, whose stack reaches the frame that panicked before the deferred
/// function that recovered it (`SentryFrames.goPanicCut`).
struct SentryStacks: Sendable {
    var isGo = false

    init(event v: JSONValue) {
        let sdk = v.at("sdk.name")?.text ?? ""
        isGo = sdk.hasPrefix("sentry.go") || (sdk.isEmpty && v["platform"]?.text == "go")
    }

    /// Go types whose values carry the stack where they were made.
    static let goStackTypes: Set<String> = ["*errors.withStack", "*errors.fundamental", "*errors.Error"]

    /// Where a value was raised, where its stack trace tells it (nil otherwise), and where grouping
    /// before schema 21 read it to be (the whole path of the app's frames, no panic read).
    func raiseSite(_ value: JSONValue, type: String, outermost: Bool) -> (site: RaiseSite?, former: RaiseSite?) {
        guard let frames = value["stacktrace"]?["frames"]?.elements, !frames.isEmpty else { return (nil, nil) }
        let formerSite = isGo && outermost && !SentryStacks.goStackTypes.contains(type) ? nil : SentryStacks.formerSite(frames)
        if isGo, outermost, !SentryStacks.goStackTypes.contains(type) {
            guard let cut = SentryFrames.goPanicCut(frames) else { return (nil, formerSite) }
            return (RaiseSite(chosen: SentryFrames.chosen(Array(frames[..<cut]), isGo: true)), formerSite)
        }
        return (RaiseSite(chosen: SentryFrames.chosen(frames, isGo: isGo)), formerSite)
    }

    /// The raise site of a stack trace's frames (`frames`, oldest first); nil where it has none.
    func site(_ stacktrace: JSONValue?) -> RaiseSite? {
        guard let list = stacktrace?["frames"]?.elements, !list.isEmpty else { return nil }
        return RaiseSite(chosen: SentryFrames.chosen(list, isGo: isGo))
    }

    /// The site as grouping before schema 21 read it: the path of the frames marked `in_app`, else of all.
    static func formerSite(_ list: [JSONValue]) -> RaiseSite? {
        let appOnly = list.contains { $0["in_app"]?.bool == true }
        return RaiseSite(pathOf: list.lazy.filter { !appOnly || $0["in_app"]?.bool == true }.map(SentryFrames.frame))
    }
}

/// One exception value as a link of the chain, from the link's own words and where it was raised.
///
/// The link's own text is its message without what it quotes of its cause's (`OwnText`); a
/// message that only names the type (Ruby's default message) has no words of its own. Its code
/// is the first of: a code the event states (`SentryException.code`), a code its own text states,
/// a code derived from its type and its raise site (`RaiseSite`) where its stack trace tells one,
/// else from its type and its own text's name — which the store may replace by the code of the
/// template the name joins at that type (`LinkWords`, `WordTemplate`). The name is the own
/// text's case name or masked template (`MessageTemplate.caseName`).
enum SentryLink {
    /// What one value gives: the link, the link as grouping read it before schema 14 (`former`) and
    /// before schema 21 (`prior`), and the words the store learns the link's template from.
    struct Reading {
        var link: ChainLink
        var former: FormerChain.Link
        var prior: FormerChain.Link
        var words: LinkWords?
    }

    /// The link of `value`, the `index`th of its chain.
    static func read(_ value: JSONValue, number: Int, cause: JSONValue?, stacks: SentryStacks,
                     outermost: Bool, index: Int = 0) throws(LineRejection) -> Reading {
        let mechanism = value["mechanism"]
        let meta = mechanism?["meta"]
        let type = try self.type(value, meta: meta, number: number)
        let message = value["value"]?.nonEmptyText
        var own = message.map { OwnText.of($0, cause: cause?["value"]?.text, causeType: cause?["type"]?.text) }
        if let text = own, text.isEmpty || OwnText.namesType(text, type) { own = nil }
        let (stated, codeName) = SentryException.code(meta, data: [mechanism?["data"], value["data"]])
        let inText = own.flatMap(MessageTemplate.statedCode)
        let named = inText?.rest ?? own
        let name = named.flatMap { MessageTemplate.caseName($0, domain: type) } ?? codeName
        let (site, formerSite) = stated != nil || inText != nil ? (nil, nil)
            : stacks.raiseSite(value, type: type, outermost: outermost)
        // A template's words (a case name is one word): they decide the code where nothing else does.
        let tokens = named != nil ? name.map(WordTemplate.tokens) ?? [] : []
        let learned = tokens.count > 1 || (tokens.count == 1 && !WordTemplate.isCaseName(tokens[0]))
        let decides = stated == nil && inText == nil && site == nil && learned
        let link: ChainLink
        if let stated {
            link = ChainLink(domain: type, short: "", code: stated, name: name, origin: .stated)
        } else if let inText {
            link = ChainLink(domain: type, short: "", code: inText.code, name: name, origin: .message)
        } else {
            let code = site?.code(domain: type)
                ?? (decides ? WordTemplate.code(place: type, tokens: tokens) : MessageTemplate.derivedCode(domain: type, name: name))
            link = ChainLink(domain: type, short: "", code: code, name: name, origin: .derived)
        }
        // Learned where they decide; elsewhere only the name is.
        let words = learned
            ? LinkWords(link: index, place: decides ? type : "\(type)\u{1F}\(link.code)", tokens: tokens, bySite: !decides) : nil
        let former: FormerChain.Link = stated != nil ? .read(link) : .fromMessage(domain: type, message: message, codeName: codeName)
        let prior: FormerChain.Link
        if stated != nil || inText != nil {
            prior = .read(link)
        } else if let formerSite {
            var then = link
            then.code = formerSite.code(domain: type)
            prior = .read(then)
        } else {
            prior = .fromMessage(domain: type, message: own, codeName: codeName)
        }
        return Reading(link: link, former: former, prior: prior, words: words)
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
        let name = (message.flatMap(MessageTemplate.statedCode)?.rest ?? message).flatMap { MessageTemplate.caseName($0, rules: .former) }
            ?? codeName
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
