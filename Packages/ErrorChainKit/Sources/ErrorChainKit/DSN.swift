import Foundation

/// A DSN as `errtriage key add` prints it, `http://KEY@HOST:PORT/PROJECT_ID`: where native NDJSON
/// goes (`…/api/PROJECT_ID/events`) and with which key.
public struct DSN: Hashable, Sendable, CustomStringConvertible {
    /// The key, sent as `X-Sentry-Auth: Sentry sentry_key=KEY`.
    public let key: String
    /// The project's id, the last part of the path.
    public let projectID: String
    /// `serve`'s endpoint for native NDJSON.
    public let eventsURL: URL

    /// Reads a DSN; nil when it is not `SCHEME://KEY@HOST[:PORT][/PATH]/PROJECT_ID` with http or https.
    public init?(_ text: String) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let key = components.user, !key.isEmpty, let host = components.host, !host.isEmpty else { return nil }
        var parts = components.path.split(separator: "/").map(String.init)
        guard let project = parts.popLast(), !project.isEmpty, project.allSatisfy(\.isNumber) else { return nil }
        var endpoint = URLComponents()
        endpoint.scheme = scheme
        endpoint.host = host
        endpoint.port = components.port
        endpoint.path = "/" + (parts + ["api", project, "events"]).joined(separator: "/")
        guard let url = endpoint.url else { return nil }
        self.key = key
        self.projectID = project
        self.eventsURL = url
    }

    /// The header that names the key.
    public var authHeader: String { "Sentry sentry_version=7, sentry_client=ErrorChainKit/1.0, sentry_key=\(key)" }

    /// The endpoint, without the key.
    public var description: String { eventsURL.absoluteString }
}
