import TriageModel

/// An event without an exception — a log record (`logging.error(…)` through the Python SDK's
/// logging integration), `capture_message(…)`, sentry-go's report of `panic("…")` — as a chain of
/// one link, so that it is an issue like any other.
///
/// - The domain is the logger (`payments`, short name `PA`), else `Message`.
/// - A log call is grouped by its format and its level: the format is `logentry.message` where
///   the SDK sent `params` (Python's logging integration), or where it sent a `formatted` text
///   that differs from it (Java's `message.message` and `message.formatted`), or the first of
///   `extra.arguments` where the message starts with it (the JavaScript console integration
///   joins the arguments to the format: `Payment %s failed for order %d card 41375`). The name is
///   the format's first line; the code is derived from the domain, the format and the level
///   (a level other than `error` is part of it).
/// - Any other message is named by its first line with per-event data masked
///   (`MessageTemplate.mask`), at most `MessageTemplate.maxNameLength` characters; its code is
///   derived from the domain and where it was sent (`RaiseSite`, from the stack trace of the
///   current thread in `threads`, or a top-level `stacktrace`), else from the domain, the template
///   and the level, and the store learns its template's varying words at that place (`LinkWords`).
/// - The text that the event shows is the message as sent (`logentry.formatted`, else the message).
/// `logentry` may come as the legacy `sentry.interfaces.Message`, or as an object in `message`.
enum SentryMessage {
    /// The one link, the message as sent, the link as grouping before schema 21 made it where that
    /// differs (`ErrorEvent.priorChain`), and the words the store learns from.
    struct Reading {
        var link: ChainLink
        var text: String
        var prior: FormerChain.Link?
        var words: LinkWords?
    }

    static func entry(_ v: JSONValue) -> JSONValue? {
        SentryDecoder.member(v, "logentry") ?? v["message"].flatMap { $0.members.isEmpty ? nil : $0 }
    }

    /// The message as sent; nil where the event has none.
    static func text(_ v: JSONValue) -> String? {
        let entry = entry(v)
        return entry?["formatted"]?.nonEmptyText ?? entry?["message"]?.nonEmptyText ?? v["message"]?.nonEmptyText
    }

    /// The link and the message as sent; nil where the event has no message.
    static func read(_ v: JSONValue) -> Reading? {
        let entry = entry(v)
        guard let text = text(v) else { return nil }
        let params = entry?["params"]
        let hasParams = !(params?.elements.isEmpty ?? true) || !(params?.members.isEmpty ?? true)
        let given = entry?["message"]?.nonEmptyText
        let formatted = entry?["formatted"]?.nonEmptyText
        var format: String?
        if let given, hasParams || (formatted != nil && formatted != given) {
            format = given
        } else if let arguments = v["extra"]?["arguments"]?.elements, arguments.count > 1, let first = arguments[0].text,
                  !first.isEmpty, text.hasPrefix(first) {
            format = first
        }
        let domain = v["logger"]?.nonEmptyText ?? "Message"
        let level = SentryDecoder.level(v["level"]?.nonEmptyText)
        let levelPart = level.map { $0 == "error" ? "" : "\u{1F}" + $0 } ?? ""
        let frames = siteFrames(v)
        let stacks = SentryStacks(event: v)
        // As grouping before schema 21 read it: a format only with params, else the masked text; the path of the site.
        let formerTemplate = hasParams && given != nil ? folded(firstLine(given!))
            : MessageTemplate.mask(firstLine(given ?? text), rules: .former)
        let formerName = formerTemplate.isEmpty ? nil : String(formerTemplate.prefix(MessageTemplate.maxNameLength))
        let formerCode = frames.flatMap(SentryStacks.formerSite)?.code(domain: domain)
            ?? MessageTemplate.derivedCode(domain: domain, name: formerName)
        let link: ChainLink
        var words: LinkWords?
        if let format {
            let template = folded(firstLine(format))
            let name = template.isEmpty ? nil : String(template.prefix(MessageTemplate.maxNameLength))
            link = ChainLink(domain: domain, short: "", code: MessageTemplate.derivedCode(domain: domain, name: (name ?? "") + levelPart),
                             name: name, origin: .derived)
        } else {
            let template = MessageTemplate.mask(firstLine(given ?? text))
            let name = template.isEmpty ? nil : String(template.prefix(MessageTemplate.maxNameLength))
            let site = frames.flatMap { RaiseSite(chosen: SentryFrames.chosen($0, isGo: stacks.isGo)) }
            let tokens = name.map(WordTemplate.tokens) ?? []
            let learned = tokens.count > 1 || (tokens.count == 1 && !WordTemplate.isCaseName(tokens[0]))
            let place = domain + "\u{1F}message" + levelPart
            let code = site?.code(domain: domain)
                ?? (learned ? WordTemplate.code(place: place, tokens: tokens)
                    : MessageTemplate.derivedCode(domain: domain, name: (name ?? "") + levelPart))
            link = ChainLink(domain: domain, short: "", code: code, name: name, origin: .derived)
            if learned {
                words = LinkWords(link: 0, place: site == nil ? place : "\(domain)\u{1F}\(code)", tokens: tokens, bySite: site != nil)
            }
        }
        var prior: FormerChain.Link?
        if formerCode != link.code {
            var then = link
            then.code = formerCode
            prior = .read(then)
        }
        return Reading(link: link, text: text, prior: prior, words: words)
    }

    /// The frames of the stack trace the message was sent from: the thread that sent it
    /// (`current`, else `crashed`, else the first with one) in `threads` (an object of `values` or,
    /// from sentry-go, a bare array), else the event's `stacktrace`.
    static func siteFrames(_ v: JSONValue) -> [JSONValue]? {
        let threads = (v["threads"]?["values"] ?? v["threads"])?.elements.filter { $0["stacktrace"]?["frames"] != nil } ?? []
        let thread = threads.first { $0["current"]?.bool == true } ?? threads.first { $0["crashed"]?.bool == true } ?? threads.first
        for stack in [thread?["stacktrace"], SentryDecoder.member(v, "stacktrace")] {
            if let frames = stack?["frames"]?.elements, !frames.isEmpty { return frames }
        }
        return nil
    }

    static func folded(_ line: String) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    static func firstLine(_ text: String) -> String {
        let trimmed = text.trimmingASCIIWhitespace()
        return String(decoding: trimmed.utf8.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}
