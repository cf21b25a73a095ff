import Foundation

/// A CODEOWNERS file read as GitHub and GitLab read theirs: a pattern and its owners a line, the
/// last matching pattern wins; GitLab's sections (`[Name]`, `^[Name]`, `[Name][2]`, with default
/// owners after the heading) are each read on their own and their owners joined; a pattern with no
/// owners (outside a section with defaults) leaves the file unowned; `!pattern` (GitLab) too.
public struct CodeOwners: Hashable, Sendable {
    /// One pattern line.
    public struct Rule: Hashable, Sendable {
        public var pattern: String
        public var owners: [String]
        /// The line's number in the file, from 1.
        public var line: Int
        /// The GitLab section it is in (nil: before any).
        public var section: String?
        /// `!pattern`: the file is owned by nobody in its section.
        public var excludes: Bool
    }

    /// Where the file is in the checkout: `.github/CODEOWNERS`.
    public var file: String
    public var rules: [Rule]

    /// Where GitHub and GitLab look, in the order they look (GitHub: `.github/`, the root, `docs/`;
    /// GitLab: the root, `docs/`, `.gitlab/`): the first that exists is read.
    public static let locations = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS"]

    public init(file: String, rules: [Rule]) {
        self.file = file
        self.rules = rules
    }

    /// Reads a CODEOWNERS text; lines it cannot read (an empty pattern) are left out.
    public static func parse(_ text: String, file: String) -> CodeOwners {
        var rules: [Rule] = []
        var section: String?
        var sectionOwners: [String] = []
        var sectionNames: [String: String] = [:]
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            if let heading = sectionHeading(trimmed) {
                // Sections of one name (in any case) are one section.
                let key = heading.name.lowercased()
                section = sectionNames[key] ?? heading.name
                sectionNames[key] = section
                sectionOwners = heading.owners
                continue
            }
            var words = tokens(trimmed)
            guard !words.isEmpty else { continue }
            var pattern = words.removeFirst()
            var excludes = false
            if pattern.hasPrefix("!") {
                excludes = true
                pattern.removeFirst()
            }
            guard !pattern.isEmpty else { continue }
            let owners = words.isEmpty && section != nil ? sectionOwners : words
            rules.append(Rule(pattern: pattern, owners: excludes ? [] : owners, line: number + 1, section: section, excludes: excludes))
        }
        return CodeOwners(file: file, rules: rules)
    }

    /// The owners of a file (relative to the checkout's root) and the rules that gave them: the
    /// last matching rule of each section, sections in the file's order, each owner once.
    public func owners(of path: String) -> (owners: [String], rules: [Rule]) {
        var lastInSection: [String: Rule] = [:]
        var order: [String] = []
        for rule in rules where CodeOwners.matches(rule.pattern, path) {
            let key = rule.section ?? ""
            if lastInSection[key] == nil { order.append(key) }
            lastInSection[key] = rule
        }
        // Sections in the file's order (a section named twice stands where it first stood).
        var position: [String: Int] = [:]
        for (i, rule) in rules.enumerated() where position[rule.section ?? ""] == nil { position[rule.section ?? ""] = i }
        order.sort { position[$0, default: 0] < position[$1, default: 0] }
        var owners: [String] = []
        var used: [Rule] = []
        for key in order {
            guard let rule = lastInSection[key] else { continue }
            used.append(rule)
            for owner in rule.owners where !owners.contains(owner) { owners.append(owner) }
        }
        return (owners, used)
    }

    /// Where the owners come from: `.github/CODEOWNERS:4 /billing/`, each rule used.
    public func describe(_ used: [Rule]) -> String? {
        guard !used.isEmpty else { return nil }
        return used.map { "\(file):\($0.line) \($0.excludes ? "!" : "")\($0.pattern)" }.joined(separator: ", ")
    }

    // MARK: reading lines

    /// `[Name]`, `^[Name]`, `[Name][2]`, each with default owners after it; nil for a pattern line.
    static func sectionHeading(_ line: Substring) -> (name: String, owners: [String])? {
        var rest = line
        if rest.hasPrefix("^") { rest = rest.dropFirst() }
        guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]") else { return nil }
        let name = rest[rest.index(after: rest.startIndex)..<close].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        rest = rest[rest.index(after: close)...]
        // The approvals a section requires, `[2]`.
        if rest.hasPrefix("["), let end = rest.firstIndex(of: "]"),
           rest[rest.index(after: rest.startIndex)..<end].allSatisfy({ $0.isASCII && $0.isNumber }) {
            rest = rest[rest.index(after: end)...]
        }
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        return (name, tokens(rest))
    }

    /// The line's words: split at white space that no backslash escapes, up to a `#` that starts a comment.
    static func tokens(_ line: Substring) -> [String] {
        var words: [String] = []
        var word = ""
        var escaped = false
        for c in line {
            if escaped {
                word.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == " " || c == "\t" {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if c == "#" && word.isEmpty {
                break
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    // MARK: matching

    /// Whether a pattern matches a path, as gitignore's rules read it with GitHub's and GitLab's
    /// differences: `/x` is anchored at the root, a pattern with a slash inside too, one without
    /// matches at any depth; `*` and `?` stay within a folder, `**` crosses folders; a pattern
    /// whose last part is a plain name (`docs`, `apps/`) names a folder and everything in it,
    /// while `docs/*` names only the files directly in `docs`; a trailing `/` names folders only.
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        var p = Substring(pattern)
        var anchored = false
        if p.hasPrefix("/") {
            anchored = true
            p = p.drop { $0 == "/" }
        }
        var folderOnly = false
        if p.hasSuffix("/") {
            folderOnly = true
            while p.hasSuffix("/") { p = p.dropLast() }
        }
        guard !p.isEmpty else { return anchored }  // `/` alone: the whole checkout
        if p.contains("/") { anchored = true }
        var parts = p.split(separator: "/").map(String.init)
        if !anchored { parts.insert("**", at: 0) }
        let names = path.split(separator: "/").map(String.init)
        let literalLast = !(parts.last.map(hasGlob) ?? true)
        if !folderOnly, match(parts[...], names[...]) { return true }
        // A plain name names a folder too: every file under it.
        if literalLast || parts.last == "**" {
            for end in stride(from: names.count - 1, through: 1, by: -1) where match(parts[...], names[..<end]) { return true }
        }
        return false
    }

    static func hasGlob(_ part: String) -> Bool { part.contains { $0 == "*" || $0 == "?" || $0 == "[" || $0 == "\\" } }

    /// Parts against names, `**` for any number of names.
    static func match(_ parts: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let first = parts.first else { return names.isEmpty }
        if first == "**" {
            let rest = parts.dropFirst()
            if rest.isEmpty { return true }
            var tail = names
            while true {
                if match(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        }
        guard let name = names.first, glob(Array(first.unicodeScalars)[...], Array(name.unicodeScalars)[...]) else { return false }
        return match(parts.dropFirst(), names.dropFirst())
    }

    /// One name against one part: `*`, `?`, `[a-z]`, `[!x]`, `\x`.
    static func glob(_ p: ArraySlice<Unicode.Scalar>, _ s: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = p, s = s
        while let c = p.first {
            switch c {
            case "*":
                let rest = p.drop { $0 == "*" }
                if rest.isEmpty { return true }
                var tail = s
                while true {
                    if glob(rest, tail) { return true }
                    guard !tail.isEmpty else { return false }
                    tail = tail.dropFirst()
                }
            case "?":
                guard !s.isEmpty else { return false }
                p = p.dropFirst()
                s = s.dropFirst()
            case "[":
                guard let ch = s.first, let (matched, after) = bracket(p.dropFirst(), ch) else {
                    // An unclosed `[` is itself.
                    guard s.first == "[" else { return false }
                    p = p.dropFirst()
                    s = s.dropFirst()
                    continue
                }
                guard matched else { return false }
                p = after
                s = s.dropFirst()
            case "\\":
                p = p.dropFirst()
                guard let literal = p.first, s.first == literal else { return false }
                p = p.dropFirst()
                s = s.dropFirst()
            default:
                guard s.first == c else { return false }
                p = p.dropFirst()
                s = s.dropFirst()
            }
        }
        return s.isEmpty
    }

    /// A bracket expression after its `[`: whether `ch` is in it, and the pattern after its `]`; nil when unclosed.
    static func bracket(_ p: ArraySlice<Unicode.Scalar>, _ ch: Unicode.Scalar) -> (Bool, ArraySlice<Unicode.Scalar>)? {
        var p = p
        var negate = false
        if let f = p.first, f == "!" || f == "^" {
            negate = true
            p = p.dropFirst()
        }
        var matched = false
        var first = true
        while let c = p.first {
            if c == "]" && !first { return (matched != negate, p.dropFirst()) }
            first = false
            p = p.dropFirst()
            if p.first == "-", let high = p.dropFirst().first, high != "]" {
                if c.value <= ch.value && ch.value <= high.value { matched = true }
                p = p.dropFirst(2)
            } else if c == ch {
                matched = true
            }
        }
        return nil
    }
}
