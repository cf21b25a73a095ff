/// An app version as crash reporters write it, ordered the way releases ship.
///
/// Reads `1.10.1`, `1.7 (2)`, `1.7(2)`, `ru.example.tasks@1.9.0+412` (store prefix dropped, `+412`
/// is the build) and `v2.0`. Numeric components compare as numbers (`1.9` < `1.10` < `1.10.1`),
/// missing components count as zero (`1.10` == `1.10.0`), and the build number breaks ties;
/// a version without a build sorts before the same version with one.
public struct AppVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The numeric components of the display version.
    public var components: [Int]
    /// Text after the numbers (`-beta2`), compared as text when the numbers tie.
    public var suffix: String
    /// The build number, if the text carried one.
    public var build: Int?

    public init(components: [Int], suffix: String = "", build: Int? = nil) {
        self.components = components
        self.suffix = suffix
        self.build = build
    }

    /// Reads a version; nil when it holds no number at all.
    public init?(_ raw: String, build explicitBuild: String? = nil) {
        var text = Substring(raw.trimmingASCIIWhitespace())
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        var build: Int? = explicitBuild.flatMap { Int($0.trimmingASCIIWhitespace()) }
        if let plus = text.firstIndex(of: "+") {
            if build == nil { build = Int(text[text.index(after: plus)...]) }
            text = text[..<plus]
        }
        if let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close {
            if build == nil { build = Int(text[text.index(after: open)..<close].trimmingCharacters()) }
            text = text[..<open]
        }
        text = Substring(String(text).trimmingASCIIWhitespace())
        if text.first == "v" || text.first == "V" { text = text.dropFirst() }
        var components: [Int] = []
        var rest = text[...]
        while let first = rest.first, first.isASCII, first.isNumber {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard digits.count <= 9, let value = Int(digits) else { return nil }
            components.append(value)
            rest = rest.dropFirst(digits.count)
            if rest.first == ".", let next = rest.dropFirst().first, next.isASCII, next.isNumber {
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        guard !components.isEmpty else { return nil }
        self.components = components
        self.suffix = String(rest)
        self.build = build
    }

    public static func < (a: AppVersion, b: AppVersion) -> Bool {
        let n = max(a.components.count, b.components.count)
        for i in 0..<n {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y }
        }
        // A pre-release suffix (`1.2-beta`) sorts before the plain release.
        if a.suffix != b.suffix {
            if a.suffix.isEmpty { return false }
            if b.suffix.isEmpty { return true }
            return a.suffix < b.suffix
        }
        switch (a.build, b.build) {
        case let (x?, y?): return x < y
        case (nil, _?): return true
        default: return false
        }
    }

    public static func == (a: AppVersion, b: AppVersion) -> Bool { !(a < b) && !(b < a) }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.count > 1, trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
        hasher.combine(suffix)
        hasher.combine(build)
    }

    /// The display version without the build, e.g. `1.10.1`.
    public var display: String { components.map(String.init).joined(separator: ".") + suffix }

    public var description: String { build.map { "\(display) (\($0))" } ?? display }

    /// The version that would ship next: the last component raised by one (`1.12` → `1.13`).
    public var next: AppVersion {
        var c = components
        guard !c.isEmpty else { return AppVersion(components: [1]) }
        c[c.count - 1] += 1
        return AppVersion(components: c)
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingASCIIWhitespace() }
}
