import ChildProcess
import Foundation
import Testing

/// The small services under Tests/SDK that report their failures through each language's official
/// Sentry SDK: Python's `sentry-sdk` (pinned in Tests/SDK/requirements.txt, in .venv), Go's
/// `sentry-go` and Ruby's `sentry-ruby` as Debian packages them (`make setup` installs them).
/// Each runs two ways: keeping what its SDK serialises in files (a capturing transport) that
/// `errtriage ingest` reads, or sending it to `errtriage serve` over HTTP; each writes a manifest
/// naming every event's distinct failure.
enum SDKService: String, CaseIterable, CustomStringConvertible, Sendable {
    case python, go, ruby

    var description: String { rawValue }

    /// One event the service sent: its id, its distinct failure, whether its chain states codes.
    struct Sent: Hashable {
        var eventID: String
        var group: String
        var coded: Bool
    }

    static let sdk = CLI.packageRoot.appendingPathComponent("Tests/SDK").path

    /// The command that runs the service, and the folder it runs in (the service's own root).
    func command() throws -> (arguments: [String], directory: String) {
        switch self {
        case .python:
            try #require(FileManager.default.isExecutableFile(atPath: PythonSDKTests.python),
                         "the SDK's virtual environment is missing: run `make setup`")
            return ([PythonSDKTests.python, "python_shop.py"], Self.sdk)
        case .go:
            return ([try Self.goBinary.get()], Self.sdk + "/go")
        case .ruby:
            let check = try ChildProcess.run(["ruby", "-e", "require 'sentry-ruby'"])
            try #require(check.status == 0, "Ruby with sentry-ruby is missing: run `make setup` (ruby, ruby-sentry-ruby): \(check.stderr)")
            return (["ruby", "bin/shop"], Self.sdk + "/ruby")
        }
    }

    /// The argument that makes the service fail in the opposite order.
    var reverse: [String] {
        switch self {
        case .python: ["--reverse"]
        case .go: ["-reverse"]
        case .ruby: ["--reverse", "yes"]
        }
    }

    /// Runs the service keeping its events in `folder`: the file its SDK wrote, and what it sent.
    /// `options` go to the service (the Python one's `--no-source`); `reversed`: failing in the
    /// opposite order (each failure's events too).
    func capture(into folder: String, options: [String] = [], reversed: Bool = false) throws -> (file: String, sent: [Sent]) {
        let (arguments, directory) = try command()
        let run = try ChildProcess.run(arguments + ["--out", folder] + options + (reversed ? reverse : []), directory: directory)
        try #require(run.status == 0, "\(self) service: \(run.stdout)\(run.stderr)")
        let file = folder + (self == .go ? "/events.ndjson" : "/events.envelope")
        return (file, try Self.manifest(folder + "/manifest.json"))
    }

    /// Runs the service against `errtriage serve` at `dsn`; what it sent.
    func send(to dsn: String, manifest: String) throws -> [Sent] {
        let (arguments, directory) = try command()
        let run = try ChildProcess.run(arguments + ["--dsn", dsn, "--manifest", manifest], directory: directory)
        try #require(run.status == 0, "\(self) service: \(run.stdout)\(run.stderr)")
        return try Self.manifest(manifest)
    }

    static func manifest(_ path: String) throws -> [Sent] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (json["events"] as? [[String: Any]] ?? []).map {
            Sent(eventID: $0["event_id"] as? String ?? "", group: $0["group"] as? String ?? "", coded: $0["coded"] as? Bool ?? false)
        }
    }

    /// The Go service, built once per test run with Debian's Go and packages, offline: GOPATH mode
    /// over /usr/share/gocode, no module proxy, its build cache under .build.
    static let goBinary: Swift.Result<String, GoBuildFailure> = {
        let build = CLI.packageRoot.appendingPathComponent(".build/sdk-services").path
        let binary = build + "/shop-go", scratch = build + "/shop-go-\(getpid())"
        let environment = ["GOPATH": build + "/gopath:/usr/share/gocode", "GO111MODULE": "off", "GOPROXY": "off",
                           "GOFLAGS": "", "GOCACHE": build + "/go-cache", "GOTOOLCHAIN": "local"]
        do {
            try FileManager.default.createDirectory(atPath: build + "/gopath", withIntermediateDirectories: true)
            let run = try ChildProcess.run(["go", "build", "-o", scratch, "."], environment: environment, directory: sdk + "/go")
            guard run.status == 0 else { return .failure(GoBuildFailure(description: "go build: \(run.stderr)")) }
            guard rename(scratch, binary) == 0 else { return .failure(GoBuildFailure(description: "cannot move \(scratch) to \(binary)")) }
            return .success(binary)
        } catch {
            return .failure(GoBuildFailure(description: "cannot run go (run `make setup`: golang-go): \(error)"))
        }
    }()

    struct GoBuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Every stored event's issue key, by event id.
    static func keys(_ cli: CLI) throws -> [String: String] {
        var keys: [String: String] = [:]
        for line in try cli.run(["export", "--window", "all", "--now", "2030-01-01T00:00:00Z"]).stdout.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            keys[event["event_id"] as! String] = event["codes"] as? String
        }
        return keys
    }

    /// Every issue of the store by key, as `report --format json` lists it.
    static func issues(_ cli: CLI, query: String? = nil) throws -> [String: [String: Any]] {
        let json = try cli.run(["report", "--window", "all", "--now", "2030-01-01T00:00:00Z", "--top", "500", "--format", "json"]
                               + (query.map { ["--query", $0] } ?? [])).json
        var result: [String: [String: Any]] = [:]
        for issue in json["issues"] as? [[String: Any]] ?? [] { result[issue["key"] as! String] = issue }
        return result
    }
}

/// What a store made of the events a service sent: each distinct failure's key.
struct Grouping {
    /// The keys each distinct failure's events got.
    var keysOfGroup: [String: Set<String>] = [:]
    /// The distinct failures each key holds.
    var groupsOfKey: [String: Set<String>] = [:]
    /// Events the service sent that the store does not hold.
    var missing: [String] = []

    init(_ sent: [SDKService.Sent], keys: [String: String]) {
        for event in sent {
            guard let key = keys[event.eventID] else { missing.append("\(event.group) \(event.eventID)"); continue }
            keysOfGroup[event.group, default: []].insert(key)
            groupsOfKey[key, default: []].insert(event.group)
        }
    }

    /// The distinct failures whose events all landed in an issue of their own.
    var failuresAlone: Set<String> {
        Set(keysOfGroup.filter { $0.value.count == 1 && groupsOfKey[$0.value.first!]?.count == 1 }.keys)
    }

    /// The one key of a failure (nil where it split).
    func key(_ group: String) -> String? { keysOfGroup[group].flatMap { $0.count == 1 ? $0.first : nil } }
}
