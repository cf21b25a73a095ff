import TriageModel

/// What a checkout says of an issue or an event, as text and JSON: where the code was read, each
/// raise site's suspect commit (the last change to its line) and owners, source lines.
public enum CodeText {
    /// `a1b2c3d  2026-10-20  Ben Okafor  Say which amount is bad`.
    public static func suspectLine(_ c: CodeCommit, unicode: Bool = true) -> String {
        TextSanitizer.sanitize("\(c.shortHash)  \(c.date.dateText)  \(c.author)  \(c.subject)", unicode: unicode)
    }

    /// Where the code was read and why there, or why it was not: one sentence.
    public static func checkoutLine(_ facts: CodeFacts) -> String {
        if let problem = facts.problem { return TextSanitizer.sanitize(problem) }
        var text = "Code: \(facts.checkout ?? "?")"
        if let revision = facts.revision {
            text += " at \(revision.label)"
            if let note = revision.note { text += " (\(note))" }
        }
        return TextSanitizer.sanitize(text)
    }

    /// The lines `show` prints under a link's `raised at` (indented by `indent`): the file where the
    /// checkout names it otherwise, the suspect, the owners, or why the checkout cannot tell.
    public static func siteLines(_ site: CodeSite, place: FrameLocation?, indent: String) -> String {
        var out = ""
        if let mapped = site.place, mapped != place.flatMap({ p in p.file.map { f in p.line.map { "\(f):\($0)" } ?? f } }) {
            out += indent + "in the checkout: \(TextSanitizer.sanitize(mapped))\n"
        }
        if let c = site.suspect { out += indent + "suspect commit: " + suspectLine(c) + "\n" }
        if !site.owners.isEmpty {
            out += indent + "owners: " + TextSanitizer.sanitize(site.owners.joined(separator: " ") + (site.ownersRule.map { "  (\($0))" } ?? "")) + "\n"
        }
        for problem in site.problems { out += indent + TextSanitizer.sanitize(problem) + "\n" }
        return out
    }

    /// The facts as JSON: the checkout, the revision, each site (null where a link has no raise
    /// site), the owners suggested.
    public static func json(_ facts: CodeFacts) -> JSONValue {
        func str(_ v: String?) -> JSONValue { v.map(JSONValue.string) ?? .null }
        func int(_ v: Int?) -> JSONValue { v.map { .number(String($0)) } ?? .null }
        return .object([
            ("checkout", str(facts.checkout)),
            ("problem", str(facts.problem)),
            ("revision", facts.revision.map { r in
                .object([("name", .string(r.name)), ("commit", .string(r.commit)), ("is_release", .bool(r.isRelease)), ("note", str(r.note))])
            } ?? .null),
            ("sites", .array(facts.sites.map { site in
                guard let site else { return .null }
                return .object([
                    ("file", str(site.path)), ("line", int(site.line)), ("via", str(site.via)),
                    ("suspect_commit", site.suspect.map(commitJSON) ?? .null),
                    ("owners", .array(site.owners.map(JSONValue.string))), ("owners_rule", str(site.ownersRule)),
                    ("problems", .array(site.problems.map(JSONValue.string))),
                ])
            })),
            ("suggested_owners", .array(facts.suggestedOwners.map(JSONValue.string))),
        ])
    }

    public static func commitJSON(_ c: CodeCommit) -> JSONValue {
        .object([("hash", .string(c.hash)), ("short", .string(c.shortHash)), ("author", .string(c.author)),
                 ("email", c.email.map(JSONValue.string) ?? .null), ("date", .string(c.date.iso8601)), ("subject", .string(c.subject))])
    }

    /// A source excerpt as text lines: `   41  code`, the frame's line marked `>`.
    public static func excerpt(_ e: SourceExcerpt, indent: String) -> String {
        let digits = String(e.firstLine + e.lines.count).count
        return e.numbered.map { number, text, mark in
            indent + (mark ? "> " : "  ") + String(repeating: " ", count: max(0, digits - String(number).count)) + "\(number)  "
                + TextSanitizer.sanitize(text.replacingTabs()) + "\n"
        }.joined()
    }
}

extension String {
    /// Tabs as four spaces, so that indented code keeps its shape in cells.
    public func replacingTabs() -> String { String(flatMap { $0 == "\t" ? Array("    ") : [$0] }) }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
