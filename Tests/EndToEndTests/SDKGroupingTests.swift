import Foundation
import Testing

/// Grouping as a new user meets it: a Go, a Ruby and a Python service (Tests/SDK, `SDKService`)
/// fail in the ways their languages' teams wrap errors and report through their official Sentry
/// SDKs, through files that `ingest` reads and over HTTP to `serve`. Every distinct failure is one
/// issue and every issue one failure, with the same key on both paths and a readable title.
@Suite struct SDKGroupingTests {
    /// The service's events through `ingest` of the files its SDK wrote: the grouping, the issues.
    static func throughFiles(_ service: SDKService) throws -> (cli: CLI, sent: [SDKService.Sent], grouping: Grouping) {
        let cli = try CLI()
        let (file, sent) = try service.capture(into: cli.temporary.path("sdk"))
        let result = try cli.run(["ingest", file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        return (cli, sent, Grouping(sent, keys: try SDKService.keys(cli)))
    }

    /// A title a person reads: words of the failure, not a type's bare name, a short code or `?`.
    static func isReadable(_ title: String) -> Bool {
        let typeName = #"^[*&]?[A-Za-z_][A-Za-z0-9_.:$]*(Error|Exception)$"#
        let shortCodes = #"^[A-Z]+n?[0-9]+( … [A-Z]+n?[0-9]+)?$"#
        return title.contains(where: \.isLetter) && !title.contains("?")
            && title.range(of: typeName, options: .regularExpression) == nil
            && title.range(of: shortCodes, options: .regularExpression) == nil
    }

    @Test(arguments: SDKService.allCases)
    func eachDistinctFailureIsOneIssueThroughFilesAndOverHTTPWithTheSameKey(_ service: SDKService) throws {
        let (files, sentToFiles, byFiles) = try Self.throughFiles(service)
        let failures = Set(sentToFiles.map(\.group))
        #expect(byFiles.missing.isEmpty, "\(byFiles.missing)")
        #expect(byFiles.failuresAlone == failures, "through files: split \(byFiles.keysOfGroup.filter { $0.value.count > 1 }), merged \(byFiles.groupsOfKey.filter { $0.value.count > 1 })")

        let http = try CLI()
        let server = try ServeTests.Server(http)
        defer { _ = server.stop() }
        let (_, _, dsn) = try server.addKey("shop")
        let sentOverHTTP = try service.send(to: dsn, manifest: http.temporary.path("sent.json"))
        let byHTTP = Grouping(sentOverHTTP, keys: try SDKService.keys(http))
        #expect(byHTTP.missing.isEmpty, "\(byHTTP.missing)\n\(server.log)")
        #expect(byHTTP.failuresAlone == failures, "over HTTP: split \(byHTTP.keysOfGroup.filter { $0.value.count > 1 }), merged \(byHTTP.groupsOfKey.filter { $0.value.count > 1 })")
        for failure in failures.sorted() {
            #expect(byFiles.key(failure) == byHTTP.key(failure), "\(failure)")
        }
        for (key, issue) in try SDKService.issues(files) {
            let title = issue["title"] as? String ?? ""
            #expect(Self.isReadable(title), "\(key): \(title)")
        }
        #expect(try files.run(["check"]).status == 0)
    }

    @Test func goTypedLayersReadTheirOwnCodesAndTwoWrapsOfOneRootAreTwoIssues() throws {
        let (cli, _, grouping) = try Self.throughFiles(.go)
        let issues = try SDKService.issues(cli)
        func title(_ failure: String) -> String? { grouping.key(failure).flatMap { issues[$0]?["title"] as? String } }
        func kind(_ failure: String) -> String? { grouping.key(failure).flatMap { issues[$0]?["kind"] as? String } }
        // `*main.UserError` is US; each layer's code is its own, not the root's it quotes.
        #expect(grouping.key("coded-timeout") == "US14-LO43-AP7-NE8")
        #expect(grouping.key("coded-notconnected") == "US14-LO43-AP7-NE29")
        #expect(title("coded-timeout") == "connectionIssue … timeout")
        // fmt.Errorf("resume session %s: %w"), ("upload avatar %d: %w") and ("delete avatar %d: %w") over the same root.
        let resume = try #require(grouping.key("wrap-resume")), upload = try #require(grouping.key("wrap-upload"))
        #expect(resume != upload && resume.hasSuffix("-NE8") && upload.hasSuffix("-NE8"))
        // Two wraps of the same depth over the same root: each its own token.
        let delete = try #require(grouping.key("wrap-delete"))
        #expect(delete != upload && delete.hasSuffix("-NE8") && delete.split(separator: "-").count == 2, "\(delete) \(upload)")
        #expect(resume.hasPrefix("WR") && resume.split(separator: "-").count == 3, "\(resume)")
        #expect(title("wrap-resume") == "resume session <id> … timeout")
        #expect(title("wrap-upload") == "upload avatar <n> … timeout")
        // pkg/errors over the standard library: withStack repeats withMessage, whose words name the issue.
        #expect(title("pkg-config") == "read config … no such file or directory")
        // The same text made at two places (pkg/errors records where).
        #expect(grouping.key("invalid-input-billing") != grouping.key("invalid-input-profile"))
        // Recovered panics are crashes (level fatal); a panic of a string is a message of its own.
        #expect(kind("panic-error") == "crash" && kind("panic-string") == "crash" && kind("coded-timeout") == "non-fatal")
        #expect(title("panic-string") == "inventory <n> out of sync")
        #expect(title("message-slow-checkout") == "slow checkout: <n>ms for cart c-<n>")
    }

    @Test func rubyCausesAndInterpolatedMessagesAreIssuesOfTheirOwnAndOnlyFatalIsACrash() throws {
        let (cli, _, grouping) = try Self.throughFiles(.ruby)
        let issues = try SDKService.issues(cli)
        func title(_ failure: String) -> String? { grouping.key(failure).flatMap { issues[$0]?["title"] as? String } }
        // `App::UserError` is US, and Ruby's `cause` makes the chain.
        #expect(grouping.key("coded-timeout") == "US14-LO43-AP7-NE8")
        // Two RuntimeErrors that interpolate the same cause's message.
        let draft = try #require(grouping.key("interp-draft")), avatar = try #require(grouping.key("interp-avatar"))
        #expect(draft != avatar && draft.hasSuffix("-ST5") && avatar.hasSuffix("-ST5"), "\(draft) \(avatar)")
        #expect(title("interp-draft") == "RuntimeError: saving draft failed … writeFailed")
        #expect(title("interp-avatar") == "RuntimeError: uploading avatar failed … writeFailed")
        // A cause never raised: sentry-ruby 5.3 writes the outermost again, which is not a link.
        #expect(grouping.key("never-raised-cause").map { !$0.contains("-") } == true)
        // sentry-ruby marks every event's thread crashed; only level fatal makes a crash.
        for (failure, _) in grouping.keysOfGroup {
            let kind = grouping.key(failure).flatMap { issues[$0]?["kind"] as? String }
            #expect(kind == (failure == "fatal-worker" ? "crash" : "non-fatal"), "\(failure)")
        }
        #expect(title("json-feed")?.contains(": import of feed <n> failed … ") == true, "\(title("json-feed") ?? "")")
    }

    @Test func pythonsCodelessErrorsGroupByWhereTheyWereRaisedAndLogRecordsAreIssues() throws {
        let (cli, _, grouping) = try Self.throughFiles(.python)
        let issues = try SDKService.issues(cli)
        func title(_ failure: String) -> String? { grouping.key(failure).flatMap { issues[$0]?["title"] as? String } }
        // ValueError("invalid input") in billing and in profile: two places, two issues.
        #expect(grouping.key("value-billing") != nil && grouping.key("value-billing") != grouping.key("value-profile"))
        // Free text and words that change with the data: one place, one issue.
        #expect(grouping.failuresAlone.isSuperset(of: ["free-text-name", "changing-words", "message-plan-changed"]))
        // A link with no case name of the app's reads `Type: template`, as every peer writes it.
        #expect(title("wrapped-json")?.contains("ImportFailed: import of feed failed … Expecting") == true, "\(title("wrapped-json") ?? "")")
        #expect(title("key-setting") == "KeyError: '<value>'", "\(title("key-setting") ?? "")")
        // Log records: the template, the logger as the domain, the level.
        #expect(title("log-payment-failed") == "Payment %s failed for order %d")
        #expect(grouping.key("log-payment-failed")?.hasPrefix("PA") == true)
        #expect(title("message-order-stuck") == "Order <n> for <email> stuck for <n> minutes")
        let fatal = try SDKService.issues(cli, query: "level:fatal")
        #expect(Set(fatal.keys) == Set([grouping.key("log-provider-down")].compactMap { $0 }), "\(fatal.keys)")
        #expect(fatal.values.first?["kind"] as? String == "crash")
        let warnings = try SDKService.issues(cli, query: "level:warning")
        #expect(Set(warnings.keys) == Set([grouping.key("message-order-stuck")].compactMap { $0 }), "\(warnings.keys)")
        let crashes = try SDKService.issues(cli, query: "kind:crash")
        #expect(Set(crashes.keys) == Set(fatal.keys))
    }
}
