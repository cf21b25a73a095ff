/// Takes secrets out of what errtriage stores, as Sentry's default data scrubber does (Relay's
/// `@common:filter` rules with sentry-python's default deny list), on values as they read once
/// decoded — never on the bytes that carried them, so an escape (`p\u0061ssword`), a percent
/// escape (`p%61ssword`) or Go's `\u0026` hides nothing.
///
/// Three rules, by where a value sits:
/// - **Names.** A value under a sensitive name becomes `[Filtered]`, whatever it held: an object's
///   member, a `[name, value]` pair, a `{"key": …, "value": …}` object, a tag or custom key, a
///   query or form parameter, a cookie, and `name=value` or `name: value` inside any text.
///   A name is sensitive when, in lower case and without `_ - . + space`, it holds one of
///   `keyParts` (`password`, `secret`, `apikey`, `auth`, `token`, `session`, `csrf`, `cookie`…)
///   or is one of `keyWords` (`otp`, `twofactor`, `dsn`).
/// - **Words** (tags, extra, request headers, cookies, bodies and environment, breadcrumbs'
///   data, frames' variables, custom keys: `Zone.structured`). A whole value that holds
///   `password`, `secret`, `passwd`, `api_key`, `apikey`, `auth`, `credentials`, `mysql_pwd`,
///   `privatekey`, `private_key`, or `token…=`/`token…:`, or is `otp` or `two_factor`, becomes
///   `[Filtered]` (Relay's password rule on values).
/// - **Text** (every string, messages, exception values and titles included): only the secret
///   part goes — `password=…`/`token: …` and their JSON and Python spellings (`"token": "…"`),
///   `Bearer …`, the password of a URL's `user:password@` (the whole user part where it has no
///   password), card numbers (13–19 digits, a card's first digit, the Luhn check), US social
///   security numbers (`123-45-6789`) and the body of a PEM private key; percent-encoded text
///   is read decoded too (a query inside a query).
///
/// Kept, as Sentry keeps them by default: IP addresses, e-mail addresses, user ids and names,
/// and an app's own session id (`session_id` and `firebase_session_id` at the top of a native
/// line or a Crashlytics row: an analytics id, not a login).
public enum SecretScrubber {
    /// What a secret becomes.
    public static let filtered = "[Filtered]"
    static let filteredBytes: [UInt8] = Array(filtered.utf8)

    // MARK: - Names

    /// The parts of a normalised name (lower case, without `_ - . + space`) that make it sensitive.
    public static let keyParts = ["password", "passwd", "passphrase", "secret", "apikey", "auth", "credential", "mysqlpwd",
                                  "privatekey", "token", "session", "sessid", "csrf", "xsrf", "cookie", "sentrydsn", "jwt",
                                  "connectsid"]
    /// Whole normalised names that are sensitive (too short to look for inside others).
    public static let keyWords = ["otp", "twofactor", "dsn"]

    /// `keyParts` by their first byte.
    private static let partsByFirst: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 256)
        for part in keyParts { table[Int(part.utf8.first!)].append(Array(part.utf8)) }
        return table
    }()
    private static let wordBytes: [[UInt8]] = keyWords.map { Array($0.utf8) }

    /// Whether a value under this name is a secret.
    public static func isSensitiveKey(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isSensitiveKey($0) }
    }

    /// Names that end a sensitive name in a text's `name: value` (`Authorization: …`,
    /// `X-Session: …`), where a name holding a part is more often an error's type
    /// (`AuthError: authentication required`, `TokenExpiredError: jwt expired`).
    static let endingParts: [[UInt8]] = (keyParts + ["authorization", "sessionid", "credentials"]).map { Array($0.utf8) }

    /// Whether a value under this name (its UTF-8, escapes resolved; `%XX` and `+` resolved
    /// here, twice for a doubly encoded one) is a secret; `ending`: only where the name ends
    /// with a sensitive part (or is a whole sensitive word).
    static func isSensitiveKey(_ raw: UnsafeBufferPointer<UInt8>, ending: Bool = false) -> Bool {
        guard raw.count >= 3 else { return false }
        // A name's last 256 bytes: what stands next to its value.
        let limit = min(raw.count, 256)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: limit) { buffer -> Bool in
            var n = 0
            var k = raw.count - limit
            while k < raw.count, n < limit {
                var c = raw[k]
                k += 1
                if c == UInt8(ascii: "%") {
                    // `%XX`, and `%25XX` (a percent escape escaped again).
                    if k + 1 < raw.count, let v = hexPair(raw[k], raw[k + 1]) {
                        c = v
                        k += 2
                        if c == UInt8(ascii: "%"), k + 1 < raw.count, let w = hexPair(raw[k], raw[k + 1]) {
                            c = w
                            k += 2
                        }
                    }
                }
                switch c {
                case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: " "), 0x09: continue
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): buffer[n] = c | 0x20
                default: buffer[n] = c
                }
                n += 1
            }
            let name = UnsafeBufferPointer(rebasing: buffer[0..<n])
            for word in wordBytes where word.count == n && name.elementsEqual(word) { return true }
            guard n >= 3 else { return false }
            if ending {
                return endingParts.contains { part in part.count <= n && name[(n - part.count)..<n].elementsEqual(part) }
            }
            for i in 0..<n {
                for part in partsByFirst[Int(name[i])] where i + part.count <= n {
                    var j = 1
                    while j < part.count, name[i + j] == part[j] { j += 1 }
                    if j == part.count { return true }
                }
            }
            return false
        }
    }

    /// Names at the top of a native line or a Crashlytics row that hold the app's own session id
    /// (an analytics id, not a login): not secrets, though they say `session`.
    static let appSessionNames: Set<[UInt8]> = [Array("session_id".utf8), Array("firebase_session_id".utf8)]

    // MARK: - Words

    /// The words that make a whole structured value a secret (Relay's password rule on values),
    /// compared in lower case with `-` read as `_`.
    private static let valueWords: [[UInt8]] = ["password", "secret", "passwd", "api_key", "apikey", "auth", "credentials",
                                                "mysql_pwd", "privatekey", "private_key"].map { Array($0.utf8) }
    private static let valueWholeWords: [[UInt8]] = ["otp", "two_factor"].map { Array($0.utf8) }
    private static let tokenWord = Array("token".utf8)

    @inline(__always) private static func folded(_ c: UInt8) -> UInt8 {
        c >= 0x41 && c <= 0x5A ? c | 0x20 : (c == UInt8(ascii: "-") ? UInt8(ascii: "_") : c)
    }

    /// Whether a structured value holds a word that makes all of it a secret.
    static func holdsSensitiveWord(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard n >= 3 else { return false }
        if n <= 10 {
            for word in valueWholeWords where word.count == n {
                var j = 0
                while j < n, folded(b[j]) == word[j] { j += 1 }
                if j == n { return true }
            }
        }
        guard n >= 4 else { return false }
        for i in 0..<(n - 3) {
            let c = folded(b[i])
            guard c == UInt8(ascii: "p") || c == UInt8(ascii: "s") || c == UInt8(ascii: "a") || c == UInt8(ascii: "c")
                || c == UInt8(ascii: "m") || c == UInt8(ascii: "t") else { continue }
            for word in valueWords where word[0] == c && i + word.count <= n {
                var j = 1
                while j < word.count, folded(b[i + j]) == word[j] { j += 1 }
                if j == word.count { return true }
            }
            if c == UInt8(ascii: "t"), i + 5 <= n {
                var j = 1
                while j < 5, folded(b[i + j]) == tokenWord[j] { j += 1 }
                if j == 5 {
                    // `token` then anything but white space up to `=` or `:`.
                    var k = i + 5
                    while k < n, !isSpace(b[k]) {
                        if b[k] == UInt8(ascii: "=") || b[k] == UInt8(ascii: ":") { return true }
                        k += 1
                    }
                }
            }
        }
        return false
    }

    // MARK: - Values

    /// Where a value sits, as far as the rules go: which members lead into which zone is
    /// `entering(_:)`'s, the same for a parsed tree and for a payload's bytes.
    public enum Zone: Sendable {
        /// Free text: only the secret parts of a value go.
        case plain
        /// Inside `request`: its headers, cookies, body and environment are structured.
        case request
        /// Inside `breadcrumbs`: each one's data is structured.
        case breadcrumbs
        /// Tags, extra, custom keys and the like: a value with a sensitive word goes whole.
        case structured

        /// The zone of a member named `name` of an object in this zone.
        func entering(_ name: UnsafeBufferPointer<UInt8>) -> Zone {
            if Zone.chainNames.contains(where: { name.elementsEqual($0) }) { return .plain }
            switch self {
            case .structured:
                // A `{"key": "api_key", "value": …}`'s key is a name, not a value with words.
                return name.elementsEqual(Zone.keyName) || name.elementsEqual(Zone.nameName) ? .plain : .structured
            case .plain:
                if Zone.structuredNames.contains(where: { name.elementsEqual($0) }) { return .structured }
                if Zone.requestNames.contains(where: { name.elementsEqual($0) }) { return .request }
                return name.elementsEqual(Zone.breadcrumbsName) ? .breadcrumbs : .plain
            case .request:
                return Zone.requestParts.contains(where: { name.elementsEqual($0) }) ? .structured : .plain
            case .breadcrumbs:
                if name.elementsEqual(Zone.valuesName) { return .breadcrumbs }
                return Zone.breadcrumbParts.contains(where: { name.elementsEqual($0) }) ? .structured : .plain
            }
        }

        func entering(_ name: String) -> Zone {
            var name = name
            return name.withUTF8 { entering($0) }
        }

        static let chainNames: [[UInt8]] = SecretScrubber.chainKeys.map { Array($0.utf8) }
        static let structuredNames: [[UInt8]] = ["tags", "extra", "custom_keys", "keys", "vars", "params"].map { Array($0.utf8) }
        static let requestNames: [[UInt8]] = ["request", "sentry.interfaces.Http"].map { Array($0.utf8) }
        static let requestParts: [[UInt8]] = ["headers", "cookies", "data", "env"].map { Array($0.utf8) }
        static let breadcrumbParts: [[UInt8]] = ["data", "params"].map { Array($0.utf8) }
        static let breadcrumbsName = Array("breadcrumbs".utf8)
        static let keyName = Array("key".utf8), nameName = Array("name".utf8)
        static let valuesName = Array("values".utf8)
    }

    /// A value as the store keeps it: `[Filtered]` under a sensitive name, or where it is
    /// structured and holds a sensitive word; else its text with the secret parts filtered.
    public static func scrubValue(_ value: String, name: String?, structured: Bool) -> String {
        if let name, isSensitiveKey(name) { return filtered }
        var v = value
        return v.withUTF8 { b in
            if structured, holdsSensitiveWord(b) { return filtered }
            return scrubText(b).map { String(decoding: $0, as: UTF8.self) } ?? value
        }
    }

    /// The text with the secret parts in it filtered (`password=[Filtered]`); the same text when
    /// it holds none.
    public static func scrubText(_ text: String) -> String {
        changedText(text) ?? text
    }

    /// The text with its secret parts filtered; nil when it holds none.
    static func changedText(_ text: String) -> String? {
        var t = text
        return t.withUTF8 { scrubText($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes with their secret parts filtered; nil when they hold none. Text with percent
    /// escapes is read decoded too: where that shows a secret, the decoded text, filtered, is
    /// what is kept.
    static func scrubText(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let found = TextRules.find(b)
        var out = found.isEmpty ? nil : TextRules.apply(found, to: b)
        guard TextRules.hasPercentEscape(b) else { return out }
        var current = out ?? Array(b)
        for _ in 0..<2 {
            guard let decoded = TextRules.percentDecoded(current) else { break }
            let again = decoded.withUnsafeBufferPointer { d in
                let more = TextRules.find(d)
                return more.isEmpty ? nil : TextRules.apply(more, to: d)
            }
            guard let again else { break }
            out = again
            current = again
        }
        return out
    }

    // MARK: - Events

    /// The event with every stored text scrubbed: tags and custom keys by the three rules, the
    /// message, the chain's names (titles), facets, users, versions and the rest as text.
    /// The event's id and its payload are not touched (the payload is scrubbed when kept).
    public static func scrub(_ event: inout ErrorEvent) {
        func text(_ value: inout String?) {
            if let v = value, let changed = changedText(v) { value = changed }
        }
        text(&event.message)
        for i in event.chain.links.indices {
            if let name = event.chain.links[i].name, let changed = changedText(name) { event.chain.links[i].name = changed }
            if let domain = event.chain.links[i].domain, let changed = changedText(domain) { event.chain.links[i].domain = changed }
        }
        for i in event.customKeys.indices {
            let (key, value) = event.customKeys[i]
            let own = EventFacets.ownKeys.contains(key) || chainKeys.contains(key)
            let clean = own ? scrubText(value) : scrubValue(value, name: key, structured: true)
            let cleanKey = scrubText(key)
            if clean != value || cleanKey != key { event.customKeys[i] = (cleanKey, clean) }
        }
        for i in event.facets.indices {
            if let changed = changedText(event.facets[i].value) { event.facets[i].value = changed }
        }
        text(&event.userID)
        text(&event.sessionID)
        text(&event.environment)
        text(&event.appVersion)
        text(&event.appBuild)
        text(&event.platform)
        text(&event.osName)
        text(&event.osVersion)
        text(&event.deviceModel)
        text(&event.network)
        text(&event.orientation)
        text(&event.appState)
        text(&event.level)
    }

    /// Custom keys that hold a chain (errtriage's own, and the apps' `error_codes_stack` and
    /// `error_codes`): their type and case names are no secret words, only their text is scrubbed.
    public static let chainKeys: Set<String> = ["error_codes_stack", "error_codes"]

    /// The complaint with its words, subject, category and user scrubbed as text.
    public static func scrub(_ complaint: inout Complaint) {
        if let changed = changedText(complaint.text) { complaint.text = changed }
        for field in [\Complaint.subject, \Complaint.category, \Complaint.channel, \Complaint.userID] {
            if let v = complaint[keyPath: field], let changed = changedText(v) { complaint[keyPath: field] = changed }
        }
    }

    // MARK: - Trees

    /// A parsed event (or any JSON value) with its secrets filtered by the three rules, members
    /// and order kept.
    public static func scrub(_ value: JSONValue) -> JSONValue {
        scrubbed(value, zone: .plain, depth: 0) ?? value
    }

    /// The value scrubbed; nil when no rule changes it (nothing is copied then).
    private static func scrubbed(_ value: JSONValue, zone: Zone, depth: Int) -> JSONValue? {
        switch value {
        case .string(let s):
            var v = s
            let changed: String? = v.withUTF8 { b in
                if zone == .structured, holdsSensitiveWord(b) { return b.elementsEqual(filteredBytes) ? nil : filtered }
                return scrubText(b).map { String(decoding: $0, as: UTF8.self) }
            }
            return changed.map(JSONValue.string)
        case .number(let n):
            guard zone == .structured, n.utf8.count >= 13, changedText(n) != nil else { return nil }
            return .string(filtered)
        case .null, .bool: return nil
        case .array(let elements):
            // `[name, value]` pairs (headers, tags, a query as pairs): the value goes by the name.
            if elements.count == 2, case .string(let name) = elements[0], isSensitiveKey(name) {
                return elements[1] == .string(filtered) ? nil : .array([elements[0], .string(filtered)])
            }
            var out: [JSONValue]?
            for i in elements.indices {
                guard let changed = scrubbed(elements[i], zone: zone, depth: depth + 1) else { continue }
                if out == nil { out = elements }
                out![i] = changed
            }
            return out.map(JSONValue.array)
        case .object(let members):
            // `{"key": "api_key", "value": …}` (Crashlytics' custom keys and breadcrumb params).
            let pairName = members.first { $0.0 == "key" || $0.0 == "name" }.flatMap { $0.1.text }
            let pairSensitive = pairName.map(isSensitiveKey) ?? false
            let pairChain = pairName.map(chainKeys.contains) ?? false
            var out: [(String, JSONValue)]?
            for i in members.indices {
                let (name, member) = members[i]
                let changed: JSONValue?
                if (isSensitiveKey(name) && !(depth == 0 && appSessionNames.contains(Array(name.utf8))))
                    || (pairSensitive && name == "value") {
                    changed = member == .string(filtered) ? nil : .string(filtered)
                } else {
                    changed = scrubbed(member, zone: pairChain && name == "value" ? .plain : zone.entering(name), depth: depth + 1)
                }
                guard let changed else { continue }
                if out == nil { out = members }
                out![i].1 = changed
            }
            return out.map(JSONValue.object)
        }
    }

    // MARK: - Bytes

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isAlnum(_ c: UInt8) -> Bool {
        isDigit(c) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c >= 0x80
    }

    static func hexPair(_ a: UInt8, _ b: UInt8) -> UInt8? {
        guard let x = hexDigit(a), let y = hexDigit(b) else { return nil }
        return x << 4 | y
    }

    @inline(__always) static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }
}

/// The text rules: where in a text its secret parts are.
enum TextRules {
    typealias S = SecretScrubber

    /// The ranges of the secret parts, in order, not overlapping.
    static func find(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        let n = b.count
        var i = 0
        while i < n {
            let c = b[i]
            switch c {
            case UInt8(ascii: "="), UInt8(ascii: ":"):
                if let r = pairValue(b, separator: i) {
                    found.append(r)
                    i = r.upperBound
                    continue
                }
            case UInt8(ascii: "@"):
                if let r = userinfo(b, at: i), r.lowerBound >= (found.last?.upperBound ?? 0) { found.append(r) }
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                if let r = bearer(b, at: i) {
                    found.append(r)
                    i = r.upperBound
                    continue
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if i == 0 || !S.isAlnum(b[i - 1]) {
                    let (match, next) = number(b, at: i)
                    if let match { found.append(match) }
                    i = next
                    continue
                }
            case UInt8(ascii: "-"):
                if let r = pemBody(b, at: i) {
                    found.append(r)
                    i = r.upperBound
                    continue
                }
            default: break
            }
            i += 1
        }
        return found
    }

    /// The text with each range replaced by `[Filtered]`.
    static func apply(_ ranges: [Range<Int>], to b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + ranges.count * 10)
        var at = 0
        for r in ranges {
            out += b[at..<r.lowerBound]
            out += S.filteredBytes
            at = r.upperBound
        }
        out += b[at..<b.count]
        return out
    }

    static func isFiltered(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        // The marker itself, or the part of it before a `]` that ends a value: a second scrub
        // must leave a first one's `[Filtered]` as it is.
        let end = r.lowerBound + S.filteredBytes.count
        return r.count <= S.filteredBytes.count && end <= b.count && b[r.lowerBound..<end].elementsEqual(S.filteredBytes)
    }

    /// Bytes a name in a text is made of (`X-Api-Key`, `p%61ssword`, `user.token`).
    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        S.isAlnum(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "%") || c == UInt8(ascii: "+")
    }

    /// Where an unquoted value in a text ends.
    @inline(__always) static func endsValue(_ c: UInt8) -> Bool {
        switch c {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\""),
             UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"),
             UInt8(ascii: "#"), UInt8(ascii: "\\"): true
        default: false
        }
    }

    static let authSchemes: [[UInt8]] = ["bearer", "basic", "token", "digest", "negotiate", "ntlm", "apikey"].map { Array($0.utf8) }

    /// The value after `=` or `:` at `separator` where the name before it is sensitive:
    /// `password=x`, `token: x`, `"api_key": "x"`, `'secret': {…}`, `\"pwd\":\"x\"`.
    static func pairValue(_ b: UnsafeBufferPointer<UInt8>, separator: Int) -> Range<Int>? {
        let n = b.count
        var k = separator
        while k > 0, b[k - 1] == 0x20 || b[k - 1] == 0x09 { k -= 1 }
        while k > 0, b[k - 1] == UInt8(ascii: "\"") || b[k - 1] == UInt8(ascii: "'") || b[k - 1] == UInt8(ascii: "\\") { k -= 1 }
        let nameEnd = k
        let quoted = nameEnd < separator && b[nameEnd] != 0x20 && b[nameEnd] != 0x09
        while k > 0, isNameByte(b[k - 1]) { k -= 1 }
        // `name: value` with the name bare reads like an error's type and its message unless the
        // name ends with a sensitive part; a quoted name (JSON, a dictionary) or `name=` is a name.
        let ending = b[separator] == UInt8(ascii: ":") && !quoted
        guard nameEnd > k, S.isSensitiveKey(UnsafeBufferPointer(rebasing: b[k..<nameEnd]), ending: ending) else { return nil }
        // `auth://…` is a URL's scheme, not a name and its value.
        if b[separator] == UInt8(ascii: ":"), separator + 1 < n, b[separator + 1] == UInt8(ascii: "/") { return nil }
        var v = separator + 1
        while v < n, b[v] == 0x20 || b[v] == 0x09 { v += 1 }
        guard v < n else { return nil }
        var quote: UInt8?
        var escapedQuote = false
        if b[v] == UInt8(ascii: "\\"), v + 1 < n, b[v + 1] == UInt8(ascii: "\"") || b[v + 1] == UInt8(ascii: "'") {
            quote = b[v + 1]
            escapedQuote = true
            v += 2
        } else if b[v] == UInt8(ascii: "\"") || b[v] == UInt8(ascii: "'") {
            quote = b[v]
            v += 1
        }
        let start = v
        var end = v
        if let quote {
            while end < n {
                if escapedQuote {
                    if b[end] == UInt8(ascii: "\\"), end + 1 < n, b[end + 1] == quote { break }
                } else {
                    if b[end] == UInt8(ascii: "\\") { end += 2; continue }
                    if b[end] == quote { break }
                }
                end += 1
            }
            end = min(end, n)
        } else if b[v] == UInt8(ascii: "{") || b[v] == UInt8(ascii: "[") {
            end = closing(b, from: v)
        } else {
            while end < n, !endsValue(b[end]) { end += 1 }
            // An authorization's scheme and its credentials: `Basic dXNl…`, `Bearer abc`.
            if end < n, b[end] == 0x20, isAuthScheme(UnsafeBufferPointer(rebasing: b[start..<end])) {
                var next = end
                while next < n, b[next] == 0x20 { next += 1 }
                var last = next
                while last < n, !endsValue(b[last]) { last += 1 }
                if last > next { end = last }
            }
        }
        guard end > start, !isFiltered(b, start..<end) else { return nil }
        return start..<end
    }

    static func isAuthScheme(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        authSchemes.contains { scheme in
            scheme.count == word.count && zip(scheme, word).allSatisfy { $0 == ($1 | 0x20) }
        }
    }

    /// Where the JSON-ish value opening at `start` (`{` or `[`) closes, past its closing bracket;
    /// quoted strings are passed over. The text's end where it does not close.
    static func closing(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var depth = 0
        var i = start
        var quote: UInt8?
        while i < b.count {
            let c = b[i]
            if let q = quote {
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return i + 1 }
            }
            i += 1
        }
        return b.count
    }

    /// The password of a URL's `//user:password@` at its `@` (all of `user` where it has none).
    static func userinfo(_ b: UnsafeBufferPointer<UInt8>, at at: Int) -> Range<Int>? {
        var k = at
        while k > 0 {
            let c = b[k - 1]
            if c == UInt8(ascii: "/") || c == UInt8(ascii: "@") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#")
                || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || S.isSpace(c) { break }
            k -= 1
        }
        guard k >= 2, k < at, b[k - 1] == UInt8(ascii: "/"), b[k - 2] == UInt8(ascii: "/") else { return nil }
        var r = k..<at
        if let colon = b[k..<at].firstIndex(of: UInt8(ascii: ":")) { r = (colon + 1)..<at }
        guard !r.isEmpty, !isFiltered(b, r) else { return nil }
        return r
    }

    static let bearerWord = Array("bearer".utf8)

    /// The token after `Bearer ` (any case) at `at`.
    static func bearer(_ b: UnsafeBufferPointer<UInt8>, at: Int) -> Range<Int>? {
        let n = b.count
        guard at + 7 < n, at == 0 || !S.isAlnum(b[at - 1]) else { return nil }
        for j in 1..<6 where b[at + j] | 0x20 != bearerWord[j] { return nil }
        var start = at + 6
        guard b[start] == 0x20 || b[start] == 0x09 else { return nil }
        while start < n, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
        var end = start
        while end < n, !endsValue(b[end]) { end += 1 }
        guard end > start, !isFiltered(b, start..<end) else { return nil }
        return start..<end
    }

    /// A card number (13–19 digits in groups joined by one space or `-`, its first digit 2–6,
    /// passing the Luhn check) or a US social security number (`123-45-6789`) starting at `at`,
    /// and where the run of digits ends.
    static func number(_ b: UnsafeBufferPointer<UInt8>, at: Int) -> (Range<Int>?, Int) {
        let n = b.count
        var digits: [UInt8] = []
        var groups: [(end: Int, digits: Int)] = []
        var j = at
        var dashesOnly = true
        while true {
            while j < n, S.isDigit(b[j]) {
                if digits.count < 20 { digits.append(b[j] - 0x30) }
                j += 1
            }
            groups.append((j, digits.count))
            guard digits.count < 20, j + 1 < n, b[j] == 0x20 || b[j] == UInt8(ascii: "-"), S.isDigit(b[j + 1]) else { break }
            if b[j] != UInt8(ascii: "-") { dashesOnly = false }
            j += 1
        }
        let runEnd = j
        let endsClean = runEnd == n || !S.isAlnum(b[runEnd])
        if groups.count == 3, dashesOnly, endsClean, groups[0].digits == 3, groups[1].digits == 5, groups[2].digits == 9 {
            return (at..<runEnd, runEnd)
        }
        guard digits.count >= 13, (2...6).contains(digits[0]) else { return (nil, runEnd) }
        // The longest run of whole groups that is a card: the groups after it are something else.
        // A dashed token that goes on (a UUID's `51820005-1921-4422-a…`) is no card.
        if runEnd + 1 < n, b[runEnd] == UInt8(ascii: "-"), S.isAlnum(b[runEnd + 1]) { return (nil, runEnd) }
        for (k, group) in groups.enumerated().reversed() where (13...19).contains(group.digits) {
            if group.end == runEnd && !endsClean { continue }
            guard isCardGrouping(groups[0...k].map(\.digits)) else { continue }
            if luhn(digits[0..<group.digits]) { return (at..<group.end, runEnd) }
        }
        return (nil, runEnd)
    }

    /// Whether groups of digits (their running counts) are written as cards are: one run, fours
    /// (the last may be shorter), or 4-6-4 and 4-6-5 (Diners, American Express).
    static func isCardGrouping(_ running: [Int]) -> Bool {
        guard running.count > 1 else { return true }
        let sizes = zip(running, [0] + running).map { $0 - $1 }
        if sizes.dropLast().allSatisfy({ $0 == 4 }) && (1...4).contains(sizes.last!) { return true }
        return sizes.count == 3 && sizes[0] == 4 && sizes[1] == 6 && (4...5).contains(sizes[2])
    }

    static func luhn(_ digits: ArraySlice<UInt8>) -> Bool {
        var sum = 0
        for (k, d) in digits.reversed().enumerated() {
            var v = Int(d)
            if k % 2 == 1 {
                v *= 2
                if v > 9 { v -= 9 }
            }
            sum += v
        }
        return sum % 10 == 0
    }

    static let pemBegin = Array("-----BEGIN ".utf8), pemEnd = Array("-----END".utf8), privateKey = Array("PRIVATE KEY-----".utf8)

    /// The body of a PEM private key whose `-----BEGIN … PRIVATE KEY-----` starts at `at`.
    static func pemBody(_ b: UnsafeBufferPointer<UInt8>, at: Int) -> Range<Int>? {
        let n = b.count
        guard at + pemBegin.count < n, b[at..<(at + pemBegin.count)].elementsEqual(pemBegin) else { return nil }
        // The header's end: `PRIVATE KEY-----` within the line's next 64 bytes (a header is short:
        // looking further for each `-----BEGIN ` would make a line of them quadratic).
        var k = at + pemBegin.count
        var headerEnd: Int?
        while k + privateKey.count <= min(n, at + pemBegin.count + 64), b[k] != 0x0A {
            if b[k..<(k + privateKey.count)].elementsEqual(privateKey) { headerEnd = k + privateKey.count; break }
            k += 1
        }
        guard let start = headerEnd else { return nil }
        var end = start
        while end + pemEnd.count <= n, !b[end..<(end + pemEnd.count)].elementsEqual(pemEnd) { end += 1 }
        if end + pemEnd.count > n { end = n }
        guard end > start, !isFiltered(b, start..<end) else { return nil }
        return start..<end
    }

    static func hasPercentEscape(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 3 else { return false }
        for i in 0..<(b.count - 2) where b[i] == UInt8(ascii: "%") && S.hexPair(b[i + 1], b[i + 2]) != nil { return true }
        return false
    }

    /// The text with its `%XX` escapes resolved; nil when it has none.
    static func percentDecoded(_ b: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        var any = false
        while i < b.count {
            if b[i] == UInt8(ascii: "%"), i + 2 < b.count, let v = S.hexPair(b[i + 1], b[i + 2]) {
                out.append(v)
                i += 3
                any = true
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return any ? out : nil
    }
}
