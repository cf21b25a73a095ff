import Foundation
import Testing

/// Grouping as a new user meets it: a Go, a Ruby and a Python service (Tests/SDK, `SDKService`)
/// fail in the ways their languages' teams wrap errors and report through their official Sentry
/// SDKs, through files that `ingest` reads and over HTTP to `serve`. Every distinct failure is one
/// issue and every issue one failure, with the same key on both paths and a readable title. Some
/// failures quote words made for each run (coupon codes, tenants, users by id or e-mail, field
/// lists): each run has others, and the services fail once more in the opposite order, so that
/// their titles are the same whatever the words and whichever event came first.
@Suite struct SDKGroupingTests {
    /// The service's events through `ingest` of the files its SDK wrote: the grouping, the issues.
    static func throughFiles(_ service: SDKService, reversed: Bool = false) throws -> (cli: CLI, sent: [SDKService.Sent], grouping: Grouping) {
        let cli = try CLI()
        let (file, sent) = try service.capture(into: cli.temporary.path("sdk"), reversed: reversed)
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

    /// Failures whose key comes from the words of their first event (a value a noun names, second).
    static let keyedByFirstWords: Set<String> = ["message-tenant-quota", "message-coupon-rejected"]

    /// Each failure's issue's title.
    static func titles(_ cli: CLI, _ grouping: Grouping) throws -> [String: String] {
        let issues = try SDKService.issues(cli)
        var titles: [String: String] = [:]
        for (failure, keys) in grouping.keysOfGroup where keys.count == 1 {
            titles[failure] = issues[keys.first!]?["title"] as? String
        }
        return titles
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
        // A failure whose words decide keeps the key of the words its first event had where a
        // value stands second (`coupon <value> rejected`): the words differ from run to run.
        let titles = try Self.titles(files, byFiles), titlesOverHTTP = try Self.titles(http, byHTTP)
        for failure in failures.sorted() {
            if !Self.keyedByFirstWords.contains(failure) { #expect(byFiles.key(failure) == byHTTP.key(failure), "\(failure)") }
            #expect(titles[failure] == titlesOverHTTP[failure], "\(failure)")
        }
        for (key, issue) in try SDKService.issues(files) {
            let title = issue["title"] as? String ?? ""
            #expect(Self.isReadable(title), "\(key): \(title)")
        }
        // In the opposite order, with words of another run: every failure one issue, each with the same title.
        let (reversed, _, byReversed) = try Self.throughFiles(service, reversed: true)
        #expect(byReversed.failuresAlone == failures, "reversed: split \(byReversed.keysOfGroup.filter { $0.value.count > 1 }), merged \(byReversed.groupsOfKey.filter { $0.value.count > 1 })")
        let titlesReversed = try Self.titles(reversed, byReversed)
        for failure in failures.sorted() {
            #expect(titles[failure] == titlesReversed[failure], "\(failure)")
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
        #expect(title("pkg-config") == "read config … syscall.Errno: no such file or directory")
        // The same text made at two places (pkg/errors records where).
        #expect(grouping.key("invalid-input-billing") != grouping.key("invalid-input-profile"))
        // Recovered panics are crashes (level fatal); a panic of a string is a message of its own.
        #expect(kind("panic-error") == "crash" && kind("panic-string") == "crash" && kind("coded-timeout") == "non-fatal")
        #expect(title("panic-string") == "inventory <n> out of sync")
        #expect(title("message-slow-checkout") == "slow checkout: <n>ms for cart c-<n>")
        // fmt.Errorf wraps without a stack: the words decide, and the words that vary are learned.
        #expect(title("coupon-not-found") == "load coupon <value> … coupon not found")
        #expect(title("coupon-expired") == "load coupon <value> … coupon expired")
        #expect(title("charge-tenant") == "charge tenant <value> with <value> … payment declined")
        #expect(title("refresh-user") == "refresh session for user <value> … session expired")
        #expect(title("missing-fields") == "validate order <n> … missing fields <value>")
        #expect(title("supplier-feed") == "import catalog … supplier feed <value> is not valid JSON")
        // A type's package is not a case: the message names the failure, with its type.
        #expect(title("json-cart") == "decode cart <id> … *json.UnmarshalTypeError: json: cannot unmarshal string into Go struct field .qty of type int")
        // A panic reached from a handler and from a worker is raised at one place, which show names.
        #expect(title("panic-stock") == "reserve stock <value> … out of stock")
        #expect(kind("panic-stock") == "crash")
        let stock = try #require(grouping.key("panic-stock"))
        let show = try cli.run(["show", stock, "--now", "2030-01-01T00:00:00Z", "--window", "all"]).stdout
        #expect(show.contains("raised at") && show.contains("reserveStock"), "\(show)")
        #expect(!show.contains("report.func1") && !show.contains("CaptureException"), "\(show)")
        // A capture site is not a raise site: a wrap's stack from CaptureException names no place.
        let coupon = try cli.run(["show", try #require(grouping.key("coupon-not-found")), "--now", "2030-01-01T00:00:00Z", "--window", "all"])
        #expect(!coupon.stdout.contains("raised at"), "\(coupon.stdout)")
        // An address stays, its port does not.
        let dial = try cli.run(["show", try #require(grouping.key("dial-inventory")), "--now", "2030-01-01T00:00:00Z", "--window", "all"])
        #expect(dial.stdout.contains("dial tcp 127.0.0.1:<port>"), "\(dial.stdout)")
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
        // Words of the run at one raise site, and in a message without a stack: learned.
        #expect(title("charge-tenant") == "RuntimeError: payment with <value> failed for tenant <value>")
        #expect(title("message-coupon-rejected") == "coupon <value> rejected at checkout")
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
        #expect(title("wrapped-json")?.contains("ImportFailed: import of feed failed … JSONDecodeError: Expecting") == true, "\(title("wrapped-json") ?? "")")
        #expect(title("key-setting") == "KeyError: '<value>'", "\(title("key-setting") ?? "")")
        // Log records: the template, the logger as the domain, the level.
        #expect(title("log-payment-failed") == "Payment %s failed for order %d")
        #expect(grouping.key("log-payment-failed")?.hasPrefix("PA") == true)
        #expect(title("message-order-stuck") == "Order <n> for <email> stuck for <n> minutes")
        // Where it was raised decides, not how it was reached; its words name it.
        #expect(title("order-lookup") == "LookupError: no order <value> in this shop")
        #expect(title("two-paths-capture") == "CaptureFailed: capture of order <value> with <value> failed")
        // What stays the same where it was raised stays in the title.
        #expect(title("attribute-price") == "AttributeError: 'NoneType' object has no attribute 'total'")
        #expect(title("message-tenant-quota") == "tenant <value> over quota")
        // A log call by its format and its level.
        #expect(title("log-coupon-error") == "Coupon %s rejected for %s" && title("log-coupon-critical") == "Coupon %s rejected for %s")
        #expect(grouping.key("log-coupon-error") != grouping.key("log-coupon-critical"))
        let fatal = try SDKService.issues(cli, query: "level:fatal")
        #expect(Set(fatal.keys) == Set([grouping.key("log-provider-down"), grouping.key("log-coupon-critical")].compactMap { $0 }), "\(fatal.keys)")
        #expect(fatal.values.first?["kind"] as? String == "crash")
        let warnings = try SDKService.issues(cli, query: "level:warning")
        #expect(Set(warnings.keys) == Set([grouping.key("message-order-stuck")].compactMap { $0 }), "\(warnings.keys)")
        let crashes = try SDKService.issues(cli, query: "kind:crash")
        #expect(Set(crashes.keys) == Set(fatal.keys))
    }
}
