import Foundation
import Testing

/// Two services sending to one store, each naming its package in its releases (`shop@2.1.0`,
/// `payments-api@2.3.1`, as Sentry SDKs do): each version keeps its package, `releases` lists them
/// apart, and a version's previous is its own package's.
@Suite struct ReleasePackageTests {
    static func event(_ id: Int, release: String, type: String, day: Int) -> String {
        #"{"event_id":"\#(String(format: "%032x", id))","timestamp":"2026-11-\#(day)T10:00:00Z","platform":"python","level":"error","release":"\#(release)","exception":{"values":[{"type":"\#(type)","value":"failed"}]}}"#
    }

    @Test func releasesKeepTheirPackageAndAreApartPerPackage() throws {
        let cli = try CLI()
        let lines = [
            Self.event(1, release: "shop@2.0.0", type: "CartError", day: 10), Self.event(2, release: "shop@2.1.0", type: "CartError", day: 12),
            Self.event(3, release: "payments-api@2.3.1", type: "ChargeError", day: 11), Self.event(4, release: "payments-api@2.4.0", type: "ChargeError", day: 13),
        ]
        let ingest = try cli.run(["ingest", try cli.file("e.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let releases = try #require(try cli.run(["release", "list", "--format", "json"]).json["releases"] as? [[String: Any]])
        #expect(Set(releases.compactMap { $0["version"] as? String }) == ["shop@2.0.0", "shop@2.1.0", "payments-api@2.3.1", "payments-api@2.4.0"])
        let release = try cli.run(["release", "shop@2.1.0", "--window", "all", "--now", "2026-11-20T00:00:00Z", "--format", "json"])
        #expect(release.status == 0, "\(release.stderr)")
        #expect(release.json["previous"] as? String == "shop@2.0.0", "\(release.stdout)")
    }
}
