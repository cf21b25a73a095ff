import Foundation
import Testing
import TriageStore

/// A store written by an older errtriage (schema v1) opens, upgrades itself once (to v4), and then
/// answers exactly as a store built fresh from the same input and decisions.
///
/// Tests/Fixtures/store-v1.sqlite.gz was written by errtriage at schema v1 (commit 9af9875) from
/// `generate --events 800 --issues 30 --seed 11 --end 2026-11-20T18:00:00Z` and Fixtures/desk.ndjson,
/// then `mark US14-LO43-AP7-NE8 resolved` (2026-11-19T10:00Z, maria, "fixed") and
/// `mark IN500-TA202-TB30-HT400-NE29 muted --users 5` (2026-11-19T11:00Z, ivan, "wait").
@Suite struct MigrationTests {
    static let now = "2026-11-20T18:00:00Z"

    /// The v1 store, unpacked into a fresh folder.
    func oldStore() throws -> CLI {
        let cli = try CLI(sqlite: ())
        let packed = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/store-v1.sqlite.gz").path
        let gunzip = try tool("/bin/sh", "-c", "gzip -dc \"$0\" > \"$1\"", packed, cli.store)
        #expect(gunzip.status == 0, "\(gunzip.stderr)")
        return cli
    }

    /// The same input and decisions, written by this errtriage.
    func freshStore() throws -> CLI {
        let cli = try CLI(sqlite: ())
        let events = cli.folder.appendingPathComponent("events.ndjson").path
        // The v1 store was made from the generator's shuffled order, the only one it had then.
        try cli.run(["generate", "--events", "800", "--issues", "30", "--seed", "11", "--end", Self.now, "--order", "shuffled",
                     "--out", events])
        // The v1 store's input said no kind (the generator gained it later): the same input is without it.
        let generated = try String(contentsOfFile: events, encoding: .utf8)
        try generated.replacingOccurrences(of: #","kind":"[a-z-]+""#, with: "", options: .regularExpression)
            .write(toFile: events, atomically: true, encoding: .utf8)
        let desk = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/desk.ndjson").path
        // The v1 store keeps no event whole (payloads came with schema 16): neither does this one,
        // or show would mark the events it keeps.
        #expect(try cli.run(["ingest", "--keep-whole", "none", events, desk]).status == 0)
        #expect(try cli.run(["mark", "US14-LO43-AP7-NE8", "resolved", "--now", "2026-11-19T10:00:00Z",
                             "--by", "maria", "--note", "fixed"]).status == 0)
        #expect(try cli.run(["mark", "IN500-TA202-TB30-HT400-NE29", "muted", "--users", "5", "--now", "2026-11-19T11:00:00Z",
                             "--by", "ivan", "--note", "wait"]).status == 0)
        return cli
    }

    func schemaVersion(_ path: String) throws -> String {
        let sqlite = try tool("sqlite3", path, "PRAGMA user_version;")
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        return sqlite.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aV1StoreUpgradesOnItsFirstReadAndPassesItsCheck() throws {
        let old = try oldStore()
        #expect(try schemaVersion(old.store) == "1")
        let report = try old.run(["report", "--now", Self.now])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try schemaVersion(old.store) == "\(TriageStore.schemaVersion)")
        let check = try old.run(["check"])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("800 events in 29 issues"), "\(check.stdout)")
        // Events stored before v3 say no kind: a dimension whose values are all unknown is not shown.
        let show = try old.run(["show", "US14-LO43-AP7-NE8", "--window", "all", "--format", "json", "--now", Self.now])
        #expect(!show.stdout.contains(#""kind":["#) && show.stdout.contains(#""device":[{"value":"iPhone13,2""#), "\(show.stdout.prefix(300))")
        // The step to schema 17 counted the custom keys of the events stored before it as tags.
        #expect(show.stdout.contains(#""facets":[{"facet":"tag:locale","label":"locale","values":[{"value":"ru_RU","count":143"#),
                "\(show.stdout.prefix(300))")
    }

    @Test func anUpgradedStoreKeepsEachShortNameForTheDomainThatHadIt() throws {
        let old = try oldStore()
        // UsageError derives US, which UserError holds in the v1 store: it gets the next candidate.
        let sentry = old.folder.appendingPathComponent("sentry.ndjson").path
        try """
            {"event_id":"AB000000000000000000000000000001","timestamp":"2026-11-20T17:00:00Z","level":"fatal","exception":{"values":[{"type":"UsageError","value":"quota","mechanism":{"type":"generic","meta":{"errno":{"number":0}}}}]}}

            """.write(toFile: sentry, atomically: true, encoding: .utf8)
        let ingest = try old.run(["ingest", sentry, "--now", Self.now])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try old.run(["decode", "UA0"]).stdout.contains("UsageError.quota"))
        #expect(try old.run(["decode", "US14"]).stdout.contains("UserError.connectionIssue"))
        let crashes = try old.run(["report", "--kind", "crash", "--window", "all", "--format", "json", "--now", Self.now])
        #expect(crashes.stdout.contains(#""key":"UA0""#) && !crashes.stdout.contains("US14-LO43"), "\(crashes.stdout.prefix(300))")
        #expect(try old.run(["check"]).status == 0)
    }

    @Test func anUpgradedStoreAnswersAsAFreshOne() throws {
        let old = try oldStore(), fresh = try freshStore()
        var commands: [[String]] = []
        for window in ["24h", "7d", "30d", "all"] {
            for mode in ["events", "users", "complaints"] {
                commands.append(["report", "--format", "json", "--window", window, "--by", mode, "--status", "all"])
            }
        }
        commands.append(["report", "--format", "json", "--window", "7d"])  // the resolved and muted issues left out
        commands.append(["show", "US14-LO43-AP7-NE8", "--window", "all"])
        commands.append(["show", "IN500-TA202-TB30-HT400-NE29", "--window", "7d"])
        for command in commands {
            let a = try old.run(command + ["--now", Self.now]), b = try fresh.run(command + ["--now", Self.now])
            #expect(a.status == 0 && b.status == 0, "\(command): \(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout, "\(command)")
        }
        // The mute waits for 5 more users than it had: one more event from a new user is not enough.
        let more = old.folder.appendingPathComponent("more.ndjson").path
        let lines = (0..<5).map { n in
            """
            {"event_id":"late-\(n)","timestamp":"2026-11-20T17:0\(n):00Z","codes":"IN500-TA202-TB30-HT400-NE29","user_id":"newcomer-\(n)"}
            """
        }
        try (lines.prefix(4).joined(separator: "\n") + "\n").write(toFile: more, atomically: true, encoding: .utf8)
        #expect(try old.run(["ingest", more, "--now", Self.now]).stdout.contains("muted → open") == false)
        try (lines.joined(separator: "\n") + "\n").write(toFile: more, atomically: true, encoding: .utf8)
        #expect(try old.run(["ingest", more, "--now", Self.now]).stdout.contains("IN500-TA202-TB30-HT400-NE29: muted → open"))
        #expect(try old.run(["check"]).status == 0)
    }
}
