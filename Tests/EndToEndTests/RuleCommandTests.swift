import Foundation
import Testing

/// `errtriage rule` and `user:` through the real binary, on the engine under test: a rule made on
/// a service's split issues, next week's events joining it, `--dry-run`, removal; a user's errors.
@Suite struct RuleCommandTests {
    static let now = "2026-11-21T00:00:00Z"

    /// A coupon lookup failing in a Go service: the wrapper's message quotes the code, so each code
    /// is an issue of its own until a rule says otherwise.
    static func coupon(_ id: String, _ day: Int, _ code: String, user: String) -> String {
        let name = "load coupon \(code): not found"
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in "*fmt.wrapError\u{1F}\(name)".utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        let links: [[String: Any]] = [
            ["domain": "CheckoutError", "short": "CH", "code": 3, "name": "applyCouponFailed"],
            ["domain": "*fmt.wrapError", "short": "WR", "code": 10_000 + Int(hash % 90_000), "name": name],
            ["domain": "*errors.errorString", "short": "ES", "code": 1, "name": "not found"],
        ]
        let event: [String: Any] = ["event_id": id, "timestamp": String(format: "2026-11-%02dT10:00:00Z", day), "chain": links,
                                    "user_id": user]
        return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Codes no test names: generated per run.
    static func codes(_ n: Int) -> [String] {
        Array(Set((0..<(n * 3)).map { _ in "C" + String(UInt32.random(in: 100_000...999_999), radix: 36).uppercased() })).prefix(n).sorted()
    }

    /// `rule list --format json`.
    func rules(_ cli: CLI) throws -> [[String: Any]] {
        let out = try cli.run(["rule", "list", "--format", "json"]).stdout
        return (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
    }

    func keys(_ cli: CLI, _ extra: [String] = []) throws -> [String] {
        let issues = try cli.run(["report", "--now", Self.now, "--window", "30d", "--format", "json"] + extra).json["issues"] as? [[String: Any]]
        return (issues ?? []).compactMap { $0["key"] as? String }
    }

    @Test func aRuleMadeOnSplitIssuesHoldsForNextWeeksCodesAndComesOffWhole() throws {
        let cli = try CLI()
        let codes = Self.codes(5)
        let week1 = codes.prefix(3).enumerated().map { Self.coupon("a\($0.offset)", 10 + $0.offset, $0.element, user: "u\($0.offset)") }
        #expect(try cli.run(["ingest", try cli.file("week1.ndjson", week1.joined(separator: "\n"))]).status == 0)
        #expect(try keys(cli).count == 3)

        let query = #"message:"load coupon *: not found""#
        let dry = try cli.run(["rule", "add", query, "--as", "coupon", "--dry-run", "--format", "json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.json["events"] as? Int == 3)
        #expect((dry.json["issues"] as? [[String: Any]])?.map { $0["role"] as? String } == ["head", "joins", "joins"])
        #expect(try keys(cli).count == 3, "a dry run changes nothing")

        let made = try cli.run(["rule", "add", query, "--as", "coupon", "--by", "ana"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("rule coupon added: 3 issues, 3 events, under CH3-WR"), "\(made.stdout)")
        let head = try #require(try keys(cli).first)
        #expect(try keys(cli).count == 1)

        let week2 = codes.suffix(2).enumerated().map { Self.coupon("b\($0.offset)", 17 + $0.offset, $0.element, user: "v\($0.offset)") }
        #expect(try cli.run(["ingest", try cli.file("week2.ndjson", week2.joined(separator: "\n"))]).status == 0)
        let report = try cli.run(["report", "--now", Self.now, "--window", "30d", "--format", "json"]).json
        let issues = try #require(report["issues"] as? [[String: Any]])
        #expect(issues.map { $0["key"] as? String } == [head])
        #expect(issues.first?["events"] as? Int == 5)
        #expect((issues.first?["members"] as? [[String: Any]])?.count == 5)

        let json = try cli.run(["rule", "list", "--format", "json"]).stdout
        #expect(json.contains("\"name\":\"coupon\"") && json.contains("\"issue\":\"\(head)\""), "\(json)")
        let listed = try cli.run(["rule", "list"])
        #expect(listed.stdout.hasPrefix("1  coupon  →  \(head)  \(query)  (ana, "), "\(listed.stdout)")

        let removed = try cli.run(["rule", "rm", "coupon"])
        #expect(removed.status == 0)
        #expect(removed.stdout.hasPrefix("rule coupon removed: took out "))
        #expect(try keys(cli).count == 5)
        #expect(try cli.run(["rule", "list"]).stdout == "no grouping rules (errtriage rule add 'QUERY' --as NAME adds one)\n")
    }

    /// Rules are stored decisions: `export --rules` writes them, `rule import` makes them in another
    /// store (merging what they match there, holding for its next events), a second import leaves
    /// them as they are, and a bad line is named while the good ones are made.
    @Test func exportCarriesTheRulesAndRuleImportMakesThemInAnotherStore() throws {
        let cli = try CLI()
        let codes = Self.codes(5)
        let week1 = codes.prefix(3).enumerated().map { Self.coupon("a\($0.offset)", 10 + $0.offset, $0.element, user: "u\($0.offset)") }
        let file = try cli.file("week1.ndjson", week1.joined(separator: "\n"))
        #expect(try cli.run(["ingest", file]).status == 0)
        let query = #"message:"load coupon *: not found""#
        #expect(try cli.run(["rule", "add", query, "--as", "coupon", "--by", "ana", "--now", "2026-11-20T09:00:00Z"]).status == 0)
        #expect(try cli.run(["rule", "add", "root:ES1 outer:CH3", "--as", "checkout", "--by", "ben"]).status == 0)
        let exported = try cli.run(["export", "--rules"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let lines = exported.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == #"{"name":"coupon","query":"message:\"load coupon *: not found\"","by":"ana","at":"2026-11-20T09:00:00Z"}"#,
                "\(lines)")
        #expect(lines.last?.hasPrefix(#"{"name":"checkout","query":"root:ES1 outer:CH3","by":"ben","at":""#) == true)
        let ruleFile = try cli.file("rules.ndjson", exported.stdout)

        let other = try CLI()
        #expect(try other.run(["ingest", file]).status == 0)
        #expect(try keys(other).count == 3)
        let imported = try other.run(["rule", "import", ruleFile])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("rule import: 2 added, 0 already here\n"), "\(imported.stdout)")
        #expect(try keys(other).count == 1)
        let listed = try rules(other)
        #expect(listed.map { $0["name"] as? String } == ["coupon", "checkout"])
        #expect(listed.map { $0["by"] as? String } == ["ana", "ben"])
        #expect(listed.first?["at"] as? String == "2026-11-20T09:00:00Z")
        // Next week's codes join the imported rule's issue.
        let week2 = codes.suffix(2).enumerated().map { Self.coupon("b\($0.offset)", 17 + $0.offset, $0.element, user: "v\($0.offset)") }
        #expect(try other.run(["ingest", try other.file("week2.ndjson", week2.joined(separator: "\n"))]).status == 0)
        #expect(try keys(other).count == 1)

        let again = try other.run(["rule", "import", ruleFile])
        #expect(again.status == 0 && again.stdout == "rule import: 0 added, 2 already here\n", "\(again.stdout)\(again.stderr)")
        let mixed = try other.file("mixed.ndjson", [
            #"{"name":"coupon","query":"root:ES1"}"#, "not json", #"{"name":"busy","query":"events:>3"}"#,
            #"{"name":"errors","query":"root:ES1"}"#,
        ].joined(separator: "\n"))
        let partly = try other.run(["rule", "import", mixed])
        #expect(partly.status == 2)
        #expect(partly.stderr.contains("mixed.ndjson:1: a rule is named coupon here already with another query"), "\(partly.stderr)")
        #expect(partly.stderr.contains("mixed.ndjson:2: not a rule line"))
        #expect(partly.stderr.contains("mixed.ndjson:3: the term \"events:>3\" counts over issues"))
        #expect(partly.stdout.hasSuffix("rule import: 1 added, 0 already here, 3 refused\n"), "\(partly.stdout)")
        #expect(try rules(other).map { $0["name"] as? String } == ["coupon", "checkout", "errors"])
        let refused = try cli.run(["export", "--rules", "--format", "csv"])
        #expect(refused.status == 1 && refused.stderr.contains("--rules writes NDJSON"))
    }

    @Test func aRuleARuleCannotBeOrAnUnknownOneIsOneSentenceAndExitOne() throws {
        let cli = try CLI()
        let counted = try cli.run(["rule", "add", "events:>10 root:ES1", "--as", "x"])
        #expect(counted.status == 1)
        #expect(counted.stderr.hasPrefix("errtriage: the term \"events:>10\" counts over issues"), "\(counted.stderr)")
        let gone = try cli.run(["rule", "rm", "nope"])
        #expect(gone.status == 1 && gone.stderr == "errtriage: no rule is named nope (there are none yet)\n")
        let unnamed = try cli.run(["rule", "add", "root:ES1", "--as", " "])
        #expect(unnamed.status == 1)
    }

    @Test func aUsersErrorsAndAKeyQuotedInLowerCase() throws {
        let cli = try CLITests().ingested()
        // u0727's one event; u1's one; nobody's none.
        let report = try cli.run(["report", "--now", CLITests.now, "--query", "user:u0727", "--format", "json"]).json
        #expect((report["issues"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["US14-LO43-AP7-NE8"])
        #expect((report["issues"] as? [[String: Any]])?.first?["events"] as? Int == 1)
        let none = try cli.run(["report", "--now", CLITests.now, "--query", "user:nobody"])
        #expect(none.stdout.contains("no event's user is \"nobody\""), "\(none.stdout)")
        let shown = try cli.run(["show", "us14-lo43-ap7-ne8", "--now", CLITests.now])
        #expect(shown.status == 0 && shown.stdout.contains("US14-LO43-AP7-NE8"))
    }
}
