import TriageModel

/// The JSON of `releases` and `release` (docs/guide/releases.md).
public enum ReleaseJSON {
    public static func releases(_ releases: [ReleaseSummary]) -> JSONValue {
        .object([("releases", .array(releases.map { r in
            .object([
                ("version", .string(r.version)), ("first_seen", .string(r.firstSeen.iso8601)), ("last_seen", .string(r.lastSeen.iso8601)),
                ("users", ReportJSON.int(r.users)), ("events", ReportJSON.int(r.events)), ("issues", ReportJSON.int(r.issues)),
                ("new_issues", ReportJSON.int(r.newIssues)), ("regressions", ReportJSON.int(r.regressions)),
                ("active_user_days", r.adoption.map { ReportJSON.int($0.active) } ?? .null),
                ("error_user_days", r.adoption.map { ReportJSON.int($0.withError) } ?? .null),
                ("error_free_users_percent", r.adoption?.errorFreePercent.map { .number(Format.tenths($0)) } ?? .null),
            ])
        }))])
    }

    public static func comparison(_ c: ReleaseComparison) -> JSONValue {
        func issues(_ list: [ReleaseIssue]) -> JSONValue {
            .array(list.map { i in
                .object([
                    ("key", .string(i.key)), ("chain", .string(i.chain.fullForm)), ("title", .string(Format.title(i.chain))),
                    ("kind", i.kind.map { .string($0.rawValue) } ?? .null),
                    ("users", ReportJSON.int(i.users)), ("events", ReportJSON.int(i.events)),
                    ("previous_users", ReportJSON.int(i.previousUsers)), ("previous_events", ReportJSON.int(i.previousEvents)),
                    ("per_mille", .number(Format.tenths(i.perMille))), ("previous_per_mille", .number(Format.tenths(i.previousPerMille))),
                    ("series", .array(i.series.map(ReportJSON.int))),
                ] + (i.usersApproximate ? [("users_approximate", .bool(true))] : []))
            })
        }
        return .object([
            ("version", .string(c.version)), ("previous", c.previous.map(JSONValue.string) ?? .null),
            ("window", .string(c.window.rawValue)), ("adoption_known", .bool(c.adoptionKnown)),
            ("user_days", ReportJSON.int(c.users)), ("previous_user_days", ReportJSON.int(c.previousUsers)),
        ] + retention(c) + [
            ("new", issues(c.new)), ("worse", issues(c.worse)), ("better", issues(c.better)), ("gone", issues(c.gone)),
        ])
    }

    /// After a prune, when the window reaches before the raw horizon: `raw_events_since`, and
    /// `users_approximate` / `counts_approximate` where those are lower bounds. Nothing otherwise,
    /// so the JSON of a store never pruned stays as it was.
    static func retention(_ c: ReleaseComparison) -> [(String, JSONValue)] {
        guard let since = c.rawEventsSince else { return [] }
        return [("raw_events_since", .string(since.iso8601))]
            + (c.usersApproximate ? [("users_approximate", .bool(true))] : [])
            + (c.countsApproximate ? [("counts_approximate", .bool(true))] : [])
    }
}
