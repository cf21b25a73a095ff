import TriageModel

/// A project's code settings as `project set` and `project list` print them.
public enum ProjectText {
    /// `shop  repo /home/ana/src/shop  path map /srv/app/=src/  release ref v{version}`.
    public static func line(name: String, _ code: CodeSettings) -> String {
        var parts = [TextSanitizer.sanitize(name), "repo " + TextSanitizer.sanitize(code.repo ?? "-")]
        if !code.pathMaps.isEmpty { parts.append("path map " + TextSanitizer.sanitize(code.pathMaps.map(\.description).joined(separator: " "))) }
        if let ref = code.releaseRef { parts.append("release ref " + TextSanitizer.sanitize(ref)) }
        return parts.joined(separator: "  ")
    }

    public static func json(name: String, _ code: CodeSettings) -> JSONValue {
        .object([("name", .string(name)), ("repo", code.repo.map(JSONValue.string) ?? .null),
                 ("path_maps", .array(code.pathMaps.map { .string($0.description) })),
                 ("release_ref", code.releaseRef.map(JSONValue.string) ?? .null)])
    }
}
