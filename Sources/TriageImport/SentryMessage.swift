import TriageModel

/// An event without an exception — a log record (`logging.error(…)` through the Python SDK's
/// logging integration), `capture_message(…)`, sentry-go's report of `panic("…")` — as a chain of
/// one link, so that it is an issue like any other.
///
/// - The domain is the logger (`payments`, short name `PA`), else `Message`.
/// - The name is the template: `logentry.message` where the SDK sent `params` (`Payment %s failed
///   for order %d`), else the message's first line with per-event data masked
///   (`MessageTemplate.mask`), at most `MessageTemplate.maxNameLength` characters.
/// - The code is derived from the domain and where the message was sent (`RaiseSite`, from the
///   stack trace of the current thread in `threads`, or a top-level `stacktrace`), else from the
///   domain and the template.
/// - The text that the event shows is the message as sent (`logentry.formatted`, else the message).
/// `logentry` may come as the legacy `sentry.interfaces.Message`, or as an object in `message`.
enum SentryMessage {
    /// The one link and the message as sent; nil where the event has no message.
    static func read(_ v: JSONValue) -> (link: ChainLink, text: String)? {
        let entry = SentryDecoder.member(v, "logentry") ?? v["message"].flatMap { $0.members.isEmpty ? nil : $0 }
        let params = entry?["params"]
        let hasParams = !(params?.elements.isEmpty ?? true) || !(params?.members.isEmpty ?? true)
        guard let text = entry?["formatted"]?.nonEmptyText ?? entry?["message"]?.nonEmptyText ?? v["message"]?.nonEmptyText
        else { return nil }
        let template: String
        if hasParams, let given = entry?["message"]?.nonEmptyText {
            template = firstLine(given).split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        } else {
            template = MessageTemplate.mask(firstLine(entry?["message"]?.nonEmptyText ?? text))
        }
        let name = template.isEmpty ? nil : String(template.prefix(MessageTemplate.maxNameLength))
        let domain = v["logger"]?.nonEmptyText ?? "Message"
        let code = site(v)?.code(domain: domain) ?? MessageTemplate.derivedCode(domain: domain, name: name)
        return (ChainLink(domain: domain, short: "", code: code, name: name, origin: .derived), text)
    }

    /// Where the message was sent from: the stack trace of the thread that sent it (`current`,
    /// else `crashed`, else the first with one) in `threads` (an object of `values` or, from
    /// sentry-go, a bare array), else the event's `stacktrace`.
    static func site(_ v: JSONValue) -> RaiseSite? {
        let threads = (v["threads"]?["values"] ?? v["threads"])?.elements.filter { $0["stacktrace"]?["frames"] != nil } ?? []
        let thread = threads.first { $0["current"]?.bool == true } ?? threads.first { $0["crashed"]?.bool == true } ?? threads.first
        return SentryStacks.site(thread?["stacktrace"]) ?? SentryStacks.site(SentryDecoder.member(v, "stacktrace"))
    }

    static func firstLine(_ text: String) -> String {
        let trimmed = text.trimmingASCIIWhitespace()
        return String(decoding: trimmed.utf8.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}
