import TriageModel

/// Projects and their keys as text and JSON: `key add`, `key list`, `key revoke`.
public enum ProjectKeyText {
    /// What `key add` prints: the project, the key, the store it went into (a server reads the
    /// keys of its own store only) and the DSN to paste into an SDK's `init`.
    public static func added(_ key: ProjectKey, store: String) -> String {
        """
        project \(key.projectName) (id \(key.projectID)): new key \(key.publicKey), added to \(TextSanitizer.sanitize(store))
        DSN: \(key.dsn(over: nil))

        """
    }

    /// Every project with its keys: a heading per project, a line per key (active or revoked,
    /// when made, the DSN); a sentence when there are none.
    /// Each DSN is on `base` when given, else on the URL its key was added with.
    public static func list(_ projects: [ProjectKeys], base: DSNBase?) -> String {
        guard !projects.isEmpty else { return "no projects (errtriage key add NAME makes one with its first key)\n" }
        var text = ""
        for p in projects {
            text += "\(p.project.name) (id \(p.project.id), since \(p.project.created.iso8601))\n"
            if p.keys.isEmpty { text += "  no keys\n" }
            for k in p.keys {
                let state = k.revokedAt.map { "revoked \($0.iso8601)" } ?? "active"
                text += "  \(k.publicKey)  \(Format.left(state, 28, unicode: false))  created \(k.created.iso8601)  \(k.dsn(over: base))\n"
            }
        }
        return text
    }

    /// `key list --format json`: `{"projects": [{"id", "name", "created", "keys": [{"key", "status",
    /// "created", "revoked", "dsn"}]}]}`, revoked null while the key is active.
    public static func json(_ projects: [ProjectKeys], base: DSNBase?) -> JSONValue {
        .object([("projects", .array(projects.map { p in
            .object([
                ("id", ReportJSON.int(p.project.id)), ("name", .string(p.project.name)),
                ("created", .string(p.project.created.iso8601)),
                ("keys", .array(p.keys.map { k in
                    .object([
                        ("key", .string(k.publicKey)), ("status", .string(k.revoked ? "revoked" : "active")),
                        ("created", .string(k.created.iso8601)),
                        ("revoked", k.revokedAt.map { .string($0.iso8601) } ?? .null),
                        ("dsn", .string(k.dsn(over: base))),
                    ])
                })),
            ])
        }))])
    }

    /// What `key revoke` prints: a line per key it revoked, or why it revoked none.
    public static func revoked(_ keys: [ProjectKey], asked: String) -> String {
        guard !keys.isEmpty else {
            return "nothing revoked: \(TextSanitizer.sanitize(asked)) has no active key (revoked already)\n"
        }
        return keys.map { "revoked \($0.publicKey) of project \($0.projectName) (id \($0.projectID))\n" }.joined()
    }
}
