extension SearchQuery {
    /// Reads a query: terms split by spaces outside quotes, `-` negates, `field:a|b`, `*` a prefix.
    public static func parse(_ text: String) throws(SearchQueryError) -> SearchQuery {
        var terms: [SearchTerm] = []
        for raw in try tokens(text) {
            terms.append(try term(raw))
        }
        return SearchQuery(terms: terms)
    }

    /// Splits at spaces and tabs outside double quotes; a quote left open is an error.
    static func tokens(_ text: String) throws(SearchQueryError) -> [String] {
        var result: [String] = [], current = "", quoted = false, escaped = false
        for ch in text {
            if escaped {
                current.append(ch)
                escaped = false
            } else if quoted && ch == "\\" {
                current.append(ch)
                escaped = true
            } else if ch == "\"" {
                current.append(ch)
                quoted.toggle()
            } else if !quoted && (ch == " " || ch == "\t") {
                if !current.isEmpty { result.append(current) }
                current = ""
            } else {
                current.append(ch)
            }
        }
        if quoted { throw SearchQueryError(term: current, reason: "opens a quote it does not close") }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// One token as a term.
    static func term(_ raw: String) throws(SearchQueryError) -> SearchTerm {
        var body = Substring(raw)
        let negated = body.hasPrefix("-") && body.count > 1
        if negated { body = body.dropFirst() }
        guard let colon = body.firstIndex(of: ":"), !body[..<colon].contains("\"") else {
            let value = try value(body, in: raw, comparisons: false)
            return SearchTerm(field: nil, values: [value], negated: negated)
        }
        let name = body[..<colon].lowercased()
        guard let field = SearchField(rawValue: name) else {
            throw SearchQueryError(term: raw, reason: "names no field \"\(name)\"")
        }
        var values: [SearchValue] = []
        for part in try alternatives(body[body.index(after: colon)...], in: raw) {
            let v = try value(part, in: raw, comparisons: field.takesComparison)
            try check(v, field: field, term: raw)
            values.append(v)
        }
        return SearchTerm(field: field, values: values, negated: negated)
    }

    /// Splits a field's values at `|` outside quotes; none may be empty.
    static func alternatives(_ text: Substring, in raw: String) throws(SearchQueryError) -> [Substring] {
        var parts: [Substring] = [], start = text.startIndex, quoted = false, escaped = false
        var i = text.startIndex
        while i < text.endIndex {
            let ch = text[i]
            if escaped { escaped = false } else if quoted && ch == "\\" { escaped = true } else if ch == "\"" { quoted.toggle() } else if ch == "|" && !quoted {
                parts.append(text[start..<i])
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        parts.append(text[start...])
        if parts.contains(where: \.isEmpty) { throw SearchQueryError(term: raw, reason: "has an empty value") }
        return parts
    }

    /// One value: an optional comparison, then quoted text or plain text with an optional trailing `*`.
    static func value(_ text: Substring, in raw: String, comparisons: Bool) throws(SearchQueryError) -> SearchValue {
        var rest = text, comparison = SearchComparison.equal
        if comparisons {
            for c in [SearchComparison.greaterOrEqual, .lessOrEqual, .greater, .less] where rest.hasPrefix(c.rawValue) {
                comparison = c
                rest = rest.dropFirst(c.rawValue.count)
                break
            }
            if comparison == .equal, rest.hasPrefix("=") { rest = rest.dropFirst() }
        }
        if rest.first == "\"" {
            var out = "", escaped = false, closed = false
            var i = rest.index(after: rest.startIndex)
            while i < rest.endIndex {
                let ch = rest[i]
                if escaped { out.append(ch); escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { closed = true; break } else { out.append(ch) }
                i = rest.index(after: i)
            }
            let after = closed ? rest[rest.index(after: i)...] : ""
            guard closed, after.isEmpty || after == "*" else {
                throw SearchQueryError(term: raw, reason: "has text after a closing quote")
            }
            return SearchValue(out, comparison: comparison, isPrefix: after == "*")
        }
        if rest.contains("\"") { throw SearchQueryError(term: raw, reason: "has a quote inside a value") }
        let isPrefix = rest.hasSuffix("*")
        if isPrefix { rest = rest.dropLast() }
        if rest.isEmpty && !isPrefix { throw SearchQueryError(term: raw, reason: "has an empty value") }
        return SearchValue(String(rest), comparison: comparison, isPrefix: isPrefix)
    }

    /// A value the field cannot take is an error: an unknown word, a count that is not a number.
    static func check(_ value: SearchValue, field: SearchField, term raw: String) throws(SearchQueryError) {
        if let allowed = field.allowedValues, !value.isPrefix, !allowed.contains(value.text.lowercased()) {
            throw SearchQueryError(term: raw, reason: "takes \(allowed.joined(separator: ", ")), not \"\(value.text)\"")
        }
        switch field {
        case .events, .users, .complaints:
            guard !value.isPrefix, Int(value.text) != nil else {
                throw SearchQueryError(term: raw, reason: "compares a count with a whole number, as in \(field.rawValue):>=10")
            }
        case .version, .firstSeen:
            if value.comparison != .equal, value.isPrefix || AppVersion(value.text) == nil {
                throw SearchQueryError(term: raw, reason: "compares with a version, as in \(field.rawValue):>=1.12")
            }
        case .tag:
            guard let eq = value.text.firstIndex(of: "="), eq != value.text.startIndex, value.comparison == .equal else {
                throw SearchQueryError(term: raw, reason: "names a tag and its value, as in tag:shard=7 (or tag:shard=* for any value)")
            }
        default: break
        }
    }
}

extension SearchQuery: CustomStringConvertible {
    /// The query as it would be typed; `parse(description)` gives the same query back.
    public var description: String { terms.map(\.description).joined(separator: " ") }
}

extension SearchTerm: CustomStringConvertible {
    /// The term as it would be typed.
    public var description: String {
        let sign = negated ? "-" : ""
        guard let field else { return sign + (values.first.map { $0.printed(bare: true) } ?? "\"\"") }
        return sign + field.rawValue + ":" + values.map { $0.printed(bare: false) }.joined(separator: "|")
    }
}

extension SearchValue {
    /// The value as typed: its comparison, its text (quoted where plain text would read otherwise), `*`.
    func printed(bare: Bool) -> String {
        let special: Set<Character> = [" ", "\t", "\"", "\\", "|", "*", ":"]
        let needsQuotes = text.isEmpty || text.contains(where: special.contains)
            || (bare && text.hasPrefix("-"))
            || (comparison == .equal && [">", "<", "="].contains(where: { text.hasPrefix($0) }))
        var out = comparison.rawValue
        if needsQuotes {
            out += "\""
            for ch in text {
                if ch == "\"" || ch == "\\" { out.append("\\") }
                out.append(ch)
            }
            out += "\""
        } else {
            out += text
        }
        return isPrefix ? out + "*" : out
    }
}
