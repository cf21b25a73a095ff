import ChildProcess
import Foundation
import TestSupport
import Testing

/// From the stack to the code on the command line (issue 48): the Python, Go and Ruby services'
/// events (Tests/SDK, through their real SDKs) read against a throwaway checkout of their code made
/// here (two commits by two authors and a third on HEAD, CODEOWNERS, a tag per release): each raise
/// site maps to its file (Python's and Ruby's relative filenames, Go's absolute paths through
/// --path-map), its suspect is the commit that last touched the raising line at the release's tag,
/// its owners CODEOWNERS' last match; source lines come from the tag, not HEAD. Both engines.
@Suite struct CodeCheckoutCLITests {
    static let ana = ThrowawayRepo.Person("Ana Lima", "ana@shop.example")
    static let ben = ThrowawayRepo.Person("Ben Okafor", "ben@shop.example")
    static let now = "2030-01-01T00:00:00Z"

    /// A service's code in a checkout, and where one of its failures was raised.
    struct Checkout {
        var repo: ThrowawayRepo
        /// Ben's commit, which the release's tag names.
        var tagged: String
        /// The options that name the checkout.
        var options: [String]
        var group: String
        var file: String
        var line: Int
    }

    /// The service's files copied into a checkout as its team keeps them; the raising line of
    /// `group` written first by Ana, then as released by Ben (tagged), then changed again on HEAD.
    static func checkout(_ service: SDKService) throws -> Checkout {
        let sdk = SDKService.sdk
        let repo = try ThrowawayRepo(name: "shop repo")
        var files: [(from: String, to: String)] = []
        let group: String, file: String, line: Int, comment: String
        var options = ["--repo", repo.root]
        switch service {
        case .python:
            files = [("python_shop.py", "python_shop.py")] + (try FileManager.default.contentsOfDirectory(atPath: sdk + "/pyshop"))
                .filter { $0.hasSuffix(".py") }.map { ("pyshop/" + $0, "pyshop/" + $0) }
            (group, file, line, comment) = ("key-setting", "pyshop/catalog.py", 11, "  # ")
        case .go:
            files = try FileManager.default.contentsOfDirectory(atPath: sdk + "/go").filter { $0.hasSuffix(".go") }.map { ("go/" + $0, "cmd/shop/" + $0) }
            // The line that wraps the error, wherever the service has it now.
            let source = try String(contentsOfFile: sdk + "/go/scenarios.go", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            let wrap = try #require(source.firstIndex { $0.contains(#"errors.Wrap(err, "read config")"#) })
            (group, file, line, comment) = ("pkg-config", "cmd/shop/scenarios.go", wrap + 1, "  // ")
            // Go's frames carry the build machine's absolute paths: the map says where they live here.
            options += ["--path-map", "\(sdk)/go/=cmd/shop/"]
        case .ruby:
            files = [("ruby/bin/shop", "bin/shop")] + (try FileManager.default.contentsOfDirectory(atPath: sdk + "/ruby/lib/shop"))
                .map { ("ruby/lib/shop/" + $0, "lib/shop/" + $0) }
            (group, file, line, comment) = ("coded-timeout", "lib/shop/service.rb", 12, "  # ")
        }
        var released = ""
        for (from, to) in files {
            let text = try String(contentsOfFile: sdk + "/" + from, encoding: .utf8)
            if to == file { released = text }
            try repo.write(to, text)
        }
        try repo.write("CODEOWNERS", """
            * @shop/everyone
            /pyshop/ @shop/python
            *.rb @shop/ruby
            /cmd/ @shop/go
            \(file) @ana
            """)
        func edited(_ note: String) -> String {
            var lines = released.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[line - 1] += comment + note
            return lines.joined(separator: "\n")
        }
        try repo.write(file, edited("draft"))
        try repo.commit("Add the shop", by: ana, at: "2026-09-01T10:00:00Z")
        try repo.write(file, released)
        let tagged = try repo.commit("Release the shop", by: ben, at: "2026-09-20T10:00:00Z")
        for tag in ["v2.0.0", "v3.2.0", "v4.1.0"] { try repo.tag(tag) }
        try repo.write(file, edited("changed after the release"))
        try repo.commit("Change it again", by: ana, at: "2026-10-05T10:00:00Z")
        return Checkout(repo: repo, tagged: tagged, options: options, group: group, file: file, line: line)
    }

    static func ingest(_ service: SDKService, options: [String] = []) throws -> (CLI, Grouping) {
        let cli = try CLI()
        let (file, sent) = try service.capture(into: cli.temporary.path("sdk"), options: options)
        let result = try cli.run(["ingest", file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return (cli, Grouping(sent, keys: try SDKService.keys(cli)))
    }

    @Test(arguments: SDKService.allCases)
    func eachServicesRaiseSiteMapsToItsFileWithTheTaggedSuspectAndItsOwners(_ service: SDKService) throws {
        let checkout = try Self.checkout(service)
        let (cli, grouping) = try Self.ingest(service)
        let key = try #require(grouping.key(checkout.group))
        let show = try cli.run(["show", key, "--window", "all", "--now", Self.now, "--format", "json"] + checkout.options)
        #expect(show.status == 0, "\(show.stderr)")
        let code = try #require(show.json["code"] as? [String: Any], "\(show.stdout)")
        #expect(code["problem"] is NSNull, "\(code)")
        let revision = try #require(code["revision"] as? [String: Any])
        #expect(revision["commit"] as? String == checkout.tagged && revision["is_release"] as? Bool == true, "\(revision)")
        let sites = (code["sites"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let site = try #require(sites.first { $0["file"] as? String == checkout.file && $0["line"] as? Int == checkout.line }, "\(sites)")
        let suspect = try #require(site["suspect_commit"] as? [String: Any], "\(site)")
        #expect(suspect["hash"] as? String == checkout.tagged && suspect["author"] as? String == "Ben Okafor", "\(suspect)")
        #expect(suspect["subject"] as? String == "Release the shop")
        // CODEOWNERS' last matching line, not the folder's or the extension's before it.
        #expect(site["owners"] as? [String] == ["@ana"] && site["owners_rule"] as? String == "CODEOWNERS:5 \(checkout.file)", "\(site)")
        // Every site that maps names a file the checkout holds.
        for mapped in sites {
            guard let file = mapped["file"] as? String else { continue }
            #expect(FileManager.default.fileExists(atPath: checkout.repo.root + "/" + file), "\(file)")
        }
        // The text says the same under the link.
        let text = try cli.run(["show", key, "--window", "all", "--now", Self.now] + checkout.options).stdout
        #expect(text.contains("suspect commit: \(checkout.tagged.prefix(7))  2026-09-20  Ben Okafor  Release the shop"), "\(text)")
        #expect(text.contains("owners: @ana  (CODEOWNERS:5 \(checkout.file))"), "\(text)")
        #expect(text.contains("Code: \(checkout.repo.root) at v"), "\(text)")
        // So does the ticket.
        let ticket = try cli.run(["ticket", key, "--window", "all", "--now", Self.now] + checkout.options).stdout
        #expect(ticket.contains("## Where it was raised") && ticket.contains("by Ben Okafor on 2026-09-20"), "\(ticket)")
    }

    @Test func sourceLinesComeFromTheReleasesTagNotHead() throws {
        let checkout = try Self.checkout(.python)
        let (cli, grouping) = try Self.ingest(.python, options: ["--no-source"])
        let key = try #require(grouping.key("key-setting"))
        let kept = try cli.run(["show", key, "--window", "all", "--now", Self.now, "--format", "json"]).json["kept_events"] as? [[String: Any]]
        let id = try #require(kept?.first?["event_id"] as? String)
        let text = try cli.run(["event", id] + checkout.options)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("code: source lines the SDK did not send are read from \(checkout.repo.root) at v2.0.0 (\(checkout.tagged.prefix(7)))"),
                "\(text.stdout)")
        #expect(text.stdout.contains("      > 11      return SETTINGS[key]\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("changed after the release"), "\(text.stdout)")
        let json = try cli.run(["event", id, "--format", "json"] + checkout.options).json
        let frames = ((json["exceptions"] as? [[String: Any]])?.first?["frames"] as? [[String: Any]]) ?? []
        let source = try #require((frames.first?["checkout"] as? [String: Any])?["source"] as? [String: Any], "\(frames)")
        #expect(source["revision"] as? String == "v2.0.0" && (source["lines"] as? [String])?.contains("    return SETTINGS[key]") == true)
        // Without a tag for the release: HEAD, and it says so.
        try checkout.repo.git(["tag", "-d", "v2.0.0"])
        let head = try cli.run(["event", id] + checkout.options).stdout
        #expect(head.contains("release pyshop@2.0.0 names no commit of the checkout (tried v2.0.0, 2.0.0, pyshop@2.0.0; --release-ref PATTERN names others): read at HEAD"), "\(head)")
        #expect(head.contains("changed after the release"), "\(head)")
    }

    @Test func ownersFromCodeOwnersTheProjectsCheckoutAndTheMeetingsSuggestion() throws {
        let checkout = try Self.checkout(.python)
        let (cli, grouping) = try Self.ingest(.python)
        let key = try #require(grouping.key("key-setting"))
        // The meeting's agenda suggests the owner of the issues that have none.
        let agenda = try cli.run(["meeting", "--print", "--window", "all", "--now", Self.now, "--top", "30"] + checkout.options).stdout
        #expect(agenda.contains("suggested owner (CODEOWNERS): @ana"), "\(agenda)")
        // project set names the checkout once; the store's one project with a checkout serves the
        // issues read from files, which name no project.
        let set = try cli.run(["project", "set", "shop", "--repo", checkout.repo.root])
        #expect(set.status == 0 && set.stdout.contains("project shop made") && set.stdout.contains("repo \(checkout.repo.root)"), "\(set.stdout)\(set.stderr)")
        #expect(try cli.run(["project", "list"]).stdout.contains("shop  repo \(checkout.repo.root)"))
        let apply = try cli.run(["owner", "apply", "--from-codeowners"])
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stdout.contains("\(key)  @ana  (CODEOWNERS:5 pyshop/catalog.py)"), "\(apply.stdout)")
        let issue = try cli.run(["show", key, "--window", "all", "--now", Self.now, "--format", "json"]).json
        #expect(issue["owner"] as? String == "@ana" && issue["assignee"] as? String == "@ana", "\(issue)")
        // Once owned, apply leaves it.
        #expect(!(try cli.run(["owner", "apply", "--from-codeowners"]).stdout.contains(key)))
        // Without any checkout, it says how to name one.
        let bare = try CLI()
        let refused = try bare.run(["owner", "apply", "--from-codeowners"], environment: ["ERRTRIAGE_REPO": ""])
        #expect(refused.status == 1 && refused.stderr.contains("needs a checkout"), "\(refused.stderr)")
    }

    @Test func aCheckoutThatIsNoRepositoryIsASentence() throws {
        let (cli, grouping) = try Self.ingest(.python)
        let key = try #require(grouping.key("key-setting"))
        let plain = cli.temporary.path("not a repo")
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        let show = try cli.run(["show", key, "--window", "all", "--now", Self.now, "--repo", plain])
        #expect(show.status == 0)
        #expect(show.stdout.contains("\(plain) is not a git repository (git rev-parse finds none there or above)"), "\(show.stdout)")
        let bad = try cli.run(["show", key, "--path-map", "nonsense"])
        #expect(bad.status == 1 && bad.stderr.contains("is not FROM=TO"), "\(bad.stderr)")
    }
}
