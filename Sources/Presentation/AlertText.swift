import TriageModel

/// Alerts as text: `alert list`, and the lines `errtriage alerts` prints for a chat webhook.
public enum AlertText {
    /// One alert: its name, query and threshold.
    public static func rule(_ alert: AlertRule) -> String {
        TextSanitizer.sanitize(alert.name) + "  " + TextSanitizer.sanitize(alert.query)
            + "  ≥ \(alert.threshold) \(alert.measure.rawValue) within \(alert.within.rawValue)"
    }

    /// Every alert, one a line; a sentence when there are none.
    public static func rules(_ alerts: [AlertRule]) -> String {
        guard !alerts.isEmpty else { return "no alerts (errtriage alert add NAME --query Q --events N --within 1h adds one)\n" }
        return alerts.map { rule($0) + "\n" }.joined()
    }

    /// One line per firing, new issue and regression; nothing at all when there is nothing to tell.
    public static func report(_ report: AlertReport) -> String {
        var out = ""
        for f in report.firings {
            out += "ALERT \(TextSanitizer.sanitize(f.alert.name)): \(f.issue.key) \(TextSanitizer.sanitize(Format.title(f.issue.chain)))"
                + " — \(f.count) \(f.alert.measure.rawValue) within \(f.alert.within.rawValue) (threshold \(f.alert.threshold))\n"
        }
        for issue in report.newIssues {
            out += "NEW \(issue.key) \(TextSanitizer.sanitize(Format.title(issue.chain))) — first seen \(issue.firstSeen.minuteText)\n"
        }
        for issue in report.spikes {
            out += "SPIKE \(issue.key) \(TextSanitizer.sanitize(Format.title(issue.chain))) — \(issue.events) events in 24h\n"
        }
        for issue in report.regressions {
            out += "REGRESSED \(issue.key) \(TextSanitizer.sanitize(Format.title(issue.chain))) — \(Format.versionRange(issue.firstVersion, issue.lastVersion))\n"
        }
        return out
    }
}
