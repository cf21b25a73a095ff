import ArgumentParser
import Foundation
import Presentation
import TriageModel
import TriageServer
import TriageStore

extension RateLimit: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// `errtriage serve`: apps send their errors here (Sentry SDKs, the ELK reporter, native NDJSON).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Take errors over HTTP from Sentry SDKs, the ELK-style reporter and native NDJSON, into the store.",
        discussion: """
            Point a Sentry SDK's DSN at it (errtriage key add NAME prints one). Endpoints: POST /api/ID/envelope/ and \
            /api/ID/store/ (Sentry), /api/ID/elk (ELK-style JSON, key as ?token=KEY), /api/ID/events (native NDJSON); \
            GET /healthz and /metrics (Prometheus). A request is answered 200 only once what it carried is committed. \
            Logs a line a minute and one per fault on standard error. Applies the store's retention (--retention, or \
            errtriage retention set) once a day, and answers 503 while the disk is below --min-free. Keeps a sample of \
            events whole, as the store's setting says (--keep-whole; errtriage event ID shows one). SIGTERM or SIGINT: stops accepting, commits \
            what was accepted, exits 0. Exit 3 when the store cannot be opened or the address cannot be bound.
            """)

    @OptionGroup var options: StoreOnlyOptions

    @Option(help: "Where to listen, HOST:PORT (port 0 picks a free one, printed).")
    var listen = "127.0.0.1:8000"

    @Option(name: .customLong("rate-limit"), help: "Events a key may send, as N/s or N/min, or off; a quiet key may send 10 seconds' worth at once (its burst).")
    var rateLimit = RateLimit(perSecond: 1_000)

    @Option(name: .customLong("max-connections"), help: "Open connections at most; past it, a new connection takes the place of the oldest idle one (keyless first), else it is closed.")
    var maxConnections = 1_024

    @Option(name: .customLong("max-connections-per-address"), help: "Open connections from one client address at most, as --max-connections (behind a proxy, every connection is the proxy's).")
    var maxConnectionsPerAddress = 256

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may stay idle before it is closed.")
    var idleTimeout = 30

    @Option(name: .customLong("body-timeout"), help: "Seconds a request's body may take to arrive (408 after).")
    var bodyTimeout = 30

    @Option(name: .customLong("on-alert"), help: "A shell command run when alerts fire, with their JSON on standard input.")
    var onAlert: String?

    @Option(help: "A chat tool's incoming-webhook URL, POSTed {\"text\": …} when alerts fire.")
    var webhook: String?

    @OptionGroup(title: "What the store keeps") var intake: IntakeOptions

    @Option(name: .customLong("log-every"), help: "Seconds between the log's summary lines.")
    var logEvery: Double = 60

    @Option(name: .customLong("max-records-per-request"), help: "Events, complaints and sessions one request may carry; a body with more is answered 413.")
    var maxRecordsPerRequest = 1_000

    @Option(name: .customLong("max-in-flight"), help: "Memory requests may hold at once — bodies as sent and inflated, and the records decoded from them until committed (e.g. 128MiB); past it, requests are answered 503 with Retry-After, or 413 when one alone needs more.")
    var maxInFlight = "128MiB"

    func run() async throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]), (0...65535).contains(port) else {
            throw CLIError.usage("--listen '\(listen)' is not HOST:PORT (e.g. 127.0.0.1:8000)")
        }
        var host = String(listen[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard logEvery > 0, maxConnections > 0, maxConnectionsPerAddress > 0, idleTimeout > 0, bodyTimeout > 0, maxRecordsPerRequest > 0 else {
            throw CLIError.usage("--log-every, --max-connections, --max-connections-per-address, --idle-timeout, --body-timeout and --max-records-per-request must be above 0")
        }
        guard let inFlight = ByteCount.parse(maxInFlight), inFlight >= 1 << 20 else {
            throw CLIError.usage("--max-in-flight '\(maxInFlight)' is not a size of at least 1MiB (e.g. 128MiB, 1GiB)")
        }
        var webhookURL: URL?
        if let webhook {
            guard let url = URL(string: webhook), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw CLIError.usage("--webhook '\(webhook)' is not an http or https URL")
            }
            webhookURL = url
        }
        var configuration = ServeConfiguration()
        configuration.host = host.isEmpty ? "0.0.0.0" : host
        configuration.port = port
        configuration.rateLimit = rateLimit
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.idleTimeoutSeconds = idleTimeout
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.maxRecordsPerRequest = maxRecordsPerRequest
        configuration.maxInFlightBytes = Int(clamping: inFlight)
        configuration.minFreeBytes = try intake.floor()
        let location = options.storePath
        if intake.setsTheStore { try intake.apply(to: try options.open(for: .writing)) }
        let serve = Serve(location: location, configuration: configuration,
                          alerts: .init(command: onAlert, webhook: webhookURL), logIntervalSeconds: logEvery,
                          log: { ServeLog.line($0) })
        do {
            try await serve.run { host, port in
                ServeLog.line("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port) (store \(TextSanitizer.sanitize(location)))")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw CLIError.store("cannot serve on \(listen): \(error)")
        }
    }
}
/// The server's log: one line each, with the time, on standard error.
enum ServeLog {
    static func line(_ text: String) {
        Stderr.write("\(Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)).iso8601) serve: \(text)\n")
    }
}
