import Presentation
import TriageModel

/// The event screen's lines for an event read whole: its facts, each exception outermost first
/// with its frames (the app's first-class, runs of library frames folded unless `f` unfolds them),
/// breadcrumbs, logs, tags, contexts, request, user and extra. Every text from the payload is sanitised.
extension EventScreen {
    /// A text from the payload on one line, inert; past 4,000 characters (no screen shows more of
    /// one field) cut, and said so.
    static func inert(_ text: String, unicode: Bool, maxWidth: Int = .max) -> String {
        let cut = text.count > 4_000
        let line = String(text.prefix(4_000).map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 }) + (cut ? " (truncated)" : "")
        return TextSanitizer.sanitize(line, unicode: unicode, maxWidth: maxWidth)
    }

    /// Whether any stack of the event has a frame that is not the app's.
    static func hasLibraryFrames(_ event: EventDetail) -> Bool {
        (event.exceptions.flatMap(\.frames) + event.stack).contains { $0.inApp == false }
    }

    static func wholeLines(_ event: EventDetail, _ whole: WholeEvent, width: Int, unfolded: Bool, unicode: Bool, code: CodeFacts? = nil,
                           selected: Int? = nil) -> [[Span]] {
        let dot = unicode ? " · " : " - "
        var lines: [[Span]] = []
        // Where it stands among the issue's kept events first, so that 80 columns show it; then why it is kept.
        var status = "Kept whole"
        if let i = whole.kept.firstIndex(where: { $0.eventID == whole.eventID }) {
            status += ", \(i + 1) of \(whole.kept.count) of the issue's\(whole.kept.count > 1 ? dot + "> older < newer" : "")"
        }
        if !whole.roles.isEmpty { status += dot + whole.roles.joined(separator: ", ") }
        lines.append([Span(status, .dim)])
        var facts: [(String, String?)] = [
            ("Time", event.timestamp?.secondText), ("Level", event.level), ("Release", event.release),
            ("Environment", event.environment), ("Server", event.serverName), ("Transaction", event.transaction),
            ("Logger", event.logger), ("Platform", event.platform), ("SDK", event.sdk), ("Message", event.message),
        ]
        facts.removeAll { $0.1 == nil }
        for (name, value) in facts { lines += field(name, value!, width: width, unicode: unicode) }
        if let code, code.problem == nil, code.sites.contains(where: { $0?.source != nil }), let revision = code.revision {
            lines += TextWrap.wrap("Source lines the SDK did not send are read from the checkout at \(revision.label)"
                                   + (revision.note.map { ": " + $0 } ?? "") + ".", width: width, unicode: unicode, maxLines: 4)
                .map { [Span($0, .dim)] }
        }
        var offset = 0
        for (i, e) in event.exceptions.enumerated() {
            lines.append([])
            if event.exceptionsLeftOut > 0 && i == EventBounds.keptEachEnd {
                lines += TextWrap.wrap(EventDetailText.exceptionsLeftOut(event.exceptionsLeftOut), width: width, unicode: unicode, maxLines: 2)
                    .map { [Span($0, .dim)] }
                lines.append([])
            }
            let title = [e.type, e.value].compactMap { $0 }.joined(separator: ": ")
            let heading = i == 0 ? "Exception" : "Caused by (link \(event.linkNumber(i)))"
            lines += TextWrap.wrap("\(heading): \(inert(title, unicode: unicode))", width: width, unicode: unicode, maxLines: 4)
                .map { [Span($0, .heading)] }
            if let mechanism = e.mechanism {
                let handled = e.handled.map { $0 ? ", handled" : ", unhandled" } ?? ""
                lines.append([Span("  mechanism: \(inert(mechanism, unicode: unicode, maxWidth: 40))\(handled)", .dim)])
            }
            lines += frameLines(e.frames, width: width, unfolded: unfolded, unicode: unicode, offset: offset, code: code, selected: selected)
            offset += e.frames.count
        }
        if !event.stack.isEmpty {
            lines += [[], [Span("Stack", .heading)]]
                + frameLines(event.stack, width: width, unfolded: unfolded, unicode: unicode, offset: offset, code: code, selected: selected)
        }
        lines += crumbLines("Breadcrumbs, oldest first", event.breadcrumbs, width: width, unicode: unicode)
        lines += crumbLines("Logs", event.logs, width: width, unicode: unicode)
        lines += section("Tags", event.tags, width: width, unicode: unicode)
        for context in event.contexts {
            lines += section("Context: \(inert(context.name, unicode: unicode, maxWidth: 30))", context.fields, width: width, unicode: unicode)
        }
        if let request = event.request {
            lines += [[], [Span("Request", .heading)]]
            let line = [request.method, request.url].compactMap { $0 }.joined(separator: " ")
            if !line.isEmpty { lines += wrapped(line, indent: 2, width: width, unicode: unicode) }
            if let query = request.query { lines += field("  query", query, width: width, unicode: unicode) }
            for header in request.headers { lines += field("  " + header.key, header.value, width: width, unicode: unicode) }
            if let data = request.data { lines += field("  data", data, width: width, unicode: unicode) }
        }
        lines += section("User", event.user, width: width, unicode: unicode)
        lines += section("Extra", event.extra, width: width, unicode: unicode)
        return lines
    }

    /// A stack, innermost call first: each app frame as `> file:line in function` with its source
    /// line under it (the SDK's, else the checkout's); each run of library frames as one line (`f`
    /// unfolds them, dim). `offset` is the first frame's index among the event's (`allFrames`); the
    /// `selected` one is drawn selected, with the lines around it.
    static func frameLines(_ frames: [EventFrame], width: Int, unfolded: Bool, unicode: Bool, offset: Int = 0, code: CodeFacts? = nil,
                           selected: Int? = nil) -> [[Span]] {
        var lines: [[Span]] = []
        var run: [EventFrame] = []
        func flush() {
            guard !run.isEmpty else { return }
            let n = run.count
            lines.append([Span("    \(unicode ? "…" : "...") \(n) library frame\(n == 1 ? "" : "s") (f unfolds)", .dim)])
            run = []
        }
        for (i, f) in frames.enumerated() {
            let index = offset + i
            guard f.inApp != false || unfolded else { run.append(f); continue }
            flush()
            let text = inert(EventDetailText.frameLine(f), unicode: unicode, maxWidth: width - 4)
            if index == selected {
                // `e` opens it once the checkout names its file: said beside it.
                let opens = code?.sites[safe: index]??.absolutePath != nil ? (unicode ? "  ◂ e" : "  <- e") : ""
                lines.append([Span((unicode ? "  ▸ " : "  > ") + text + opens, .selected)])
            } else if f.inApp == false {
                lines.append([Span("    " + text, .dim)])
            } else {
                lines.append([Span(unicode ? "  ▸ " : "  > ", .key), Span(text, f.inApp == true ? .key : .normal)])
            }
            if f.inApp != false || index == selected {
                lines += sourceLines(f, site: code?.sites[safe: index] ?? nil, around: index == selected, width: width, unicode: unicode)
            }
        }
        flush()
        if frames.isEmpty { lines.append([Span("  (no frames)", .dim)]) }
        return lines
    }

    /// The frame's source: its line (the SDK's `context_line`, else the checkout's); for the
    /// selected frame the lines around it too, numbered; a frame the checkout cannot read says why.
    static func sourceLines(_ f: EventFrame, site: CodeSite?, around: Bool, width: Int, unicode: Bool) -> [[Span]] {
        let room = max(1, width - 8)
        func code(_ text: String) -> String { inert(String(text.drop { $0 == " " || $0 == "\t" }), unicode: unicode, maxWidth: room) }
        if let source = f.contextLine {
            guard around, let line = f.line, !(f.preContext.isEmpty && f.postContext.isEmpty) else {
                let text = code(source)
                return text.isEmpty ? [] : [[Span("        " + text)]]
            }
            let excerpt = SourceExcerpt(firstLine: line - f.preContext.count, lines: f.preContext + [source] + f.postContext, line: line, revision: "")
            return numbered(excerpt, width: width, unicode: unicode)
        }
        if let excerpt = site?.source {
            if around { return numbered(excerpt, width: width, unicode: unicode) }
            guard let text = excerpt.numbered.first(where: \.isFrameLine)?.text else { return [] }
            let shown = code(text)
            return shown.isEmpty ? [] : [[Span("        " + shown)]]
        }
        if around, let problem = site?.problems.first {
            return [[Span("        " + inert(problem, unicode: unicode, maxWidth: room), .dim)]]
        }
        return []
    }

    /// Lines with their numbers, the frame's marked.
    static func numbered(_ excerpt: SourceExcerpt, width: Int, unicode: Bool) -> [[Span]] {
        let digits = String(excerpt.firstLine + excerpt.lines.count).count
        return excerpt.numbered.map { number, text, isFrameLine in
            let mark = isFrameLine ? (unicode ? "→ " : "> ") : "  "
            let label = "      " + mark + String(repeating: " ", count: max(0, digits - String(number).count)) + "\(number)  "
            let body = inert(text.replacingTabs(), unicode: unicode, maxWidth: max(1, width - label.count))
            return [Span(label, .dim), Span(body, isFrameLine ? .key : .normal)]
        }
    }

    /// Breadcrumbs or log lines: time, category, level, message (and data), each wrapped under itself.
    static func crumbLines(_ title: String, _ crumbs: [EventBreadcrumb], width: Int, unicode: Bool) -> [[Span]] {
        guard !crumbs.isEmpty else { return [] }
        var lines: [[Span]] = [[], [Span(title, .heading)]]
        for b in crumbs {
            // time  category  level  message (and data), the message wrapped under itself.
            let head = "  " + (b.timestamp.map { String($0.secondText.suffix(8)) } ?? "--:--:--") + "  "
            let category = Format.left(inert(b.category ?? "", unicode: unicode, maxWidth: 14), 14) + " "
            let level = Format.left(inert(b.level ?? "", unicode: unicode, maxWidth: 7), 7) + " "
            var text = b.message.map { inert($0, unicode: unicode) } ?? ""
            let data = b.data.map { "\(inert($0.key, unicode: unicode))=\(inert($0.value, unicode: unicode))" }.joined(separator: " ")
            if !data.isEmpty { text += (text.isEmpty ? "" : "  ") + data }
            let indent = head.count + category.count + level.count
            let wrapped = TextWrap.wrap(text, width: max(1, width - indent), unicode: unicode, maxLines: 6)
            lines.append([Span(head, .dim), Span(category, .key), Span(level), Span(wrapped.first ?? "")])
            lines += wrapped.dropFirst().map { [Span(String(repeating: " ", count: indent) + $0)] }
        }
        return lines
    }

    /// A titled list of names and texts (tags, a context, the user, extra).
    static func section(_ title: String, _ fields: [EventField], width: Int, unicode: Bool) -> [[Span]] {
        guard !fields.isEmpty else { return [] }
        return [[], [Span(title, .heading)]] + fields.flatMap { field("  " + $0.key, $0.value, width: width, unicode: unicode) }
    }

    /// A name (up to 20 columns) and its text wrapped beside it.
    static func field(_ name: String, _ value: String, width: Int, unicode: Bool) -> [[Span]] {
        let label = Format.left(inert(name, unicode: unicode, maxWidth: 20), 22)
        let text = TextWrap.wrap(inert(value, unicode: unicode), width: max(1, width - 22), unicode: unicode, maxLines: 20)
        return text.enumerated().map { i, t in [Span(i == 0 ? label : Format.left("", 22), .key), Span(t)] }
    }

    static func wrapped(_ text: String, indent: Int, width: Int, unicode: Bool) -> [[Span]] {
        let pad = String(repeating: " ", count: indent)
        return TextWrap.wrap(inert(text, unicode: unicode), width: max(1, width - indent), unicode: unicode, maxLines: 10).map { [Span(pad + $0)] }
    }
}

/// The answer to the event screen's load (`EventScreen.Load`): the event read from its kept payload (nil when the store does not
/// keep it whole) and the issue's kept events, newest first, for the event screen to step through.
public struct WholeEvent: Hashable, Sendable {
    public var eventID: String
    public var issueKey: String
    public var detail: EventDetail?
    /// Why the store keeps it (`first`, `latest`, …).
    public var roles: [String]
    /// The issue's kept events, newest first: each one's id and time.
    public var kept: [KeptRef]

    public init(eventID: String, issueKey: String, detail: EventDetail?, roles: [String] = [], kept: [KeptRef]) {
        self.eventID = eventID
        self.issueKey = issueKey
        self.detail = detail
        self.roles = roles
        self.kept = kept
    }

    /// A kept event of the issue: its id and time.
    public struct KeptRef: Hashable, Sendable {
        public var eventID: String
        public var timestamp: Timestamp

        public init(eventID: String, timestamp: Timestamp) {
            self.eventID = eventID
            self.timestamp = timestamp
        }
    }
}

extension WholeEvent: StoreAnswer {
    public func land(_ state: inout DashboardState) -> [DashboardEffect] { EventScreen.loaded(self, &state) }
}

/// What the event screen asks of the store.
extension EventScreen {
    /// An event of an issue from its kept payload, and which events of the issue are kept whole.
    public struct Load: StoreLoad {
        public var id: String
        public var issueKey: String
        public init(id: String, issueKey: String) {
            self.id = id
            self.issueKey = issueKey
        }
        public func perform(_ context: StoreContext) throws -> WholeEvent {
            let kept = try context.store.keptEvents(issueKey: issueKey, limit: 200).map { WholeEvent.KeptRef(eventID: $0.eventID, timestamp: $0.timestamp) }
            // Only a payload of this issue's: an id two issues share reads as the one the issue keeps.
            let read = kept.contains { $0.eventID == id } ? try context.store.keptEventDetail(id: id) : nil
            return WholeEvent(eventID: id, issueKey: issueKey, detail: read?.detail, roles: read?.kept.roles.names ?? [], kept: kept)
        }
    }
}

extension DashboardEffect {
    /// The event screen's load.
    public static func loadEvent(id: String, issueKey: String) -> Self { .load(EventScreen.Load(id: id, issueKey: issueKey)) }
}

extension DashboardAction {
    /// The event screen's answer.
    public static func eventLoaded(_ event: WholeEvent) -> Self { .answer(event) }
}
