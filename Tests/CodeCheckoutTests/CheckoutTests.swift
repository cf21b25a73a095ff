import ChildProcess
import CodeCheckout
import Foundation
import TestSupport
import Testing
import TriageModel

/// Lookups on a throwaway repository made here: two authors, three commits, a tag per release,
/// CODEOWNERS, a folder name with a space and a file name with shell syntax in it.
@Suite struct CheckoutTests {
    static let ana = ThrowawayRepo.Person("Ana Lima", "ana@shop.example")
    static let ben = ThrowawayRepo.Person("Ben Okafor", "ben@shop.example")
    static let odd = "billing/it's $(touch pwned); `x` & y.py"

    struct Repo {
        let repo: ThrowawayRepo
        let first: String, second: String, third: String
    }

    /// v2.0.0 by Ana, v2.1.0 by Ben (who changed the raising line), then Ana again on HEAD.
    static func make() throws -> Repo {
        let repo = try ThrowawayRepo(name: "shop repo $(x)")
        try repo.write("CODEOWNERS", "* @shop/everyone\n/billing/ @shop/billing\nbilling/amounts.py @ben\n")
        try repo.write("billing/amounts.py", lines(raising: "raise ValueError(\"bad amount\")"))
        try repo.write(odd, "def odd():\n    raise KeyError(\"odd\")\n")
        let first = try repo.commit("Add amounts", by: ana, at: "2026-10-01T10:00:00Z")
        try repo.tag("v2.0.0")
        try repo.write("billing/amounts.py", lines(raising: "raise ValueError(f\"bad amount {text!r}\")"))
        let second = try repo.commit("Say which amount is bad", by: ben, at: "2026-10-20T10:00:00Z")
        try repo.tag("v2.1.0")
        try repo.write("billing/amounts.py", lines(raising: "raise AmountError(text)"))
        let third = try repo.commit("Raise AmountError", by: ana, at: "2026-11-05T10:00:00Z")
        return Repo(repo: repo, first: first, second: second, third: third)
    }

    /// Ten lines, the raising one the sixth.
    static func lines(raising: String) -> String {
        "from decimal import Decimal\n\n\ndef parse(text):\n    if not text:\n        \(raising)\n    return Decimal(text)\n\n\n# end\n"
    }

    static func frame(_ file: String = "billing/amounts.py", line: Int = 6, absPath: String? = nil) -> EventFrame {
        EventFrame(function: "parse", module: "billing.amounts", file: file, line: line, inApp: true, absPath: absPath)
    }

    static func settings(_ repo: ThrowawayRepo) -> CodeSettings { CodeSettings(repo: repo.root, origin: "--repo") }

    @Test func theSuspectIsTheCommitThatTouchedTheLineAtTheReleasesTag() throws {
        let r = try Self.make()
        let lookup = CodeLookup()
        let at21 = lookup.raiseSites(RaiseFrames(eventID: "e1", release: "shop@2.1.0", frames: [Self.frame(), nil]),
                                     firstSeen: Timestamp.parse("2026-11-10T00:00:00Z"), settings: Self.settings(r.repo))
        #expect(at21.problem == nil)
        #expect(at21.revision == CodeRevision(commit: r.second, name: "v2.1.0", isRelease: true))
        #expect(at21.sites.count == 2 && at21.sites[1] == nil)
        let site = try #require(at21.sites[0])
        #expect(site.path == "billing/amounts.py" && site.line == 6)
        #expect(site.suspect?.hash == r.second && site.suspect?.author == "Ben Okafor" && site.suspect?.subject == "Say which amount is bad")
        #expect(site.suspect?.date == Timestamp.parse("2026-10-20T10:00:00Z"))
        #expect(site.owners == ["@ben"] && site.ownersRule == "CODEOWNERS:3 billing/amounts.py")
        #expect(site.absolutePath == r.repo.root + "/billing/amounts.py")
        let at20 = lookup.raiseSites(RaiseFrames(eventID: "e1", release: "2.0.0", frames: [Self.frame()]), firstSeen: nil, settings: Self.settings(r.repo))
        #expect(at20.revision?.name == "v2.0.0" && at20.sites[0]?.suspect?.author == "Ana Lima" && at20.sites[0]?.suspect?.hash == r.first)
    }

    @Test func withoutATagHeadAsItStoodBeforeTheFirstEvent() throws {
        let r = try Self.make()
        let facts = CodeLookup().raiseSites(RaiseFrames(eventID: "e1", release: "shop@9.9.9", frames: [Self.frame()]),
                                            firstSeen: Timestamp.parse("2026-10-25T00:00:00Z"), settings: Self.settings(r.repo))
        let revision = try #require(facts.revision)
        #expect(revision.commit == r.second && !revision.isRelease)
        #expect(revision.note?.hasPrefix("release shop@9.9.9 names no commit of the checkout (tried v9.9.9, 9.9.9, shop@9.9.9") == true)
        #expect(revision.note?.contains("before the issue's first event (2026-10-25)") == true)
        #expect(facts.sites[0]?.suspect?.hash == r.second)
        // No release, nothing earlier: HEAD.
        let head = CodeLookup().raiseSites(RaiseFrames(eventID: "e1", release: nil, frames: [Self.frame()]), firstSeen: nil, settings: Self.settings(r.repo))
        #expect(head.revision?.name == "HEAD" && head.revision?.note == "the event names no release: read at HEAD")
        #expect(head.sites[0]?.suspect?.hash == r.third)
        // --release-ref names the tag another way.
        try r.repo.git(["tag", "release-3"])
        let pattern = CodeLookup().raiseSites(RaiseFrames(eventID: "e1", release: "shop@3", frames: [Self.frame()]), firstSeen: nil,
                                              settings: CodeSettings(repo: r.repo.root, releaseRef: "release-{version}"))
        #expect(pattern.revision?.name == "release-3" && pattern.revision?.isRelease == true)
    }

    @Test func sourceLinesAtTheReleasesTagNotHead() throws {
        let r = try Self.make()
        let lookup = CodeLookup()
        func event(_ release: String?) -> EventDetail {
            EventDetail(eventID: "e1", source: "sentry", exceptions: [EventException(type: "ValueError", value: "bad", frames: [Self.frame()])],
                        release: release)
        }
        let tagged = lookup.eventFrames(event("shop@2.0.0"), settings: Self.settings(r.repo))
        let source = try #require(tagged.sites[0]?.source)
        #expect(source.revision == "v2.0.0" && source.firstLine == 1 && source.line == 6)
        #expect(source.lines[5] == "        raise ValueError(\"bad amount\")")
        let head = lookup.eventFrames(event(nil), settings: Self.settings(r.repo))
        #expect(head.sites[0]?.source?.lines[5] == "        raise AmountError(text)" && head.sites[0]?.source?.revision == "HEAD")
        // A frame with its own source line is not read again.
        var sent = event("shop@2.0.0")
        sent.exceptions[0].frames[0].contextLine = "raise ValueError(\"bad amount\")"
        #expect(lookup.eventFrames(sent, settings: Self.settings(r.repo)).sites[0]?.source == nil)
    }

    @Test func eachFailureIsASentence() throws {
        let r = try Self.make()
        let lookup = CodeLookup()
        // A line past the end, a file missing at the revision, a frame that maps to nothing.
        try r.repo.write("billing/new.py", "x = 1\n")
        try r.repo.commit("Add new", by: Self.ana, at: "2026-11-06T10:00:00Z")
        let facts = lookup.raiseSites(RaiseFrames(eventID: "e", release: "shop@2.1.0",
                                                  frames: [Self.frame(line: 80), Self.frame("billing/new.py", line: 1),
                                                           EventFrame(function: "f", file: "/usr/lib/x.py", line: 3)]),
                                      firstSeen: nil, settings: Self.settings(r.repo))
        #expect(facts.sites[0]?.problems == ["line 80 is past the end of billing/amounts.py at v2.1.0 (10 lines)"])
        #expect(facts.sites[1]?.problems == ["billing/new.py is not in v2.1.0"])
        #expect(facts.sites[2]?.path == nil && facts.sites[2]?.problems.first?.contains("is no file of the checkout") == true)
        // Not a repository; no folder; no checkout named.
        let plain = try TemporaryFolder()
        #expect(lookup.raiseSites(RaiseFrames(eventID: "e", release: nil, frames: [Self.frame()]), firstSeen: nil,
                                  settings: CodeSettings(repo: plain.path)).problem
                == "\(plain.path) is not a git repository (git rev-parse finds none there or above)")
        #expect(lookup.raiseSites(RaiseFrames(eventID: "e", release: nil, frames: []), firstSeen: nil,
                                  settings: CodeSettings(repo: plain.path + "/gone")).problem == "the checkout \(plain.path)/gone does not exist")
        #expect(lookup.raiseSites(RaiseFrames(eventID: "e", release: nil, frames: []), firstSeen: nil, settings: CodeSettings()).problem
                == CodeSettings.noCheckout)
        let empty = try ThrowawayRepo(name: "empty")
        #expect(lookup.raiseSites(RaiseFrames(eventID: "e", release: nil, frames: []), firstSeen: nil, settings: Self.settings(empty)).problem
                == "the checkout \(empty.root) has no commit yet")
    }

    @Test func pathsWithSpacesAndShellSyntaxArePassedAsThemselves() throws {
        let r = try Self.make()
        #expect(r.repo.root.contains(" $(x)"))
        let frame = EventFrame(function: "odd", file: Self.odd, line: 2, inApp: true)
        let facts = CodeLookup().raiseSites(RaiseFrames(eventID: "e", release: "shop@2.1.0", frames: [frame]), firstSeen: nil,
                                            settings: Self.settings(r.repo))
        let site = try #require(facts.sites[0] ?? nil)
        #expect(site.path == Self.odd && site.suspect?.hash == r.first && site.owners == ["@shop/billing"], "\(site)")
        // Nothing ran that the names spell.
        #expect(!FileManager.default.fileExists(atPath: r.repo.root + "/pwned") && !FileManager.default.fileExists(atPath: "pwned"))
    }

    @Test func aSlowGitIsStoppedAtItsBound() throws {
        let r = try Self.make()
        let folder = try TemporaryFolder()
        // Copied by cp, so that no child this process spawns meanwhile holds the script open for writing (ETXTBSY).
        let script = try folder.file("slow-git.txt", "#!/bin/sh\nsleep 30\n")
        let slow = folder.path("slow-git")
        #expect(try ChildProcess.run(["cp", script, slow]).status == 0)
        chmod(slow, 0o755)
        let started = ChildProcess.clock()
        let facts = CodeLookup(git: Git(executable: slow, timeout: 0.3)).raiseSites(
            RaiseFrames(eventID: "e", release: nil, frames: [Self.frame()]), firstSeen: nil, settings: Self.settings(r.repo))
        #expect(ChildProcess.clock() - started < 5)
        #expect(facts.problem?.contains("took longer than 0.3 s and was stopped") == true, "\(facts)")
        let missing = CodeLookup(git: Git(executable: folder.path("no-such-git"))).raiseSites(
            RaiseFrames(eventID: "e", release: nil, frames: []), firstSeen: nil, settings: Self.settings(r.repo))
        #expect(missing.problem?.contains("git is not installed") == true, "\(missing)")
    }

    @Test func theEditorOpensTheLineWhereTheWorkingTreeHasItNow() throws {
        let r = try Self.make()
        let lookup = CodeLookup()
        func site() -> CodeSite? {
            lookup.raiseSites(RaiseFrames(eventID: "e", release: "shop@2.0.0", frames: [Self.frame(line: 7)]), firstSeen: nil,
                              settings: Self.settings(r.repo)).sites[0] ?? nil
        }
        // Line 7 of v2.0.0 is untouched since: where it was.
        #expect(site()?.workingLine == nil && site()?.changedSince == false)
        // Two lines added above it, not even committed: two lines down.
        let text = try String(contentsOfFile: r.repo.root + "/billing/amounts.py", encoding: .utf8)
        try r.repo.write("billing/amounts.py", "# one\n# two\n" + text)
        #expect(site()?.workingLine == 9 && site()?.changedSince == false && site()?.line == 7)
        // The raising line of v2.0.0 (6) was changed since: it says so.
        let changed = lookup.raiseSites(RaiseFrames(eventID: "e", release: "shop@2.0.0", frames: [Self.frame()]), firstSeen: nil,
                                        settings: Self.settings(r.repo)).sites[0] ?? nil
        #expect(changed?.workingLine == 8 && changed?.changedSince == true)
    }

    @Test func aDeployedPathThroughThePathMap() throws {
        let r = try Self.make()
        let frame = Self.frame("amounts.py", absPath: "/srv/app/amounts.py")
        let settings = CodeSettings(repo: r.repo.root, pathMaps: [try PathMapping.parse("/srv/app/=billing/").get()])
        let site = CodeLookup().raiseSites(RaiseFrames(eventID: "e", release: nil, frames: [frame]), firstSeen: nil, settings: settings).sites[0]
        #expect(site?.path == "billing/amounts.py" && site?.via == "--path-map /srv/app/=billing/")
    }
}
