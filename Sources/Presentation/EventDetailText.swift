import TriageModel

/// One kept event as text (`errtriage event ID`) and as JSON (`--format json`): its exceptions
/// outermost first with their frames (the app's own marked `>`), breadcrumbs, logs, tags,
/// contexts, request, user and extra. Every text that came with the event is sanitised.
public enum EventDetailText {
    /// A text from the event, safe for a terminal, on one line.
    static func s(_ text: String) -> String {
        TextSanitizer.sanitize(String(text.map { $0 == "\n" || $0 == "\r\n" ? " " : $0 }))
    }

    /// A frame as one line: `billing/amounts.py:41 in parse_amount`, with its module where it names no file.
    public static func frameLine(_ f: EventFrame) -> String {
        var place = f.file ?? f.module ?? "?"
        if let line = f.line { place += ":\(line)" }
        if let column = f.column { place += ":\(column)" }
        if let function = f.function { place += " in \(function)" }
        if let package = f.package, f.file == nil || f.inApp != true { place += "  (\(package))" }
        return place
    }

    /// The line that stands for the exceptions a chain past `EventBounds.maxLinks` leaves out.
    public static func exceptionsLeftOut(_ n: Int) -> String {
        "… \(Format.grouped(n)) exceptions left out: the \(EventBounds.keptEachEnd) outermost and the \(EventBounds.keptEachEnd) innermost are shown …"
    }

    /// The event as text: a header, then each section that has something. `code`: what the
    /// checkout says of its frames (`EventDetail.allFrames`' order), whose source lines stand in
    /// where the SDK sent none.
    public static func render(_ d: EventDetail, issueKey: String, kept: [String], code: CodeFacts? = nil) -> String {
        var out = "event \(s(d.eventID))  issue \(s(issueKey))  \(d.source)"
        if let t = d.timestamp { out += "  \(t.iso8601)" }
        out += "\n"
        var facts: [(String, String?)] = [("level", d.level), ("release", d.release), ("environment", d.environment),
                                         ("server", d.serverName), ("transaction", d.transaction), ("logger", d.logger),
                                         ("platform", d.platform), ("sdk", d.sdk)]
        facts.append(("kept as", kept.isEmpty ? nil : kept.joined(separator: ", ")))
        for (name, value) in facts { if let value { out += "  \(name): \(s(value))\n" } }
        if let message = d.message { out += "  message: \(s(message))\n" }
        if let code {
            if let problem = code.problem {
                out += "  code: \(s(problem))\n"
            } else if code.sites.contains(where: { $0?.source != nil }), let revision = code.revision {
                out += "  code: source lines the SDK did not send are read from \(s(code.checkout ?? "?")) at \(s(revision.label))"
                    + (revision.note.map { " (\(s($0)))" } ?? "") + "\n"
            }
        }
        var offset = 0
        for (i, e) in d.exceptions.enumerated() {
            if d.exceptionsLeftOut > 0 && i == EventBounds.keptEachEnd { out += "\n" + exceptionsLeftOut(d.exceptionsLeftOut) + "\n" }
            out += "\n" + (i == 0 ? "Exception" : "Caused by (link \(d.linkNumber(i)))") + ": "
            out += s([e.type, e.value].compactMap { $0 }.joined(separator: ": ")) + "\n"
            if let mechanism = e.mechanism { out += "  mechanism: \(s(mechanism))" + (e.handled.map { $0 ? ", handled" : ", unhandled" } ?? "") + "\n" }
            out += frames(e.frames, offset: offset, code: code)
            offset += e.frames.count
        }
        if !d.stack.isEmpty { out += "\nStack\n" + frames(d.stack, offset: offset, code: code) }
        if !d.breadcrumbs.isEmpty {
            out += "\nBreadcrumbs (oldest first)\n"
            for b in d.breadcrumbs { out += "  " + crumb(b) + "\n" }
        }
        if !d.logs.isEmpty {
            out += "\nLogs\n"
            for b in d.logs { out += "  " + crumb(b) + "\n" }
        }
        out += section("Tags", d.tags)
        for c in d.contexts { out += section("Context \(s(c.name))", c.fields) }
        if let r = d.request {
            out += "\nRequest\n"
            let line = [r.method, r.url].compactMap { $0 }.joined(separator: " ")
            if !line.isEmpty { out += "  \(s(line))\n" }
            if let q = r.query { out += "  query: \(s(q))\n" }
            for h in r.headers { out += "  \(s(h.key)): \(s(h.value))\n" }
            if let data = r.data { out += "  data: \(s(data))\n" }
        }
        out += section("User", d.user)
        out += section("Extra", d.extra)
        return out
    }

    static func frames(_ frames: [EventFrame], offset: Int = 0, code: CodeFacts? = nil) -> String {
        var out = ""
        for (i, f) in frames.enumerated() {
            out += (f.inApp == true ? "  > " : "    ") + s(frameLine(f)) + "\n"
            if let line = f.contextLine, f.inApp == true {
                out += "        " + s(String(line.drop { $0 == " " || $0 == "\t" })) + "\n"
            } else if f.inApp != false, let site = code?.sites[safe: offset + i] ?? nil {
                if let excerpt = site.source {
                    out += CodeText.excerpt(excerpt.around(radius: 2), indent: "      ")
                } else if let problem = site.problems.first, f.line != nil {
                    out += "        (\(s(problem)))\n"
                }
            }
        }
        return out
    }

    static func crumb(_ b: EventBreadcrumb) -> String {
        var parts: [String] = []
        if let t = b.timestamp { parts.append(t.secondText) }
        if let c = b.category { parts.append("[\(s(c))]") }
        if let l = b.level { parts.append(s(l)) }
        if let m = b.message { parts.append(s(m)) }
        if !b.data.isEmpty { parts.append(b.data.map { "\(s($0.key))=\(s($0.value))" }.joined(separator: " ")) }
        return parts.joined(separator: "  ")
    }

    static func section(_ title: String, _ fields: [EventField]) -> String {
        guard !fields.isEmpty else { return "" }
        return "\n\(title)\n" + fields.map { "  \(s($0.key)): \(s($0.value))\n" }.joined()
    }

    // MARK: JSON

    /// The event as JSON, every member present (null or empty where the event said nothing).
    public static func json(_ d: EventDetail, issueKey: String, kept: [String], code: CodeFacts? = nil) -> JSONValue {
        func str(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        var index = 0
        /// What the checkout says of the next frame, in `allFrames`' order.
        func checkout() -> JSONValue {
            defer { index += 1 }
            guard let code, code.problem == nil, let site = code.sites[safe: index] ?? nil else { return .null }
            return .object([("file", str(site.path)), ("line", site.line.map { .number(String($0)) } ?? .null),
                            ("source", site.source.map { e in
                                .object([("revision", .string(e.revision)), ("first_line", .number(String(e.firstLine))),
                                         ("lines", .array(e.lines.map(JSONValue.string)))])
                            } ?? .null),
                            ("problems", .array(site.problems.map(JSONValue.string)))])
        }
        func fields(_ list: [EventField]) -> JSONValue { .object(list.map { ($0.key, .string($0.value)) }) }
        func frame(_ f: EventFrame) -> JSONValue {
            .object([("function", str(f.function)), ("module", str(f.module)), ("file", str(f.file)),
                     ("line", f.line.map { .number(String($0)) } ?? .null), ("column", f.column.map { .number(String($0)) } ?? .null),
                     ("in_app", f.inApp.map(JSONValue.bool) ?? .null), ("context_line", str(f.contextLine)),
                     ("package", str(f.package)), ("abs_path", str(f.absPath)), ("checkout", checkout())])
        }
        func crumb(_ b: EventBreadcrumb) -> JSONValue {
            .object([("timestamp", str(b.timestamp?.iso8601)), ("category", str(b.category)), ("level", str(b.level)),
                     ("type", str(b.type)), ("message", str(b.message)), ("data", fields(b.data))])
        }
        return .object([
            ("event_id", .string(d.eventID)), ("issue", .string(issueKey)), ("source", .string(d.source)),
            ("timestamp", str(d.timestamp?.iso8601)), ("kept_as", .array(kept.map(JSONValue.string))),
            ("level", str(d.level)), ("platform", str(d.platform)), ("message", str(d.message)),
            ("release", str(d.release)), ("environment", str(d.environment)), ("server_name", str(d.serverName)),
            ("transaction", str(d.transaction)), ("logger", str(d.logger)), ("sdk", str(d.sdk)),
            ("exceptions_left_out", .number(String(d.exceptionsLeftOut))),
            ("exceptions", .array(d.exceptions.map { e in
                .object([("type", str(e.type)), ("value", str(e.value)), ("module", str(e.module)), ("mechanism", str(e.mechanism)),
                         ("handled", e.handled.map(JSONValue.bool) ?? .null), ("raised_at", str(e.raisedAt?.description)),
                         ("frames", .array(e.frames.map(frame)))])
            })),
            ("stack", .array(d.stack.map(frame))),
            ("breadcrumbs", .array(d.breadcrumbs.map(crumb))),
            ("logs", .array(d.logs.map(crumb))),
            ("tags", fields(d.tags)),
            ("contexts", .object(d.contexts.map { ($0.name, fields($0.fields)) })),
            ("request", d.request.map { r in
                .object([("method", str(r.method)), ("url", str(r.url)), ("query", str(r.query)), ("headers", fields(r.headers)),
                         ("data", str(r.data))])
            } ?? .null),
            ("user", fields(d.user)),
            ("extra", fields(d.extra)),
            ("code", code.map { c in
                .object([("checkout", str(c.checkout)), ("problem", str(c.problem)),
                         ("revision", c.revision.map { r in
                             .object([("name", .string(r.name)), ("commit", .string(r.commit)), ("is_release", .bool(r.isRelease)),
                                      ("note", str(r.note))])
                         } ?? .null)])
            } ?? .null),
        ])
    }
}
