import Foundation
import Testing

/// A store made before schema 14's grouping keeps its issues and their keys: new events of a
/// failure join the issue the former grouping gave it, by an alias of their new key; an issue takes
/// one alias, so two failures the former grouping merged part.
///
/// Tests/Fixtures/store-v13-sdk.sqlite.gz was written by errtriage at schema 13 (commit 90e7c03)
/// from the events of the Go, Ruby and Python services (Tests/SDK, each run with `--out`);
/// store-v13-sdk.json names each of those events' failure, by service. The services' data are the
/// same in every run (fixed seeds and lists), so their events now are those failures again. On the
/// PostgreSQL pass the old file is copied into the team store first (`copy` upgrades it on the way).
@Suite struct FormerGroupingTests {
    static let fixtures = CLI.packageRoot.appendingPathComponent("Tests/Fixtures").path

    /// The old store in the test's engine.
    static func oldStore() throws -> CLI {
        let cli = try CLI()
        let onPostgres = cli.store.hasPrefix("postgres")
        let file = onPostgres ? cli.temporary.path("old.sqlite") : cli.store
        let gunzip = try tool("/bin/sh", "-c", "gzip -dc \"$0\" > \"$1\"", fixtures + "/store-v13-sdk.sqlite.gz", file)
        try #require(gunzip.status == 0, "\(gunzip.stderr)")
        if onPostgres {
            let copy = try cli.run(["copy", "--from", file, "--to", cli.store])
            try #require(copy.status == 0, "\(copy.stdout)\(copy.stderr)")
        }
        return cli
    }

    /// A failure's name across services: `go:coded-timeout`.
    static func named(_ sent: [SDKService.Sent], _ service: SDKService) -> [SDKService.Sent] {
        sent.map { SDKService.Sent(eventID: $0.eventID, group: "\(service):\($0.group)", coded: $0.coded) }
    }

    /// The events the old store was made from, by failure.
    static func oldEvents() throws -> [SDKService.Sent] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixtures + "/store-v13-sdk.json")))
                                as? [String: [[String: Any]]])
        return SDKService.allCases.flatMap { service in
            named((json[service.rawValue] ?? []).map { SDKService.Sent(eventID: $0["event_id"] as? String ?? "", group: $0["group"] as? String ?? "",
                                                                       coded: false) }, service)
        }
    }

    @Test func newEventsOfEachFailureJoinTheIssueTheFormerGroupingGaveIt() throws {
        let cli = try Self.oldStore()
        let old = Grouping(try Self.oldEvents(), keys: try SDKService.keys(cli))
        // The former grouping refused events without an exception: log records and messages.
        let refused = Set(old.missing.map { String($0.split(separator: " ")[0]) })
        #expect(refused == ["go:panic-string", "go:message-slow-checkout", "ruby:message-abandoned-cart", "python:log-payment-failed",
                            "python:log-provider-down", "python:message-order-stuck", "python:message-plan-changed"], "\(refused.sorted())")
        var sent: [SDKService.Sent] = []
        for service in SDKService.allCases {
            let (file, events) = try service.capture(into: cli.temporary.path(service.rawValue))
            let result = try cli.run(["ingest", file])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            sent += Self.named(events, service)
        }
        let now = Grouping(sent, keys: try SDKService.keys(cli))
        #expect(now.missing.isEmpty, "\(now.missing)")
        // Every failure is one issue of its own among the new events.
        #expect(now.failuresAlone == Set(sent.map(\.group)),
                "split \(now.keysOfGroup.filter { $0.value.count > 1 }), merged \(now.groupsOfKey.filter { $0.value.count > 1 })")
        for (failure, oldKeys) in old.keysOfGroup.sorted(by: { $0.key < $1.key }) {
            let key = try #require(now.key(failure), "\(failure)")
            if old.failuresAlone.contains(failure) {
                // The former grouping's issue of this failure goes on, under its key.
                #expect(key == oldKeys.first, "\(failure): \(key), before \(oldKeys)")
            } else if oldKeys.count > 1, oldKeys.allSatisfy({ old.groupsOfKey[$0]?.count == 1 }) {
                // Split before (free text, data the masks missed): its events now join one of those issues.
                #expect(oldKeys.contains(key), "\(failure): \(key), before \(oldKeys)")
            }
        }
        // Two failures the former grouping merged: the first met keeps the issue, the other is one of its own.
        let merged = old.groupsOfKey.filter { $0.value.count > 1 }
        #expect(!merged.isEmpty, "the old store merged no failures: the fixture no longer shows the case")
        for (oldKey, failures) in merged {
            let continuing = failures.filter { now.key($0) == oldKey }
            #expect(continuing.count == 1, "\(oldKey) held \(failures.sorted()); now \(failures.map { now.key($0) ?? "-" })")
        }
        // The issue says why its events carry another key.
        let adopted = try #require(old.keysOfGroup["go:wrap-upload"]?.first)
        let show = try cli.run(["show", adopted, "--window", "all", "--now", "2030-01-01T00:00:00Z"])
        #expect(show.stdout.contains("join this issue, which keeps \(adopted)"), "\(show.stdout)")
        #expect(try cli.run(["check"]).status == 0)
    }

    @Test func aStoreMadeSinceHasNoFormerIssuesAndTakesNoAlias() throws {
        let cli = try CLI()
        let (file, _) = try SDKService.go.capture(into: cli.temporary.path("go"))
        try cli.run(["ingest", file])
        let again = try SDKService.go.capture(into: cli.temporary.path("go-again"))
        #expect(try cli.run(["ingest", again.file]).stdout.contains(" 0 new issues"))
        #expect(try SDKService.issues(cli, query: "has:note").isEmpty)
    }
}
