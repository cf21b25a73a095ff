/// What `mark resolved --in-version` and the dashboard's Resolve prompt take: a version written
/// as releases are (`1.14`, `v2.0`, `2.3.2-beta.1`, `1.7+412`, `1.7 (412)`, `shop@2.1.0`), or
/// one the store has seen, exactly as seen. Free text (`soon`, `2.3.2 maybe`, `2.3.2next week`)
/// is refused, the same way in both places.
public enum FixVersion {
    /// The sentence a refusal gives.
    public static let expected = "a version like 1.14, 2.3.2-beta.1 or 1.7 (412), or one the store has seen"

    /// Whether `text` is a version: well formed, or one of the store's own (`seen`).
    public static func accepts(_ text: String, seen: (String) -> Bool = { _ in false }) -> Bool {
        seen(text) || isWellFormed(text)
    }

    /// `[package@][v]N(.N)*[-PRE][+BUILD | ' (N)']`: numbers joined by dots; a pre-release after
    /// `-` and a build after `+` of letters, digits, dots and dashes; a package before `@` of
    /// letters, digits, `.`, `_` and `-`.
    public static func isWellFormed(_ text: String) -> Bool {
        var rest = Substring(text)
        if let at = rest.firstIndex(of: "@") {
            let package = rest[..<at]
            guard !package.isEmpty, package.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else { return false }
            rest = rest[rest.index(after: at)...]
        }
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        // The numbers.
        var numbers = 0
        while true {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9 else { return false }
            numbers += 1
            rest = rest.dropFirst(digits.count)
            guard rest.first == ".", rest.dropFirst().first?.isNumber == true else { break }
            rest = rest.dropFirst()
        }
        guard numbers >= 1 else { return false }
        let word = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") }
        if rest.first == "-" {
            let pre = rest.dropFirst().prefix(while: word)
            guard !pre.isEmpty, pre.first != ".", pre.last != "." else { return false }
            rest = rest.dropFirst(1 + pre.count)
        }
        if rest.first == "+" {
            let build = rest.dropFirst().prefix(while: word)
            guard !build.isEmpty else { return false }
            rest = rest.dropFirst(1 + build.count)
        } else if rest.hasPrefix(" (") {
            let inside = rest.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
            guard !inside.isEmpty, rest.dropFirst(2 + inside.count).first == ")" else { return false }
            rest = rest.dropFirst(3 + inside.count)
        }
        return rest.isEmpty
    }
}
