/// The names a release's commit may have: with `--release-ref PATTERN`, the pattern with
/// `{release}` (as sent: `shop@2.1.0`), `{version}` (after its last `@`: `2.1.0`) and `{package}`
/// (before it) filled in; else a tag `v2.1.0`, `2.1.0` or `shop@2.1.0`, in that order.
public enum ReleaseRef {
    public static func candidates(release: String, pattern: String?) -> [String] {
        let version: Substring, package: Substring
        if let at = release.lastIndex(of: "@") {
            version = release[release.index(after: at)...]
            package = release[..<at]
        } else {
            version = Substring(release)
            package = ""
        }
        var names: [String]
        if let pattern, !pattern.isEmpty {
            names = [pattern.replacing("{release}", with: release).replacing("{version}", with: version).replacing("{package}", with: package)]
        } else {
            names = ["v" + version, String(version), release]
        }
        var seen = Set<String>()
        // A name git would read as an option or a range is no ref.
        return names.filter { !$0.isEmpty && !$0.hasPrefix("-") && !$0.contains("..") && !$0.contains(" ") && seen.insert($0).inserted }
    }
}
