import TriageModel

/// The JSON of `errtriage alerts`, for a chat webhook.
public enum AlertJSON {
    public static func report(_ r: AlertReport) -> JSONValue {
        let alerts: [JSONValue] = r.firings.map(firing)
        let newIssues: [JSONValue] = r.newIssues.map { ReportJSON.summary($0, rank: nil) }
        let regressions: [JSONValue] = r.regressions.map { ReportJSON.summary($0, rank: nil) }
        let spikes: [JSONValue] = r.spikes.map { ReportJSON.summary($0, rank: nil) }
        return .object([
            ("since", .string(r.since.iso8601)), ("now", .string(r.now.iso8601)),
            ("alerts", .array(alerts)), ("new_issues", .array(newIssues)), ("regressions", .array(regressions)),
            ("spikes", .array(spikes)),
        ])
    }

    public static func firing(_ f: AlertReport.Firing) -> JSONValue {
        let members: [(String, JSONValue)] = [
            ("alert", .string(f.alert.name)), ("query", .string(f.alert.query)), ("measure", .string(f.alert.measure.rawValue)),
            ("threshold", ReportJSON.int(f.alert.threshold)), ("within", .string(f.alert.within.rawValue)),
            ("count", ReportJSON.int(f.count)), ("issue", ReportJSON.summary(f.issue, rank: nil)),
        ]
        return .object(members)
    }
}
