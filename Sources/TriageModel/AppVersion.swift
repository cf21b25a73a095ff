/// An app version as crash reporters write it, ordered the way releases ship.
///
/// Reads `1.10.1`, `1.7 (2)`, `1.7(2)`, `shop@2.1.0+412` (`shop` is the package, `+412` the
/// build) and `v2.0`. Versions of one package compare by their numbers (`1.9` < `1.10` <
/// `1.10.1`), missing components count as zero (`1.10` == `1.10.0`), and the build number breaks
/// ties; a version without a build sorts before the same version with one. Versions of different
/// packages (`shop@2.1.0`, `payments-api@2.3.1`: two services sending to one store) are apart:
/// they sort by package first, and neither is the other's previous or next release.
public struct AppVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The numeric components of the display version.
    public var components: [Int]
    /// Text after the numbers (`-beta2`), compared as text when the numbers tie.
    public var suffix: String
    /// The build number, if the text carried one.
    public var build: Int?
    /// The package before `@` (a Sentry release's `shop@2.1.0`), if the text named one.
    public var package: String?

    public init(components: [Int], suffix: String = "", build: Int? = nil, package: String? = nil) {
        self.components = components
        self.suffix = suffix
        self.build = build
        self.package = package
    }

    /// Whether the two name different packages (a version without one belongs to any).
    public func isOtherPackage(than other: AppVersion) -> Bool {
        if let package, let otherPackage = other.package { return package != otherPackage }
        return false
    }

    /// Reads a version; nil when it holds no number at all.
    public init?(_ raw: String, build explicitBuild: String? = nil) {
        var text = Substring(raw.trimmingASCIIWhitespace())
        var package: String?
        if let at = text.lastIndex(of: "@") {
            let name = text[..<at].trimmingCharacters()
            package = name.isEmpty ? nil : name
            text = text[text.index(after: at)...]
        }
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
        self.package = package
    }

    public static func < (a: AppVersion, b: AppVersion) -> Bool {
        if a.package != b.package { return (a.package ?? "") < (b.package ?? "") }
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
        hasher.combine(package)
    }

    /// The display version without the build, e.g. `1.10.1`, or `shop@2.1.0` with its package.
    public var display: String { (package.map { $0 + "@" } ?? "") + components.map(String.init).joined(separator: ".") + suffix }

    public var description: String { build.map { "\(display) (\($0))" } ?? display }

    /// The version that would ship next: the last component raised by one (`1.12` → `1.13`).
    public var next: AppVersion {
        var c = components
        guard !c.isEmpty else { return AppVersion(components: [1], package: package) }
        c[c.count - 1] += 1
        return AppVersion(components: c, package: package)
    }
}

extension Substring {
    func trimmingCharacters() -> String { String(self).trimmingASCIIWhitespace() }
}
