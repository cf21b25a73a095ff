import Foundation
import TestSupport
import Testing

/// `errtriage prune` and the retention setting, run as a user runs them, on both engines: three
/// years of small daily traffic pruned to 90 days answer every list, detail, release and history
/// as before, apart from what is marked (`raw_events_since`; the raw complaints; users `≈`).
@Suite struct RetentionTests {
    static let now = "2026-11-21T00:00:00Z"

    /// Removes what a prune changes on purpose: the marker, the raw complaints, the recent
    /// events before the horizon (`since`, ISO 8601).
    static func normalised(_ json: [String: Any], since: String?) -> [String: Any] {
        var json = json
        json["raw_events_since"] = nil
        json["unlinked_complaints"] = nil
        json["complaints"] = nil
        if let since, let events = json["recent_events"] as? [[String: Any]] {
            json["recent_events"] = events.filter { ($0["timestamp"] as! String) >= since }
        }
        // Kept payloads go with their raw events.
        if let since, let kept = json["kept_events"] as? [[String: Any]] {
            json["kept_events"] = kept.filter { ($0["timestamp"] as! String) >= since }
        }
        return json
    }

    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func threeYearsPrunedTo90DaysAnswerAsBeforeFromTheRollups() throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 6_000, issues: 16, days: 1_095)
        try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        let windows = ["all", "90d", "30d", "7d", "24h"]
        func answers() throws -> [String: Any] {
            var out: [String: Any] = [:]
            for window in windows {
                let report = try cli.run(["report", "--window", window, "--now", Self.now, "--format", "json", "--top", "50"])
                #expect(report.status == 0, "\(report.stderr)")
                out["report \(window)"] = report.json
            }
            let keys = ((out["report all"] as! [String: Any])["issues"] as! [[String: Any]]).map { $0["key"] as! String }
            for key in keys.prefix(4) {
                for window in ["all", "30d"] {
                    out["show \(key) \(window)"] = try cli.run(["show", key, "--window", window, "--now", Self.now, "--format", "json"]).json
                }
                out["history \(key)"] = try cli.run(["history", key, "--format", "json"]).json
            }
            let releases = try cli.run(["release", "list", "--format", "json"]).stdout
            out["releases"] = try JSONSerialization.jsonObject(with: Data(releases.utf8))
            // The minutes, and the meeting's agenda, as the team reads them.
            for window in ["all", "90d"] {
                out["minutes \(window)"] = try cli.run(["report", "--window", window, "--now", Self.now, "--format", "markdown"]).stdout
                out["agenda \(window)"] = try cli.run(["meeting", "--print", "--window", window, "--now", Self.now]).stdout
            }
            return out
        }
        let before = try answers()
        var naive: [String: String] = [:]
        for key in ((before["report all"] as! [String: Any])["issues"] as! [[String: Any]]).prefix(4).map({ $0["key"] as! String }) {
            naive[key] = try cli.run(["export", "--key", key, "--window", "all", "--now", Self.now]).stdout
        }
        let prune = try cli.run(["retention", "prune", "--keep", "90d", "--now", Self.now])
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stdout.contains("raw events kept since 2026-08-01"), "\(prune.stdout)")
        let after = try answers()
        let since = "2026-08-01T00:00:00Z"
        for (name, old) in before {
            let new = after[name]!
            if let old = old as? [String: Any], let new = new as? [String: Any] {
                #expect(new["users_approximate"] == nil, "\(name): windows that run to the data stay exact")
                #expect(try Self.canonical(Self.normalised(old, since: since)) == Self.canonical(Self.normalised(new, since: since)), "\(name)")
                if name.hasPrefix("report") || name.hasPrefix("show") { #expect(new["raw_events_since"] as? String == since, "\(name)") }
            } else if let old = old as? String, let new = new as? String {
                // The minutes and the agenda: the same, but for lines marked `≈` (users over pruned
                // days) and the complaints that cite no code, which are pruned and say from when.
                func split(_ text: String) -> (kept: [Substring], unlinked: Substring?) {
                    let parts = text.components(separatedBy: "Complaints that cite no code")
                    return (parts[0].split(separator: "\n").filter { !$0.contains("≈") && !$0.contains("| Users |") },
                            parts.count > 1 ? parts[1].split(separator: "\n").first : nil)
                }
                let (o, n) = (split(old), split(new))
                #expect(!o.kept.isEmpty && o.kept == n.kept, "\(name): before only \(Set(o.kept).subtracting(n.kept)); after only \(Set(n.kept).subtracting(o.kept))")
                if name.hasSuffix(" all") { #expect(n.unlinked?.contains("those before 2026-08-01 were pruned") == true, "\(name): \(new)") }
                if name.hasSuffix(" 90d") { #expect(n.unlinked == o.unlinked, "\(name)") }
                if name == "minutes 90d" {
                    // The window before this one reaches past the horizon: its users are marked, and no change is made of them.
                    #expect(new.contains(#/\| Users \| \d+ \| ≈\d+ \| – \|/#), "\(new)")
                    #expect(new.contains("≈ a lower bound: the raw events before 2026-08-01 were pruned"), "\(new)")
                    #expect(old.split(separator: "\n").first { $0.hasPrefix("| Users |") } != nil)
                }
            } else {
                #expect(try Self.canonical(old) == Self.canonical(new), "\(name)")
            }
        }

        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("raw events before 2026-08-01 were pruned"))
        #expect(check.stdout.contains("size:   event_row"))

        // History against a naive count over the events as ingested (exported before the prune).
        for (key, exported) in naive {
            var events: [String: Int] = [:], users: [String: Set<String>] = [:]
            for line in exported.split(separator: "\n") {
                let e = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let month = String((e["timestamp"] as! String).prefix(7))
                events[month, default: 0] += 1
                if let user = e["user_id"] as? String { users[month, default: []].insert(user) }
            }
            let months = (after["history \(key)"] as! [String: Any])["months"] as! [[String: Any]]
            #expect(months.count > 30, "three years of months")
            for m in months {
                let name = m["month"] as! String
                #expect(m["events"] as? Int == events[name] ?? 0, "\(key) \(name)")
                #expect(m["users"] as? Int == users[name]?.count ?? 0, "\(key) \(name)")
            }
        }

        // Export names the days it no longer has.
        let export = try cli.run(["export", "--window", "all", "--now", Self.now])
        #expect(export.stderr.contains("before 2026-08-01 are not in this export"))
        // A window that ends before the data and reaches past the horizon marks its users.
        let old = try cli.run(["report", "--window", "30d", "--now", "2026-03-01T00:00:00Z", "--format", "json"]).json
        #expect(old["users_approximate"] as? Bool == true)
    }

    /// `release V` for windows reaching before the cut (and one an hour long, which pruned days
    /// kept per day cannot answer to the hour): every figure as before the prune, apart from
    /// those marked — users `≈` (a lower bound, per issue and in the JSON), and an hourly
    /// window's counts (`counts_approximate`, lower bounds too). Never silently different.
    @Test func releaseComparisonsBeforeTheCutAreAnsweredFromTheKeptFiguresOrMarked() throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 6_000, issues: 16, days: 1_095)
        try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        let releases = try cli.run(["release", "list", "--format", "json"]).json["releases"] as! [[String: Any]]
        let versions = releases.map { $0["version"] as! String }
        #expect(versions.count >= 4, "\(versions)")
        // At the data's end, and on a day of last winter whose events the prune removes.
        let asked = [(Self.now, ["all", "90d", "30d"]), ("2026-03-01T12:00:00Z", ["all", "30d", "7d", "24h"])]
        func answers() throws -> [String: [String: Any]] {
            var out: [String: [String: Any]] = [:]
            for version in versions.dropFirst() {
                for (now, windows) in asked {
                    for window in windows {
                        let run = try cli.run(["release", version, "--window", window, "--now", now, "--format", "json"])
                        #expect(run.status == 0, "\(run.stderr)")
                        out["\(version) \(window) \(now)"] = run.json
                    }
                }
            }
            return out
        }
        let before = try answers()
        #expect(try cli.run(["retention", "prune", "--keep", "90d", "--now", Self.now]).status == 0)
        let after = try answers()
        var marked = (users: 0, counts: 0, issues: 0)
        for (name, old) in before {
            var new = try #require(after[name])
            let sections = ["new", "worse", "better", "gone"]
            if new["counts_approximate"] as? Bool == true {
                // Pruned days only in part inside the hour window are left out: lower bounds.
                marked.counts += 1
                #expect(name.contains(" 24h "), "\(name): only an hourly window needs pruned days split by hour")
                for section in sections {
                    let olds = Dictionary(uniqueKeysWithValues: (old[section] as! [[String: Any]]).map { ($0["key"] as! String, $0) })
                    for issue in new[section] as! [[String: Any]] {
                        let was = olds[issue["key"] as! String] ?? [:]
                        #expect((issue["events"] as! Int) <= (was["events"] as? Int ?? .max), "\(name)")
                    }
                }
                continue
            }
            if (old["window"] as! String) != "all" && name.hasSuffix(Self.now) {
                #expect(new["raw_events_since"] == nil, "\(name): a window of kept days says nothing")
            }
            new["raw_events_since"] = nil
            if new["users_approximate"] as? Bool == true { marked.users += 1 }
            new["users_approximate"] = nil
            var old = old
            for section in sections {
                let olds = Dictionary(uniqueKeysWithValues: (old[section] as! [[String: Any]]).map { ($0["key"] as! String, $0) })
                var issues = new[section] as! [[String: Any]]
                var expected = old[section] as! [[String: Any]]
                for (i, issue) in issues.enumerated() where issue["users_approximate"] as? Bool == true {
                    marked.issues += 1
                    let was = try #require(olds[issue["key"] as! String], "\(name): \(issue["key"]!) moved section")
                    // A lower bound, and at least one user where there were any.
                    for field in ["users", "previous_users"] {
                        let n = issue[field] as! Int, m = was[field] as! Int
                        #expect(n <= m && (m == 0) == (n == 0), "\(name) \(field): \(n) against \(m)")
                    }
                    issues[i]["users_approximate"] = nil
                    issues[i]["users"] = nil
                    issues[i]["previous_users"] = nil
                    let j = try #require(expected.firstIndex { $0["key"] as? String == issue["key"] as? String })
                    expected[j]["users"] = nil
                    expected[j]["previous_users"] = nil
                }
                // New and gone issues are ordered by users: where some are lower bounds, the order may change.
                if issues.count != (new[section] as! [[String: Any]]).filter({ $0["users_approximate"] == nil }).count {
                    issues.sort { ($0["key"] as! String) < ($1["key"] as! String) }
                    expected.sort { ($0["key"] as! String) < ($1["key"] as! String) }
                }
                new[section] = issues
                old[section] = expected
            }
            #expect(try Self.canonical(old) == Self.canonical(new), "\(name)")
        }
        #expect(marked.users > 0 && marked.issues > 0, "some comparisons count users over several pruned days")
        print("release before the cut: \(before.count) comparisons; \(marked.users) with users ≈ (\(marked.issues) issues), \(marked.counts) hourly ≈")

        // The text marks them too.
        let version = versions.last!
        let text = try cli.run(["release", version, "--window", "all", "--now", Self.now]).stdout
        #expect(text.contains("raw events before 2026-08-01 were pruned"), "\(text)")
        #expect(text.contains("≈"), "\(text)")
    }

    /// A complaint that cites a key before any event carries it outlives the cut, so that the
    /// issue, when its first event comes after the prune, counts it as it would have unpruned.
    @Test func aComplaintCitingAnIssueNotYetSeenOutlivesThePruneAndCountsWhenItComes() throws {
        let (pruned, clean) = (try CLI(), try CLI())
        let lines = TemporaryStore.sampleLines(events: 1_000, issues: 8, days: 400) + [
            TemporaryStore.complaint("early-1", "2026-02-10T09:00:00Z", codes: ["PA2-DB11-NE8"]),
            TemporaryStore.complaint("early-2", "2026-02-11T09:00:00Z", codes: ["PA2-DB11-NE8", "ZZ9-NOPE1"]),
        ]
        let later = [TemporaryStore.event("late-1", "2026-11-20T10:00:00Z", codes: "PA2-DB11-NE8")]
        for cli in [pruned, clean] { try cli.run(["ingest", try cli.file("a.ndjson", lines.joined(separator: "\n") + "\n")]) }
        #expect(try pruned.run(["retention", "prune", "--keep", "90d", "--now", Self.now]).status == 0)
        for cli in [pruned, clean] { try cli.run(["ingest", try cli.file("b.ndjson", later.joined(separator: "\n") + "\n")]) }
        let show = ["show", "PA2-DB11-NE8", "--window", "all", "--now", Self.now, "--format", "json"]
        let (a, b) = (try pruned.run(show).json, try clean.run(show).json)
        let history = ["history", "PA2-DB11-NE8", "--format", "json"]
        let months = try #require(try pruned.run(history).json["months"] as? [[String: Any]])
        #expect(months.first { $0["month"] as? String == "2026-02" }?["complaints"] as? Int == 2, "\(months)")
        #expect(try Self.canonical(pruned.run(history).json) == Self.canonical(clean.run(history).json))
        #expect(try Self.canonical(Self.normalised(a, since: nil)) == Self.canonical(Self.normalised(b, since: nil)))
        #expect(try pruned.run(["check"]).status == 0)
    }

    @Test func theRetentionSettingIsAppliedByIngestOnceADay() throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 1_500, issues: 8, days: 400)
        try cli.run(["ingest", try cli.file("a.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(try cli.run(["retention", "set", "nine"]).status == 1)
        let set = try cli.run(["retention", "set", "90d"])
        #expect(set.status == 0 && set.stdout.contains("raw events kept 90d"), "\(set.stdout)\(set.stderr)")
        let fresh = TemporaryStore.event("new-1", "2026-11-20T20:00:00Z")
        let first = try cli.run(["ingest", "--now", Self.now, try cli.file("b.ndjson", fresh + "\n")])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("prune: kept 90d"), "\(first.stdout)")
        // Once a day: the next ingest of the same day does not prune again.
        let second = try cli.run(["ingest", "--now", Self.now, try cli.file("c.ndjson", fresh + "\n")])
        #expect(!second.stdout.contains("prune:"), "\(second.stdout)")
        // An event older than the raw horizon is not stored, and said so.
        let old = TemporaryStore.event("old-1", "2025-01-05T10:00:00Z")
        let late = try cli.run(["ingest", "--now", Self.now, try cli.file("d.ndjson", old + "\n")])
        #expect(late.stdout.contains("1 records older than the store's retention skipped"), "\(late.stdout)")
        #expect(try cli.run(["check"]).status == 0)
        #expect(try cli.run(["retention"]).stdout.contains("raw events since 2026-08-01"))

        // `--retention` on ingest sets the same: the same period waits for the next day, a shorter
        // one is applied at once, after the files.
        let same = try cli.run(["ingest", "--retention", "13w", "--now", Self.now, try cli.file("e.ndjson", fresh + "\n")])
        #expect(same.status == 0 && !same.stdout.contains("prune:"), "\(same.stdout)\(same.stderr)")
        #expect(try cli.run(["retention"]).stdout.contains("raw events kept 91d"))
        let shorter = try cli.run(["ingest", "--retention", "30d", "--now", Self.now, try cli.file("f.ndjson", fresh + "\n")])
        #expect(shorter.status == 0 && shorter.stdout.contains("prune: kept 30d"), "\(shorter.stdout)\(shorter.stderr)")
        #expect(try cli.run(["retention"]).stdout.contains("raw events since 2026-10-01"))
        #expect(try cli.run(["ingest", "--retention", "0d", try cli.file("g.ndjson", fresh + "\n")]).status == 1)
        #expect(try cli.run(["check"]).status == 0)
    }

    /// On a store in a file, in both passes (a team store's disk is the server's, which it watches itself).
    @Test func ingestStopsAtTheFreeSpaceFloorNamingIt() throws {
        let cli = try CLI()
        let lines = TemporaryStore.sampleLines(events: 200, issues: 4, days: 10)
        let file = try cli.file("a.ndjson", lines.joined(separator: "\n") + "\n")
        let store = cli.folder.path + "/floor.sqlite"
        let refused = try cli.run(["ingest", "--store", store, "--min-free", "1000000TiB", file])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("below the floor of") && refused.stderr.contains("--min-free"), "\(refused.stderr)")
        #expect(try cli.run(["ingest", "--store", store, "--min-free", "lots", file]).status == 1)
        let env = try cli.run(["ingest", "--store", store, file], environment: ["ERRTRIAGE_MIN_FREE": "0"])
        #expect(env.status == 0, "\(env.stderr)")
    }
}
